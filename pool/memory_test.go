package pool

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
)

// count returns how many trace events have kind and name.
func count(tr *Trace, kind, name string) int {
	n := 0
	for _, e := range tr.Events() {
		if e.Kind == kind && e.Name == name {
			n++
		}
	}
	return n
}

// TestScratchCounted: the device holds the key, one MSM's scratch and two
// buffer sets. The resident state declares the scratch, so admission
// leaves room for it: no compute runs out of memory, and jobs are still
// staged ahead.
func TestScratchCounted(t *testing.T) {
	c := &regionChecker{}
	devs := devices(newCPU(t, 0, capacityFor(2), nil))
	before := memBaseline(devs)
	jobs := newFakeJobs(10)
	tr, err := runBatch(t, context.Background(), devs, jobs, &fakeResident{}, WithWorkers(3), WithInstrument(c.wrap))
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	checkAllFinished(t, jobs)
	checkReleased(t, devs, before)
	for _, v := range c.Violations() {
		t.Error(v)
	}
	if n := count(tr, KindOutcome, OutcomeRetried); n != 0 {
		t.Errorf("%d computes ran out of memory with the scratch counted", n)
	}
	if s := tr.Summary(); s.Staged < len(jobs)/2 {
		t.Errorf("only %d of %d jobs staged\n%v", s.Staged, len(jobs), s)
	}
	plans := 0
	for _, e := range tr.Events() {
		if e.Kind == KindOutcome && e.Name == OutcomePlan {
			plans++
			if e.Outcome != "fake key" || e.Bytes != fakeKeyBytes || !strings.Contains(e.Err, "scratch 20480 bytes") {
				t.Errorf("plan event %+v; want the fake key and its scratch", e)
			}
		}
	}
	if plans != 1 {
		t.Errorf("%d plan events, want 1", plans)
	}
}

// TestComputeOutOfMemoryFallsBack: the resident state does not declare the
// MSM's scratch, so admission stages two sets and the first compute runs
// out of memory, even in the shortest passes. The worker makes room in the
// compute region and retries, gives its set back and waits for the staged
// job to finish, then takes the fallback: every job finishes, none fails.
//
// The first compute waits for a second set to be staged beside its own.
// The other worker may still need the compute region for its first look
// at the resident state and cannot stage meanwhile: then the wait gives up
// after a while and the batch runs without the out-of-memory. The batch
// runs up to five times; every run must finish every job cleanly, and one
// must have run out of memory.
func TestComputeOutOfMemoryFallsBack(t *testing.T) {
	const tries = 5
	for i := 0; i < tries; i++ {
		if computeOutOfMemoryRun(t) > 0 {
			return
		}
	}
	t.Fatalf("no compute ran out of memory in %d batches: the test does not test the fallback", tries)
}

// computeOutOfMemoryRun runs one batch of TestComputeOutOfMemoryFallsBack
// and returns how many computes ran out of memory and were retried.
func computeOutOfMemoryRun(t *testing.T) int {
	t.Helper()
	c := &regionChecker{}
	// Beside two sets there is room for less than the shortest MSM pass's
	// scratch (16 points); beside one, for a pass of 16 points.
	devs := devices(newCPU(t, 0, fakeKeyBytes+2*fakeSetSize()+16*cpu.DefaultMSMScratch-1, nil))
	before := memBaseline(devs)
	jobs := newFakeJobs(10)
	staged := make(chan struct{})
	var uploads atomic.Int32
	var first sync.Once
	for _, j := range jobs {
		j.onUpload = func(*fakeJob, backend.Backend) {
			if uploads.Add(1) == 2 {
				close(staged)
			}
		}
		j.onCompute = func(*fakeJob, backend.Backend) {
			first.Do(func() {
				select {
				case <-staged:
				case <-time.After(2 * time.Second):
				}
			})
		}
	}
	res := &fakeResident{}
	spec := res.spec()
	spec.Fit = nil // no scratch declared
	tr := NewTrace()
	err := Run(context.Background(), devs, asJobs(jobs), spec, WithTrace(tr), WithWorkers(2),
		WithMemoryBudget(fakeKeyBytes+2*fakeSetSize()), WithInstrument(c.wrap))
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	checkAllFinished(t, jobs)
	checkReleased(t, devs, before)
	for _, v := range c.Violations() {
		t.Error(v)
	}
	n := count(tr, KindOutcome, OutcomeRetried)
	t.Logf("%d computes out of memory, retried\n%v", n, tr.Summary())
	return n
}

