package main

import "syscall"

// peakRSS is the process's peak resident set size in bytes (getrusage's
// ru_maxrss, which Linux gives in KiB).
func peakRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return int64(ru.Maxrss) << 10
}
