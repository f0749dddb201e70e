// Package hostmem says how much memory the host can still give the
// process, for preflight checks that fail a job which cannot fit at all.
package hostmem
