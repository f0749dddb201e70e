package service

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/g16prover/g16/service/client"
)

// TestIndexListLimit: list returns the oldest limit jobs of those that
// match, every one with limit 0, and counts them all either way.
func TestIndexListLimit(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	x := newIndex(nil)
	base := time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)
	const n = 1200 // beyond the API's default limit of 1000
	for i := range n {
		j := client.Job{ID: fmt.Sprintf("j%04d", i), Batch: "b", State: client.Queued,
			Submitted: base.Add(time.Duration(rng.IntN(1 << 30)))}
		x.jobs[j.ID] = j
	}
	x.jobs["other"] = client.Job{ID: "other", Batch: "c", State: client.Done, Submitted: base}
	all := x.list(listFilter{batch: "b"})
	if len(all.Jobs) != n || all.Counts[client.Queued] != n || all.Counts[client.Done] != 0 {
		t.Fatalf("limit 0: %d jobs, counts %v; want %d queued", len(all.Jobs), all.Counts, n)
	}
	for i := 1; i < n; i++ {
		if all.Jobs[i].Submitted.Before(all.Jobs[i-1].Submitted) {
			t.Fatalf("job %d submitted before job %d", i, i-1)
		}
	}
	some := x.list(listFilter{batch: "b", limit: 20})
	if len(some.Jobs) != 20 || some.Counts[client.Queued] != n {
		t.Fatalf("limit 20: %d jobs, counts %v", len(some.Jobs), some.Counts)
	}
	for i, j := range some.Jobs {
		if j.ID != all.Jobs[i].ID {
			t.Fatalf("limit 20: job %d is %s, want the oldest %s", i, j.ID, all.Jobs[i].ID)
		}
	}
}
