// Package hostmem says how much memory the host can still give the
// process, for preflight checks that fail a job which cannot fit at all,
// and keeps the process-wide registry of memory that idle owners hold for
// later use and give up when another owner finds the host short (Holder).
package hostmem
