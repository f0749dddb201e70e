//go:build unix

package bls12381_test

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used (user and system, all
// threads), or 0 when it cannot tell.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
