package pool

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
)

// loseAt returns a hook that loses the device at its nth MSM (counting
// from 1): that call and, through the CPU backend's lost state, every
// later one fail with backend.ErrDeviceLost.
func loseAt(n int32) cpu.Hook {
	var msms atomic.Int32
	return func(op cpu.Op, size int64) error {
		if op == cpu.OpMSMG1 && msms.Add(1) == n {
			return fmt.Errorf("injected fault: %w", backend.ErrDeviceLost)
		}
		return nil
	}
}

// TestDeviceLostOneDevice: when the only device is lost, the batch stops at
// once: the partition that hit the fault fails with ErrDeviceLost, the
// ones not started fail without being solved and are named, and the
// caller can run them again on a reopened device.
func TestDeviceLostOneDevice(t *testing.T) {
	const nJobs, workers = 12, 2
	const solve = 30 * time.Millisecond
	devs := devices(newCPU(t, 0, 0, loseAt(3)))
	jobs := newFakeJobs(nJobs)
	for _, j := range jobs {
		j.prepare = func(*fakeJob) error { time.Sleep(solve); return nil }
	}
	start := time.Now()
	tr, err := runBatch(t, context.Background(), devs, jobs, &fakeResident{}, WithWorkers(workers))
	elapsed := time.Since(start)
	var errs Errors
	if !errors.As(err, &errs) {
		t.Fatalf("Run returned %v, want Errors", err)
	}
	if !errors.Is(err, backend.ErrDeviceLost) {
		t.Errorf("Run's error does not match ErrDeviceLost: %v", err)
	}
	var done, faulted, notRun int
	failed := make(map[int]*JobError)
	for _, je := range errs {
		failed[je.Job] = je
		if !errors.Is(je, backend.ErrDeviceLost) {
			t.Errorf("partition %d: error does not match ErrDeviceLost: %v", je.Job, je)
		}
		if strings.Contains(je.Error(), "not run") {
			notRun++
		} else {
			faulted++
		}
	}
	for _, j := range jobs {
		if _, ok := failed[j.idx]; !ok {
			done++
			if j.finishes.Load() != 1 {
				t.Errorf("partition %d: no error, yet not finished", j.idx)
			}
		}
	}
	var prepares int32
	for _, j := range jobs {
		prepares += j.prepares.Load()
	}
	t.Logf("%d done, %d failed on the device, %d not run, %d solved, in %v", done, faulted, notRun, prepares, elapsed)
	if done != 2 || done+faulted+notRun != nJobs || faulted < 1 || faulted > workers {
		t.Errorf("want 2 partitions done, 1 to %d failed on the device and the rest not run", workers)
	}
	// Once lost, no new partition is solved. A partition solved and not
	// done was, when the device was lost, with a device worker (at most
	// workers, the one that failed among them), prepared and waiting for
	// one, or being solved. On a host-bound device the solvers are as
	// many as the workers, and a solve starts only while fewer than
	// workers wait prepared, so those two together are at most
	// 2·workers−1. (Counting the device's failures alone and one solve a
	// worker, done+faulted+workers, missed the prepared ones: 6 solved
	// against that bound's 5, 2 done and 1 failed, in 29 of 650 runs at
	// GOMAXPROCS 1, 2 and 4 and 35 of 150 under -race -short; never 7.)
	// A pool that went on solving after the loss would solve all nJobs.
	if bound := done + workers + 2*workers - 1; int(prepares) > bound {
		t.Errorf("%d partitions solved, at most %d may be by the time the device was lost", prepares, bound)
	}
	if elapsed > time.Duration(nJobs/2)*solve+2*time.Second {
		t.Errorf("Run took %v: it went on solving after the device was lost", elapsed)
	}
	s := tr.Summary()
	if !s.Devices[0].Quarantined {
		t.Errorf("the lost device was not quarantined\n%v", s)
	}
	if _, err := devs[0].Alloc(nil, 64); !errors.Is(err, backend.ErrDeviceLost) {
		t.Errorf("the lost device's Alloc: %v, want ErrDeviceLost", err)
	}

	// The caller reopens the device and runs what failed.
	var again []*fakeJob
	for _, idx := range errs.Failed() {
		again = append(again, &fakeJob{idx: idx})
	}
	fresh := devices(newCPU(t, 0, 0, nil))
	if _, err := runBatch(t, context.Background(), fresh, again, &fakeResident{}, WithWorkers(workers)); err != nil {
		t.Fatalf("Run on the reopened device: %v", err)
	}
	checkAllFinished(t, again)
}

// TestDeviceLostTwoDevices: a lost device is quarantined after its first
// failure, not its second, and the other device proves every partition.
func TestDeviceLostTwoDevices(t *testing.T) {
	// cpu:0 may take every job before cpu:1's workers take one (as in
	// TestRetry, a few runs in 1000): cpu:1 then never meets its fault.
	// The batch runs again (up to five times) until cpu:1 has taken one;
	// each run must prove every partition on cpu:0.
	var s Summary
	for i := 0; ; i++ {
		devs := devices(newCPU(t, 0, 0, nil), newCPU(t, 1, 0, loseAt(1)))
		jobs := newFakeJobs(10)
		tr, err := runBatch(t, context.Background(), devs, jobs, &fakeResident{}, WithWorkers(2))
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		checkAllFinished(t, jobs)
		s = tr.Summary()
		if s.Devices[0].Partitions != 10 {
			t.Errorf("want every partition on cpu:0\n%v", s)
		}
		if s.Devices[1].Quarantined || i == 4 {
			t.Logf("run %d: cpu:1 quarantined %v", i+1, s.Devices[1].Quarantined)
			break
		}
	}
	if !s.Devices[1].Quarantined || s.Devices[0].Partitions != 10 {
		t.Errorf("want cpu:1 quarantined and every partition on cpu:0\n%v", s)
	}
	// cpu:1's first MSM lost it; its other worker may have been in the
	// middle of a partition, which failed at its next call.
	if s.Retries > 2 {
		t.Errorf("%d retries: the lost device kept taking partitions\n%v", s.Retries, s)
	}
}

// TestDeviceLostEverywhere: with every device lost, the batch ends and
// names every partition, none of them proved.
func TestDeviceLostEverywhere(t *testing.T) {
	devs := devices(newCPU(t, 0, 0, loseAt(1)), newCPU(t, 1, 0, loseAt(1)))
	jobs := newFakeJobs(8)
	_, err := runBatch(t, context.Background(), devs, jobs, &fakeResident{}, WithWorkers(2))
	var errs Errors
	if !errors.As(err, &errs) || len(errs) != len(jobs) {
		t.Fatalf("Run returned %v, want all %d partitions failed", err, len(jobs))
	}
	for i, je := range errs {
		if je.Job != i || !errors.Is(je, backend.ErrDeviceLost) {
			t.Errorf("failure %d: %v", i, je)
		}
	}
}
