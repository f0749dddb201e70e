//go:build !unix

package bls12381_test

import "time"

// cpuTime returns 0: no CPU time is reported on this system.
func cpuTime() time.Duration { return 0 }
