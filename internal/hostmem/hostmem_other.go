//go:build !linux

package hostmem

// Available is unknown (0) outside Linux.
func Available() int64 { return 0 }
