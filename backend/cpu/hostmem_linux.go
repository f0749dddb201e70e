package cpu

import (
	"sync"
	"syscall"
)

// hostMemory is the host's physical memory in bytes: no allocation of the
// CPU backend can succeed beyond it.
var hostMemory = sync.OnceValue(func() int64 {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil || si.Totalram == 0 {
		return fallbackHostMemory
	}
	return int64(min(uint64(si.Totalram)*uint64(si.Unit), uint64(fallbackHostMemory)))
})
