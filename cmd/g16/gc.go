package main

import (
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"

	"github.com/g16prover/g16/internal/hostmem"
)

// gcPercent is the garbage collector's target (GOGC) g16 runs with when
// the environment sets none. A prover's heap is mostly long-lived vectors
// without pointers (the proving key's bases, the R1CS, the wire and
// constraint vectors), which a collection marks at almost no cost; Go's
// default of 100 lets the heap grow to twice what is live before it
// collects, which at 2^20 constraints is a second copy of the key in
// garbage.
const gcPercent = 10

// memoryReserve is the host memory the Go runtime's soft limit leaves to
// what it does not count: the CUDA driver's context and pinned staging
// buffers, the C libraries, the binary.
const memoryReserve = 2 << 30

// gcCommands are the commands that prove one large circuit at a time. The
// service's commands (serve, worker, loadtest) prove streams of proofs,
// often small, where collecting at every tenth of a small heap would cost
// more CPU than the memory it saves.
var gcCommands = map[string]bool{"bench": true, "prove": true, "setup": true}

// tuneGC sets gcPercent for command unless GOGC is set, and unless
// GOMEMLIMIT is set, a soft limit on the Go runtime's memory of what the
// host has available at the start less memoryReserve: near it the
// collector runs as often as it must rather than let garbage take the
// host's last free memory (at 2^27 the live heap is ~100 GiB of a 125 GiB
// host, where a tenth of headroom is 10 GiB).
func tuneGC(command string) {
	if !gcCommands[command] {
		return
	}
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		if avail := hostmem.Available(); avail > 2*memoryReserve {
			debug.SetMemoryLimit(avail - memoryReserve)
			memoryLimitSet = true
		}
	}
}

// memoryLimitSet: tuneGC set the Go memory limit (GOMEMLIMIT did not).
var memoryLimitSet bool

// takeOffMemoryLimit lowers the Go runtime's soft memory limit, when one
// is set (tuneGC's or GOMEMLIMIT's), by bytes the process holds outside the
// Go heap (a key's host copy mapped outside it), so that the limit still
// bounds the process's memory as a whole; it leaves at least 1 GiB.
func takeOffMemoryLimit(bytes int64) {
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		debug.SetMemoryLimit(max(l-bytes, 1<<30))
	}
}

// returnFreeMemory collects and gives every free page of the Go heap back
// to the host (debug.FreeOSMemory), between a run's stages: pages the
// collector has freed otherwise stay with the process until the
// background scavenger returns them, beside the next stage's fresh
// vectors (the key's host copy is mapped outside the heap and cannot reuse
// them).
func returnFreeMemory() { debug.FreeOSMemory() }

// proofHeadroom is the Go memory limitForProof leaves beyond what it counts:
// the solver's per-task scratch, hints, a streamed K chunk, the witness.
const proofHeadroom = 1 << 30

// limitForProof lowers the Go soft memory limit, when tuneGC set it, to the
// Go runtime's memory now plus need (what one proof allocates) and
// proofHeadroom, if that is below the limit in force: the collector and
// the scavenger then hold the heap to what is live, instead of GOGC's
// tenth and the pages freed since the last return (about a fifth of the
// live heap at the peak of a 2^25 proof on the H200 host). If need is too
// low the collector runs more often (at most half the CPU), it does not
// fail. It returns the limit set, 0 when it left it.
func limitForProof(need int64) int64 {
	if !memoryLimitSet {
		return 0
	}
	l := goMemory() + need + proofHeadroom
	if l >= debug.SetMemoryLimit(-1) {
		return 0
	}
	debug.SetMemoryLimit(l)
	return l
}

// goMemory is the memory the Go runtime holds from the host, as its memory
// limit counts it: all it has mapped less the heap pages it has returned.
func goMemory() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64()) - int64(s[1].Value.Uint64())
}
