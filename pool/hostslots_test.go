package pool

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/g16prover/g16/backend"
)

// heldJobs are slowJobs (fast solves, slow device work, so that prepared
// jobs pile up) that count in held how many of them are between the start
// of Prepare and the end of Finish, and keep the most in most.
func heldJobs(n int, held, most *atomic.Int32) []*fakeJob {
	jobs := slowJobs(n, 0, time.Millisecond, 10*time.Millisecond)
	for _, j := range jobs {
		prep := j.prepare
		j.prepare = func(j *fakeJob) error {
			h := held.Add(1)
			for m := most.Load(); h > m && !most.CompareAndSwap(m, h); m = most.Load() {
			}
			return prep(j)
		}
		j.onFinish = func(*fakeJob) { held.Add(-1) }
	}
	return jobs
}

// TestHostSlots runs batches of 6 on a device with cores of its own (two
// workers, four solvers: without a bound, up to 2 + 2 + 4 jobs hold their
// host state) under WithHostSlots(k): never more than k jobs are prepared
// and not finished at once, counted by the jobs themselves and read from
// the trace, and every job finishes once.
func TestHostSlots(t *testing.T) {
	devs := []backend.Backend{offHost{newCPU(t, 0, 0, nil)}}
	for _, k := range []int{0, 1, 2, 3} {
		t.Run(fmt.Sprintf("slots=%d", k), func(t *testing.T) {
			var held, most atomic.Int32
			jobs := heldJobs(6, &held, &most)
			opts := []Option{WithWorkers(2), WithSolvers(4)}
			if k > 0 {
				opts = append(opts, WithHostSlots(k))
			}
			tr, err := runBatch(t, context.Background(), devs, jobs, &fakeResident{}, opts...)
			if err != nil {
				t.Fatal(err)
			}
			checkAllFinished(t, jobs)
			got, seen := int(most.Load()), tr.HeldAtOnce()
			t.Logf("slots %d: at most %d jobs held at once (trace: %d)", k, got, seen)
			if k == 0 {
				// The bound must matter for the cases below to mean anything.
				if got <= 3 {
					t.Errorf("unbounded: at most %d jobs held at once; the test needs more than 3", got)
				}
				return
			}
			if got > k || seen > k {
				t.Errorf("WithHostSlots(%d): %d jobs held at once (trace: %d)", k, got, seen)
			}
			if s := tr.Summary(); s.HostSlots != k {
				t.Errorf("summary: host slots %d, want %d", s.HostSlots, k)
			}
		})
	}
}

// TestHostSlotsFailedPrepare: a job whose Prepare fails gives its slot
// back; with one slot, the others still all finish and Run names the one
// that failed.
func TestHostSlotsFailedPrepare(t *testing.T) {
	devs := []backend.Backend{offHost{newCPU(t, 0, 0, nil)}}
	var held, most atomic.Int32
	jobs := heldJobs(6, &held, &most)
	bad := errors.New("unsatisfied")
	jobs[2].prepare = func(*fakeJob) error { return bad }
	_, err := runBatch(t, context.Background(), devs, jobs, &fakeResident{}, WithWorkers(2), WithHostSlots(1))
	var errs Errors
	if !errors.As(err, &errs) || len(errs) != 1 || errs[0].Job != 2 || !errors.Is(err, bad) {
		t.Fatalf("Run: %v; want job 2's error alone", err)
	}
	for i, j := range jobs {
		if i != 2 && j.finishes.Load() != 1 {
			t.Errorf("job %d finished %d times", i, j.finishes.Load())
		}
	}
	if got := most.Load(); got > 1 {
		t.Errorf("WithHostSlots(1): %d jobs held at once", got)
	}
	if err := Check(WithHostSlots(0)); err == nil {
		t.Error("WithHostSlots(0) accepted")
	}
}
