//go:build !linux

package groth16

// hostAvailable is unknown (0) outside Linux: the preflight is skipped.
func hostAvailable() int64 { return 0 }
