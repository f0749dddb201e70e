package service

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/g16prover/g16/service/client"
)

// index is the server's view of every job, kept current by a watch on the
// job bucket and by the server's own submissions (so that a list right
// after a submit holds the job): it answers list and wait, and counts jobs
// by state for the metrics. Each job's record is kept at the highest bucket
// revision seen, so a watch update that arrives after a newer write from
// this server is dropped.
type index struct {
	mu      sync.Mutex
	jobs    map[string]client.Job
	revs    map[string]uint64
	counts  map[client.State]int
	waiters map[string][]chan struct{}
	ready   chan struct{} // closed once the watch has replayed the bucket
	onDone  func(j client.Job)
}

func newIndex(onDone func(client.Job)) *index {
	return &index{
		jobs:    make(map[string]client.Job),
		revs:    make(map[string]uint64),
		counts:  make(map[client.State]int),
		waiters: make(map[string][]chan struct{}),
		ready:   make(chan struct{}),
		onDone:  onDone,
	}
}

// watch follows the bucket until ctx ends.
func (x *index) watch(ctx context.Context, kv jetstream.KeyValue, log *slog.Logger) error {
	w, err := kv.WatchAll(ctx)
	if err != nil {
		return err
	}
	go func() {
		defer w.Stop()
		live := false
		for {
			select {
			case <-ctx.Done():
				return
			case e, ok := <-w.Updates():
				if !ok {
					return
				}
				if e == nil {
					if !live {
						live = true
						close(x.ready)
					}
					continue
				}
				if e.Operation() != jetstream.KeyValuePut {
					continue
				}
				// The API's view only: the seed, witness and proof are
				// skipped, not decoded.
				var j client.Job
				if err := json.Unmarshal(e.Value(), &j); err != nil {
					log.Error("job record is corrupt", "job", e.Key(), "err", err)
					continue
				}
				x.put(j, e.Revision(), live)
			}
		}
	}()
	return nil
}

// put records job j as of bucket revision rev, unless the index holds a
// revision of it at least as new.
func (x *index) put(j client.Job, rev uint64, live bool) {
	x.mu.Lock()
	if rev <= x.revs[j.ID] {
		x.mu.Unlock()
		return
	}
	x.revs[j.ID] = rev
	old, had := x.jobs[j.ID]
	if had {
		x.counts[old.State]--
	}
	x.jobs[j.ID] = j
	x.counts[j.State]++
	var wake []chan struct{}
	if j.State.Finished() {
		wake = x.waiters[j.ID]
		delete(x.waiters, j.ID)
	}
	x.mu.Unlock()
	for _, c := range wake {
		close(c)
	}
	if live && j.State.Finished() && (!had || !old.State.Finished()) && x.onDone != nil {
		x.onDone(j)
	}
}

// wait returns the job once it is finished, or as it stands when ctx
// ends; false if the index has not seen it by then.
func (x *index) wait(ctx context.Context, id string) (client.Job, bool) {
	x.mu.Lock()
	if j, ok := x.jobs[id]; ok && j.State.Finished() {
		x.mu.Unlock()
		return j, true
	}
	c := make(chan struct{})
	x.waiters[id] = append(x.waiters[id], c)
	x.mu.Unlock()
	select {
	case <-c:
	case <-ctx.Done():
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if ws := x.waiters[id]; ws != nil {
		ws = slices.DeleteFunc(ws, func(w chan struct{}) bool { return w == c })
		if len(ws) == 0 {
			delete(x.waiters, id)
		} else {
			x.waiters[id] = ws
		}
	}
	j, ok := x.jobs[id]
	return j, ok
}

// listFilter selects jobs.
type listFilter struct {
	circuit, batch string
	state          client.State
	limit          int
}

// list returns the matching jobs, oldest first, up to f.limit, and the
// counts by state over all that match.
func (x *index) list(f listFilter) client.JobList {
	x.mu.Lock()
	var out []client.Job
	counts := make(map[client.State]int)
	for _, j := range x.jobs {
		if f.circuit != "" && j.Circuit != f.circuit || f.batch != "" && j.Batch != f.batch {
			continue
		}
		counts[j.State]++
		if f.state != "" && j.State != f.state {
			continue
		}
		out = append(out, j)
	}
	x.mu.Unlock()
	slices.SortFunc(out, func(a, b client.Job) int {
		if c := a.Submitted.Compare(b.Submitted); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	if f.limit > 0 && len(out) > f.limit {
		out = out[:f.limit]
	}
	if out == nil {
		out = []client.Job{}
	}
	return client.JobList{Jobs: out, Counts: counts}
}

func (x *index) count(s client.State) int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.counts[s]
}

// waitReady blocks until the index holds every stored job.
func (x *index) waitReady(ctx context.Context) error {
	select {
	case <-x.ready:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(time.Minute):
		return context.DeadlineExceeded
	}
}
