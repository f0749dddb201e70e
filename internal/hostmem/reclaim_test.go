package hostmem

import (
	"math/rand/v2"
	"sync"
	"testing"
)

// TestReclaimOthers: a Holder's ReclaimOthers drops every other registered
// Holder's memory (random byte counts), never its own, sums what they let
// go, and a closed Holder is asked no more; concurrent calls are race-free.
func TestReclaimOthers(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	var mu sync.Mutex
	held := make([]int64, 3)
	hs := make([]*Holder, len(held))
	for i := range held {
		held[i] = 1 + rng.Int64N(1<<20)
		hs[i] = Hold(func() int64 {
			mu.Lock()
			defer mu.Unlock()
			n := held[i]
			held[i] = 0
			return n
		})
		defer hs[i].Close()
	}
	want := held[1] + held[2]
	if got := hs[0].ReclaimOthers(); got != want {
		t.Fatalf("ReclaimOthers gave up %d bytes, want the others' %d", got, want)
	}
	if held[0] == 0 || held[1] != 0 || held[2] != 0 {
		t.Fatalf("after the first Holder's ReclaimOthers the Holders hold %v, want only the first's left", held)
	}
	hs[0].Close()
	held[1] = 7
	if got := hs[1].ReclaimOthers(); got != 0 {
		t.Fatalf("ReclaimOthers gave up %d bytes from a closed Holder and an empty one, want 0", got)
	}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() { hs[1+i%2].ReclaimOthers() })
	}
	wg.Wait()
}
