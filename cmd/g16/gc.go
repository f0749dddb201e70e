package main

import (
	"os"
	"runtime/debug"
)

// gcPercent is the garbage collector's target (GOGC) g16 runs with when
// the environment sets none. A prover's heap is mostly long-lived vectors
// without pointers (the proving key's bases, the R1CS, the wire and
// constraint vectors), which a collection marks at almost no cost; Go's
// default of 100 lets the heap grow to twice what is live before it
// collects, which at 2^20 constraints is a second copy of the key in
// garbage.
const gcPercent = 10

// tuneGC sets gcPercent unless GOGC is set.
func tuneGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
}