// TestComputeOutOfMemoryNoSmallerPlan: not even the shortest MSM pass's
// scratch fits beside one set, and no other job holds memory: the job
// fails with the out-of-memory error instead of looping.
func TestComputeOutOfMemoryNoSmallerPlan(t *testing.T) {
	devs := devices(newCPU(t, 0, fakeKeyBytes+fakeSetSize()+16*cpu.DefaultMSMScratch-1, nil))
	spec := (&fakeResident{}).spec()
	spec.Fit = nil
	err := Run(context.Background(), devs, asJobs(newFakeJobs(1)), spec, WithWorkers(1))
	if !errors.Is(err, backend.ErrOutOfMemory) {
		t.Fatalf("Run: %v; want out of memory", err)
	}
}

// mixedDirect runs jobs of two sizes on a device whose default budget holds
// the key and the scratch but no buffer set (its capacity holds one), so
// that every job takes the fallback and leaves a directly
// allocated set idle, and the next job of the other size needs its room.
func mixedDirect(t *testing.T, opts ...Option) *regionChecker {
	t.Helper()
	c := &regionChecker{}
	devs := devices(newCPU(t, 0, fakeKeyBytes+fakeScratch+fakeSetSize(), nil))
	before := memBaseline(devs)
	jobs := newFakeJobs(12)
	for _, j := range jobs {
		if j.idx%2 == 0 {
			j.logN = fakeLogN - 1
		}
	}
	opts = append([]Option{WithWorkers(2), WithInstrument(c.wrap)}, opts...)
	tr, err := runBatch(t, context.Background(), devs, jobs, &fakeResident{}, opts...)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	checkAllFinished(t, jobs)
	checkReleased(t, devs, before)
	if c.directFrees.Load() == 0 {
		t.Fatalf("no direct buffer was freed: the schedule did not test the rule\n%v", tr.Summary())
	}
	return c
}

// TestNoDirectFreeOutsideCompute: staging frees only pooled idle sets; the
// direct ones (whose Free waits for the whole device, as cudaFree does)
// are freed in the compute region.
func TestNoDirectFreeOutsideCompute(t *testing.T) {
	for _, v := range mixedDirect(t).Violations() {
		t.Error(v)
	}
}

// TestRegionCheckerCatchesDirectEviction plants the bug (staging evicts
// direct sets) and checks that the checker reports it. Whether staging
// meets an idle direct set of the other size depends on the schedule (about
// one run in a hundred has none to evict), so the batch runs up to ten times
// and the checker must report the planted Free in one of them.
func TestRegionCheckerCatchesDirectEviction(t *testing.T) {
	plant := func(cfg *config) error { cfg.evictDirect = true; return nil }
	const tries = 10
	for i := 0; i < tries; i++ {
		v := mixedDirect(t, plant).Violations()
		if len(v) == 0 {
			continue
		}
		if !strings.Contains(v[0], "Free of a direct buffer") {
			t.Fatalf("violation %q; want the direct Free outside the compute region", v[0])
		}
		return
	}
	t.Fatalf("a direct Free outside the compute region went unreported in %d runs", tries)
}

// TestRegionCheckerCatchesDirectFree: the checker reports the Free of a
// direct buffer by a worker outside the compute region.
func TestRegionCheckerCatchesDirectFree(t *testing.T) {
	c := &regionChecker{}
	w := &Worker{Device: 0, ID: 1, partition: 3, staging: true}
	dev := c.wrap(newCPU(t, 0, 0, nil), w)
	buf, err := dev.AllocDirect(64)
	if err != nil {
		t.Fatal(err)
	}
	if err := dev.Free(nil, buf); err != nil {
		t.Fatal(err)
	}
	v := c.Violations()
	if len(v) != 1 || !strings.Contains(v[0], "Free of a direct buffer") || !strings.Contains(v[0], "staging held: true") {
		t.Fatalf("violations %q; want the direct Free in staging", v)
	}
}

// TestFitRefuses: a Resident.Fit that refuses a device fails the Run
// before any job is prepared.
func TestFitRefuses(t *testing.T) {
	devs := devices(newCPU(t, 0, 1000, nil))
	jobs := newFakeJobs(2)
	spec := (&fakeResident{}).spec()
	var gotBudget int64
	spec.Fit = func(_ int, dev backend.Backend, budget int64) (Resident[*fakeKey], error) {
		gotBudget = budget
		return Resident[*fakeKey]{}, errors.New("key does not fit")
	}
	err := Run(context.Background(), devs, asJobs(jobs), spec)
	if err == nil || !strings.Contains(err.Error(), "pool: cpu:0: key does not fit") {
		t.Fatalf("Run: %v; want the Fit's error", err)
	}
	if gotBudget != 1000-1000/16 {
		t.Errorf("Fit got budget %d, want %d", gotBudget, 1000-1000/16)
	}
	for _, j := range jobs {
		if j.prepares.Load() != 0 {
			t.Errorf("job %d prepared", j.idx)
		}
	}
}
