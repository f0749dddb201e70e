//go:build !linux

package cpu

// hostMemory bounds the CPU backend's allocations where the host's memory
// is not queried.
func hostMemory() int64 { return fallbackHostMemory }
