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

// TestIndexKeepsNewestRevision: a job's record stays at the newest bucket
// revision put, whatever order the puts come in (the server's own submit
// and the watch's replay of it race), and the counts by state follow it.
func TestIndexKeepsNewestRevision(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	x := newIndex(nil)
	states := []client.State{client.Queued, client.Running, client.Done}
	const jobs = 50
	for i := range jobs {
		id := fmt.Sprintf("j%02d", i)
		revs := rng.Perm(len(states))
		for _, r := range revs {
			x.put(client.Job{ID: id, State: states[r]}, uint64(r+1), true)
		}
		if got := x.jobs[id].State; got != client.Done {
			t.Fatalf("job %s after puts of revisions %v: %s, want done (revision 3)", id, revs, got)
		}
	}
	if x.count(client.Done) != jobs || x.count(client.Queued) != 0 || x.count(client.Running) != 0 {
		t.Fatalf("counts: done %d, queued %d, running %d; want %d done", x.count(client.Done),
			x.count(client.Queued), x.count(client.Running), jobs)
	}
}
