package main

import (
	"math"
	"os"
	"runtime/debug"
	"testing"

	"github.com/g16prover/g16/internal/hostmem"
)

// TestTuneGC: bench gets GOGC 10 and a soft memory limit of the host's
// available memory less the reserve; the service's commands get neither,
// and a GOGC or GOMEMLIMIT in the environment wins.
func TestTuneGC(t *testing.T) {
	savedPct := debug.SetGCPercent(100)
	savedLimit := debug.SetMemoryLimit(math.MaxInt64)
	savedSet := memoryLimitSet
	defer func() {
		debug.SetGCPercent(savedPct)
		debug.SetMemoryLimit(savedLimit)
		memoryLimitSet = savedSet
	}()
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		if v, ok := os.LookupEnv(env); ok {
			t.Setenv(env, v) // restored after the test
			os.Unsetenv(env)
		}
	}
	reset := func() {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	}

	tuneGC("serve")
	if p, l := debug.SetGCPercent(100), debug.SetMemoryLimit(-1); p != 100 || l != math.MaxInt64 {
		t.Errorf("serve: GOGC %d, memory limit %d; want both untouched", p, l)
	}
	reset()
	avail := hostmem.Available()
	tuneGC("bench")
	if p := debug.SetGCPercent(100); p != gcPercent {
		t.Errorf("bench: GOGC %d, want %d", p, gcPercent)
	}
	l := debug.SetMemoryLimit(-1)
	// The host's available memory moves while other tests run: tuneGC's
	// reading lies between the two taken around it, give or take 1 GiB.
	after := hostmem.Available()
	lo, hi := min(avail, after), max(avail, after)
	switch {
	case avail <= 2*memoryReserve:
		if l != math.MaxInt64 {
			t.Errorf("bench with %d bytes available: memory limit %d, want none", avail, l)
		}
	case l == math.MaxInt64 || l > hi-memoryReserve+(1<<30) || l < lo-memoryReserve-(1<<30):
		t.Errorf("bench: memory limit %d with %d bytes available, want about %d", l, avail, avail-memoryReserve)
	}
	debug.SetMemoryLimit(10 << 30)
	takeOffMemoryLimit(3 << 30)
	if l := debug.SetMemoryLimit(-1); l != 7<<30 {
		t.Errorf("10 GiB limit less 3 GiB outside the heap: %d", l)
	}
	takeOffMemoryLimit(100 << 30)
	if l := debug.SetMemoryLimit(-1); l != 1<<30 {
		t.Errorf("a limit lowered below 1 GiB: %d, want 1 GiB", l)
	}
	reset()
	takeOffMemoryLimit(3 << 30)
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		t.Errorf("no limit, 3 GiB outside the heap: limit %d, want none", l)
	}
	// limitForProof: only over a limit tuneGC set, and only downwards.
	reset()
	memoryLimitSet = false
	if l := limitForProof(1 << 30); l != 0 || debug.SetMemoryLimit(-1) != math.MaxInt64 {
		t.Errorf("limitForProof without tuneGC's limit set %d", l)
	}
	memoryLimitSet = true
	debug.SetMemoryLimit(1 << 50)
	// The runtime's memory moves between two readings (the scavenger
	// returns pages, the test allocates): the limit is within 64 MiB below
	// and 256 MiB above the Go memory read just before, plus what it adds.
	before := goMemory()
	l = limitForProof(1 << 30)
	if l < before+1<<30+proofHeadroom-(64<<20) || l > before+1<<30+proofHeadroom+(256<<20) || debug.SetMemoryLimit(-1) != l {
		t.Errorf("limitForProof(1 GiB) with %d bytes of Go memory: limit %d, want about %d", before, l, before+1<<30+proofHeadroom)
	}
	debug.SetMemoryLimit(1 << 20)
	if l := limitForProof(1 << 30); l != 0 || debug.SetMemoryLimit(-1) != 1<<20 {
		t.Errorf("limitForProof raised a lower limit: %d", l)
	}
	reset()
	t.Setenv("GOGC", "50")
	t.Setenv("GOMEMLIMIT", "1GiB")
	tuneGC("bench")
	if p, l := debug.SetGCPercent(100), debug.SetMemoryLimit(-1); p != 100 || l != math.MaxInt64 {
		t.Errorf("bench with GOGC and GOMEMLIMIT set: GOGC %d, memory limit %d; want the environment's (untouched here)", p, l)
	}
}
