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

// gcCommands are the commands that prove one large circuit at a time. The
// service's commands (serve, worker, loadtest) prove streams of proofs,
// often small, where collecting at every tenth of a small heap would cost
// more CPU than the memory it saves.
var gcCommands = map[string]bool{"bench": true, "prove": true, "setup": true}

// tuneGC sets gcPercent for command unless GOGC is set.
func tuneGC(command string) {
	if _, set := os.LookupEnv("GOGC"); !set && gcCommands[command] {
		debug.SetGCPercent(gcPercent)
	}
}
