package pool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
)

// deadline bounds every Run: a scheduler that deadlocks fails the test
// instead of hanging it.
const deadline = 60 * time.Second

// capacityFor is a device capacity whose default budget (capacity less
// 1/16) holds the resident key, one job's MSM scratch and exactly sets job
// buffer sets.
func capacityFor(sets int64) int64 {
	need := fakeKeyBytes + fakeScratch + sets*fakeSetSize()
	return need*16/15 + 64
}

func newCPU(t *testing.T, id int, capacity int64, hook cpu.Hook) *cpu.Backend {
	t.Helper()
	opts := []cpu.Option{cpu.WithID(id), cpu.WithTasks(1), cpu.WithCapacity(capacity)}
	if hook != nil {
		opts = append(opts, cpu.WithHook(hook))
	}
	b, err := cpu.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// regionChecker is an instrumenting wrapper that knows which regions the
// calling worker holds, and records every device-global call made outside
// the compute region (in particular, with only the staging region held):
// Sync, TrimPool, and the Free of a buffer from AllocDirect.
type regionChecker struct {
	mu          sync.Mutex
	violations  []string
	direct      map[backend.Buffer]bool // live buffers from AllocDirect
	syncs       atomic.Int32
	trims       atomic.Int32
	directFrees atomic.Int32
}

func (c *regionChecker) wrap(b backend.Backend, w *Worker) backend.Backend {
	return &checkedBackend{Backend: b, w: w, c: c}
}

func (c *regionChecker) check(op string, w *Worker) {
	if w.Holds(RegionCompute) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.violations = append(c.violations, fmt.Sprintf("%s by device %d worker %d (partition %d) without the compute region (staging held: %v)",
		op, w.Device, w.ID, w.Partition(), w.Holds(RegionStaging)))
}

func (c *regionChecker) Violations() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.violations...)
}

type checkedBackend struct {
	backend.Backend
	w *Worker
	c *regionChecker
}

func (b *checkedBackend) Sync() error {
	b.c.syncs.Add(1)
	b.c.check("Sync", b.w)
	return b.Backend.Sync()
}

func (b *checkedBackend) TrimPool(keep int64) error {
	b.c.trims.Add(1)
	b.c.check("TrimPool", b.w)
	return b.Backend.TrimPool(keep)
}

func (b *checkedBackend) AllocDirect(bytes int64) (backend.Buffer, error) {
	buf, err := b.Backend.AllocDirect(bytes)
	if err == nil {
		b.c.mu.Lock()
		if b.c.direct == nil {
			b.c.direct = map[backend.Buffer]bool{}
		}
		b.c.direct[buf] = true
		b.c.mu.Unlock()
	}
	return buf, err
}

func (b *checkedBackend) Free(q backend.Queue, buf backend.Buffer) error {
	b.c.mu.Lock()
	direct := b.c.direct[buf]
	delete(b.c.direct, buf)
	b.c.mu.Unlock()
	if direct {
		b.c.directFrees.Add(1)
		b.c.check("Free of a direct buffer", b.w)
	}
	return b.Backend.Free(q, buf)
}

// runBatch runs jobs on devs, bounded by deadline, and returns Run's error
// and the trace.
func runBatch(t *testing.T, ctx context.Context, devs []backend.Backend, jobs []*fakeJob, res *fakeResident, opts ...Option) (*Trace, error) {
	t.Helper()
	tr := NewTrace()
	opts = append([]Option{WithTrace(tr)}, opts...)
	done := make(chan error, 1)
	go func() { done <- Run(ctx, devs, asJobs(jobs), res.spec(), opts...) }()
	select {
	case err := <-done:
		return tr, err
	case <-time.After(deadline):
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		t.Fatalf("Run did not return within %v (deadlock?)\n%s", deadline, buf)
		return nil, nil
	}
}

// memBaseline records what devices hold before a Run.
func memBaseline(devs []backend.Backend) []backend.MemStats {
	m := make([]backend.MemStats, len(devs))
	for i, d := range devs {
		m[i] = d.Memory()
	}
	return m
}

// checkReleased checks that a Run gave back every byte it took: nothing
// left in use, no more cached than before.
func checkReleased(t *testing.T, devs []backend.Backend, before []backend.MemStats) {
	t.Helper()
	for i, d := range devs {
		m := d.Memory()
		if m.InUse != before[i].InUse || m.Cached > before[i].Cached {
			t.Errorf("%s: after Run: in use %d, cached %d; before: in use %d, cached %d", d, m.InUse, m.Cached, before[i].InUse, before[i].Cached)
		}
	}
}

// checkGoroutines waits for the goroutine count to fall back to n. The
// goroutines left when Run returns only wind down (the caller's wrapper,
// a context's AfterFunc), at once on an idle machine; the wait is
// generous for a loaded one, and a leak still fails, after it.
func checkGoroutines(t *testing.T, n int) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if runtime.NumGoroutine() <= n {
			return
		}
	}
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	t.Errorf("goroutines: %d after Run, %d before\n%s", runtime.NumGoroutine(), n, buf)
}

func checkAllFinished(t *testing.T, jobs []*fakeJob) {
	t.Helper()
	for _, j := range jobs {
		if p, f := j.prepares.Load(), j.finishes.Load(); p != 1 || f != 1 {
			t.Errorf("job %d: prepared %d times, finished %d times; want once each", j.idx, p, f)
		}
	}
}

func devices(bs ...*cpu.Backend) []backend.Backend {
	out := make([]backend.Backend, len(bs))
	for i, b := range bs {
		out[i] = b
	}
	return out
}

// TestRegionInvariant runs the schedules that call Sync and TrimPool (the
// fallback, resident loading, cleanup) under a wrapper that fails if either
// is called without the compute region.
func TestRegionInvariant(t *testing.T) {
	oneSet := capacityFor(1)
	cases := []struct {
		name     string
		capacity int64
		opts     []Option
	}{
		{"unlimited", 0, nil},
		{"two-sets", capacityFor(2), []Option{WithWorkers(3)}},
		{"one-set-budget-lies", oneSet, []Option{WithWorkers(3), WithMemoryBudget(4 * oneSet)}},
		{"no-staging", oneSet, []Option{WithWorkers(2), noStaging}},
	}
	var syncs, trims int32
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := &regionChecker{}
			devs := devices(newCPU(t, 0, tc.capacity, nil))
			jobs := newFakeJobs(8)
			_, err := runBatch(t, context.Background(), devs, jobs, &fakeResident{}, append(tc.opts, WithInstrument(c.wrap))...)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			checkAllFinished(t, jobs)
			for _, v := range c.Violations() {
				t.Error(v)
			}
			syncs += c.syncs.Load()
			trims += c.trims.Load()
		})
	}
	if syncs == 0 || trims == 0 {
		t.Errorf("the schedules called Sync %d times and TrimPool %d times: the check saw nothing", syncs, trims)
	}
}

// TestRegionInvariantCatchesStagingSync plants the original design's bug (a
// Sync under the staging lock) and checks that the wrapper reports it.
func TestRegionInvariantCatchesStagingSync(t *testing.T) {
	c := &regionChecker{}
	devs := devices(newCPU(t, 0, 0, nil))
	plant := func(cfg *config) error { cfg.syncInStaging = true; return nil }
	if _, err := runBatch(t, context.Background(), devs, newFakeJobs(2), &fakeResident{}, WithInstrument(c.wrap), plant); err != nil {
		t.Fatalf("Run: %v", err)
	}
	v := c.Violations()
	if len(v) == 0 || !strings.Contains(v[0], "staging held: true") {
		t.Fatalf("a Sync in the staging region went unreported: %q", v)
	}
}

// TestNotStarved: memory for one running set plus one staged set, three
// workers, ten jobs. The design this replaces probed free memory and
// staged only the first partition; here at least eight must be staged.
func TestNotStarved(t *testing.T) {
	devs := devices(newCPU(t, 0, capacityFor(2), nil))
	jobs := newFakeJobs(10)
	res := &fakeResident{}
	tr, err := runBatch(t, context.Background(), devs, jobs, res, WithWorkers(3))
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	checkAllFinished(t, jobs)
	s := tr.Summary()
	if s.Staged < 8 {
		t.Errorf("staged %d of 10 partitions ahead, want at least 8\n%v", s.Staged, s)
	}
	if s.Partitions != 10 {
		t.Errorf("summary counts %d partitions done, want 10", s.Partitions)
	}
	if n := res.loads.Load(); n != 1 {
		t.Errorf("resident state loaded %d times on one device, want 1", n)
	}
	// Only the first two sets are allocated; the rest reuse them.
	allocs := 0
	for _, e := range tr.Events() {
		if e.Kind == KindCall && (e.Name == "Alloc" || e.Name == "AllocDirect") && e.Bytes != fakeKeyBytes {
			allocs++
		}
	}
	if want := 2 * len(fakeSetBytes); allocs > want {
		t.Errorf("%d buffer allocations for 10 partitions; reuse should keep it to %d", allocs, want)
	}
}

// TestSingleSet: the device holds the key and one set only. With a budget
// that claims more, staging runs out of memory and every partition after
// the first goes through the fallback; with the default budget they wait
// for the set and reuse it. Either way, no error.
func TestSingleSet(t *testing.T) {
	capacity := capacityFor(1)
	for _, tc := range []struct {
		name string
		opts []Option
	}{
		{"budget-lies", []Option{WithWorkers(3), WithMemoryBudget(4 * capacity)}},
		{"default-budget", []Option{WithWorkers(3)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			devs := devices(newCPU(t, 0, capacity, nil))
			before := memBaseline(devs)
			jobs := newFakeJobs(10)
			tr, err := runBatch(t, context.Background(), devs, jobs, &fakeResident{}, tc.opts...)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			checkAllFinished(t, jobs)
			checkReleased(t, devs, before)
			s := tr.Summary()
			if s.Staged+s.Fallbacks != 10 {
				t.Errorf("staged %d + fallbacks %d, want 10 computes\n%v", s.Staged, s.Fallbacks, s)
			}
			// Under the lie a second set either fails to stage (the
			// fallback) or is staged into the room the MSM's scratch
			// needs, and the MSM then runs in shorter passes: no error
			// either way. TestComputeOutOfMemoryFallsBack forces the
			// fallback.
		})
	}
}

// TestTrimBeforeDirectAllocation: the pool caches every byte the device
// has, and the budget admits no staging, so each partition takes the
// fallback, whose direct allocation cannot use cached bytes. Without the
// trim it fails; with it, it succeeds.
func TestTrimBeforeDirectAllocation(t *testing.T) {
	capacity := fakeKeyBytes + fakeScratch + fakeSetSize()
	for _, trim := range []bool{false, true} {
		t.Run(fmt.Sprintf("trim=%v", trim), func(t *testing.T) {
			dev := newCPU(t, 0, capacity, nil)
			q, _ := dev.NewQueue()
			buf, err := dev.Alloc(q, capacity)
			if err != nil {
				t.Fatal(err)
			}
			if err := dev.Free(q, buf); err != nil {
				t.Fatal(err)
			}
			if m := dev.Memory(); m.Cached != capacity {
				t.Fatalf("pool caches %d bytes, want %d", m.Cached, capacity)
			}
			opts := []Option{WithWorkers(1), noStaging}
			if !trim {
				opts = append(opts, func(c *config) error { c.noTrim = true; return nil })
			}
			jobs := newFakeJobs(2)
			tr, err := runBatch(t, context.Background(), devices(dev), jobs, &fakeResident{}, opts...)
			if !trim {
				var je *JobError
				if !errors.Is(err, backend.ErrOutOfMemory) || !errors.As(err, &je) || je.Job != 0 || !strings.Contains(err.Error(), "partition 0") {
					t.Fatalf("without the trim: Run returned %v; want partition 0 out of memory", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("with the trim: Run: %v", err)
			}
			checkAllFinished(t, jobs)
			// The trace shows the order: TrimPool, then AllocDirect, in the
			// compute region.
			trimmed := false
			for _, e := range tr.Events() {
				if e.Kind != KindCall {
					continue
				}
				if e.Name == "TrimPool" && e.Region == RegionCompute {
					trimmed = true
				}
				if e.Name == "AllocDirect" {
					if !trimmed || e.Region != RegionCompute {
						t.Errorf("AllocDirect (region %q) before any TrimPool in the compute region", e.Region)
					}
					break
				}
			}
			if s := tr.Summary(); s.Fallbacks == 0 {
				t.Errorf("no fallback recorded\n%v", s)
			}
		})
	}
}

// overlaps reports whether [a0, a1) and [b0, b1) intersect.
func overlaps(a0, a1, b0, b1 int64) bool { return a0 < b1 && b0 < a1 }

// TestOverlap: device operations take simulated time. On one device, the
// trace must show a partition staged while another computes; with two
// devices, both take part in the batch.
func TestOverlap(t *testing.T) {
	slow := func(op cpu.Op, size int64) error {
		switch op {
		case cpu.OpUpload, cpu.OpNTT, cpu.OpMSMG1:
			time.Sleep(time.Millisecond)
		}
		return nil
	}
	t.Run("one-device", func(t *testing.T) {
		devs := devices(newCPU(t, 0, 0, slow))
		jobs := newFakeJobs(6)
		// A compute goes on only once another partition, not yet
		// computing, has begun staging, or every other one has computed
		// (or after a generous wait, which then fails below): the
		// schedule, not the timing, decides the outcome. Which partition
		// that is depends on the order in which the solvers finish: two
		// Prepares run at once, so partition k+1 may be ready before k,
		// and a compute that waited for k+1 alone waited out its whole
		// timeout while the other worker held k+2 (a failure in 80 runs
		// with GOMAXPROCS 2, in 30 under -race -short).
		var mu sync.Mutex
		staged, computing := map[int]bool{}, map[int]bool{}
		otherStaged := func() bool {
			mu.Lock()
			defer mu.Unlock()
			if len(computing) == len(jobs) {
				return true
			}
			for p := range staged {
				if !computing[p] {
					return true
				}
			}
			return false
		}
		for _, j := range jobs {
			j.onUpload = func(j *fakeJob, _ backend.Backend) {
				mu.Lock()
				staged[j.idx] = true
				mu.Unlock()
			}
			j.onCompute = func(j *fakeJob, _ backend.Backend) {
				mu.Lock()
				computing[j.idx] = true
				mu.Unlock()
				for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(time.Millisecond) {
					if otherStaged() {
						return
					}
				}
			}
		}
		tr, err := runBatch(t, context.Background(), devs, jobs, &fakeResident{}, WithWorkers(2))
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		checkAllFinished(t, jobs)
		var staging, compute []Event
		for _, e := range tr.Events() {
			if e.Kind == KindRegion && e.Partition >= 0 {
				if e.Name == string(RegionStaging) && e.Outcome == OutcomeStaged {
					staging = append(staging, e)
				}
				if e.Name == string(RegionCompute) && (e.Outcome == OutcomeStaged || e.Outcome == OutcomeFallback) {
					compute = append(compute, e)
				}
			}
		}
		found := 0
		for _, c := range compute {
			for _, s := range staging {
				if s.Partition != c.Partition && overlaps(s.Start, s.End, c.Start, c.End) {
					found++
				}
			}
		}
		if found == 0 {
			t.Errorf("no partition staged while another computed\n%v", tr.Summary())
		}
	})
	t.Run("two-devices", func(t *testing.T) {
		devs := devices(newCPU(t, 0, 0, slow), newCPU(t, 1, 0, slow))
		jobs := newFakeJobs(8)
		var seen [2]atomic.Bool
		for _, j := range jobs {
			j.onCompute = func(j *fakeJob, dev backend.Backend) {
				seen[dev.String()[len(dev.String())-1]-'0'].Store(true)
				for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(time.Millisecond) {
					if seen[0].Load() && seen[1].Load() {
						return
					}
				}
			}
		}
		res := &fakeResident{}
		tr, err := runBatch(t, context.Background(), devs, jobs, res, WithWorkers(2))
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		checkAllFinished(t, jobs)
		s := tr.Summary()
		for _, d := range s.Devices {
			if d.Partitions == 0 {
				t.Errorf("%s proved no partition\n%v", d.Device, s)
			}
		}
		if n := res.loads.Load(); n != 2 {
			t.Errorf("resident state loaded %d times on two devices, want 2", n)
		}
	})
}

// faultHook fails Alloc, Upload, NTT and MSM calls at random, from a
// seeded source. With oom, the allocation failures claim to be out of
// memory, which sends the scheduler down its skip and fallback paths.
func faultHook(seed uint64, p float64, oom bool) cpu.Hook {
	var mu sync.Mutex
	rng := rand.New(rand.NewPCG(seed, 1))
	return func(op cpu.Op, size int64) error {
		switch op {
		case cpu.OpAlloc, cpu.OpAllocDirect, cpu.OpUpload, cpu.OpNTT, cpu.OpMSMG1:
		default:
			return nil
		}
		mu.Lock()
		fail := rng.Float64() < p
		mu.Unlock()
		switch {
		case !fail:
			return nil
		case oom && (op == cpu.OpAlloc || op == cpu.OpAllocDirect):
			return fmt.Errorf("injected fault in %s: %w", op, backend.ErrOutOfMemory)
		}
		return fmt.Errorf("injected fault in %s", op)
	}
}

// TestFaults injects failures at random points. Runs must end (no
// deadlock), name each failed partition, finish the others correctly, and
// leave device memory and the goroutine count as they found them.
func TestFaults(t *testing.T) {
	rounds := 40
	if testing.Short() {
		rounds = 10
	}
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	var nfailed, nfinished int
	defer func() {
		t.Logf("%d jobs failed, %d finished", nfailed, nfinished)
		if nfailed == 0 || nfinished == 0 {
			t.Errorf("faults should fail some jobs and spare others")
		}
	}()
	for r := range rounds {
		for _, ndev := range []int{1, 2} {
			name := fmt.Sprintf("round=%d/devices=%d", r, ndev)
			goroutines := runtime.NumGoroutine()
			var bs []*cpu.Backend
			for i := range ndev {
				capacity := int64(0)
				if r%2 == 1 {
					capacity = capacityFor(1) // fallbacks too
				}
				bs = append(bs, newCPU(t, i, capacity, faultHook(seed+uint64(r*7+i), 0.08, r%4 >= 2)))
			}
			devs := devices(bs...)
			before := memBaseline(devs)
			jobs := newFakeJobs(6)
			_, err := runBatch(t, context.Background(), devs, jobs, &fakeResident{}, WithWorkers(1+r%3))
			failed := map[int]bool{}
			if err != nil {
				var errs Errors
				if !errors.As(err, &errs) {
					t.Fatalf("%s: Run returned %T %v, want Errors", name, err, err)
				}
				for _, je := range errs {
					failed[je.Job] = true
					if !strings.Contains(je.Error(), fmt.Sprintf("partition %d", je.Job)) {
						t.Errorf("%s: error does not name its partition: %v", name, je)
					}
					if !strings.Contains(je.Error(), "injected fault") {
						t.Errorf("%s: error lost its cause: %v", name, je)
					}
				}
			}
			nfailed += len(failed)
			nfinished += len(jobs) - len(failed)
			for _, j := range jobs {
				if !failed[j.idx] && j.finishes.Load() != 1 {
					t.Errorf("%s: job %d neither failed nor finished", name, j.idx)
				}
				if j.finishes.Load() > 1 {
					t.Errorf("%s: job %d finished %d times", name, j.idx, j.finishes.Load())
				}
			}
			checkReleased(t, devs, before)
			checkGoroutines(t, goroutines)
		}
	}
}

// TestCancel cancels a batch mid-way: Run returns ctx.Err() promptly and
// releases what it took.
func TestCancel(t *testing.T) {
	goroutines := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var msms atomic.Int32
	hook := func(op cpu.Op, size int64) error {
		if op == cpu.OpMSMG1 && msms.Add(1) == 3 {
			cancel()
		}
		return nil
	}
	devs := devices(newCPU(t, 0, capacityFor(2), hook), newCPU(t, 1, 0, hook))
	before := memBaseline(devs)
	jobs := newFakeJobs(40)
	_, err := runBatch(t, ctx, devs, jobs, &fakeResident{}, WithWorkers(2))
	if !errors.Is(err, context.Canceled) || err != ctx.Err() {
		t.Fatalf("Run returned %v, want ctx.Err()", err)
	}
	started := 0
	for _, j := range jobs {
		if j.prepares.Load() > 0 {
			started++
		}
	}
	if started == len(jobs) {
		t.Errorf("every job started: cancellation did not stop the batch")
	}
	checkReleased(t, devs, before)
	checkGoroutines(t, goroutines)
}

// TestRetry: a device that fails has its partition retried on the other
// device, once; the batch completes and the trace shows the retry.
func TestRetry(t *testing.T) {
	t.Run("one-device-fails", func(t *testing.T) {
		var broken atomic.Bool
		broken.Store(true)
		hook := func(op cpu.Op, size int64) error {
			if op == cpu.OpNTT && broken.Load() {
				return errors.New("injected: device lost")
			}
			return nil
		}
		// Rarely the broken device's second worker gets no job before the
		// batch ends: one failure, no quarantine; or cpu:0 takes every
		// job and the broken device none (no retry either: 3 runs in
		// 1250 at GOMAXPROCS 1 to 4). The batch then runs again (up to five
		// times); each run must prove every partition on cpu:0.
		var s Summary
		for i := 0; ; i++ {
			devs := devices(newCPU(t, 0, 0, nil), newCPU(t, 1, 0, hook))
			before := memBaseline(devs)
			jobs := newFakeJobs(10)
			tr, err := runBatch(t, context.Background(), devs, jobs, &fakeResident{}, WithWorkers(2))
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			checkAllFinished(t, jobs)
			checkReleased(t, devs, before)
			s = tr.Summary()
			if s.Partitions != 10 || s.Devices[0].Partitions != 10 {
				t.Errorf("want every partition proved on cpu:0\n%v", s)
			}
			if s.Devices[1].Quarantined || i == 4 {
				t.Logf("run %d: cpu:1 quarantined %v, %d retries", i+1, s.Devices[1].Quarantined, s.Retries)
				break
			}
		}
		// Two workers on the broken device: after two failures in a row
		// it is quarantined, so at most one more attempt was under way.
		// Its failures were retried on cpu:0.
		if !s.Devices[1].Quarantined || s.Retries == 0 || s.Retries > quarantineAfter+1 {
			t.Errorf("the broken device was not quarantined in time, or its partitions not retried\n%v", s)
		}
	})
	t.Run("quarantined-device-still-serves", func(t *testing.T) {
		// cpu:1 is dead; cpu:0 fails once. The partition that fails on
		// cpu:0 may then run only on cpu:1, quarantined or not: it must
		// be tried there (and fail), not stranded.
		var once atomic.Bool
		flaky := func(op cpu.Op, size int64) error {
			if op == cpu.OpNTT && once.CompareAndSwap(false, true) {
				return errors.New("injected: transient fault")
			}
			return nil
		}
		dead := func(op cpu.Op, size int64) error {
			if op == cpu.OpNTT {
				return errors.New("injected: device lost")
			}
			return nil
		}
		devs := devices(newCPU(t, 0, 0, flaky), newCPU(t, 1, 0, dead))
		jobs := newFakeJobs(8)
		_, err := runBatch(t, context.Background(), devs, jobs, &fakeResident{}, WithWorkers(2))
		var errs Errors
		if !errors.As(err, &errs) || len(errs) != 1 {
			t.Fatalf("Run returned %v, want exactly one failed partition", err)
		}
		for _, j := range jobs {
			if j.idx != errs[0].Job && j.finishes.Load() != 1 {
				t.Errorf("job %d did not finish", j.idx)
			}
		}
	})
	t.Run("fails-everywhere", func(t *testing.T) {
		hook := func(op cpu.Op, size int64) error {
			if op == cpu.OpMSMG1 {
				return errors.New("injected: MSM fault")
			}
			return nil
		}
		devs := devices(newCPU(t, 0, 0, hook), newCPU(t, 1, 0, hook))
		jobs := newFakeJobs(3)
		tr, err := runBatch(t, context.Background(), devs, jobs, &fakeResident{}, WithWorkers(1))
		var errs Errors
		if !errors.As(err, &errs) || len(errs) != 3 {
			t.Fatalf("Run returned %v, want three failed partitions", err)
		}
		for i, je := range errs {
			if je.Job != i || !strings.Contains(je.Error(), fmt.Sprintf("partition %d", i)) || !strings.Contains(je.Error(), "retried after failing on cpu:") {
				t.Errorf("error %d: %v", i, je)
			}
		}
		if s := tr.Summary(); s.Retries != 3 || s.Failed != 3 {
			t.Errorf("want 3 retries and 3 failures\n%v", s)
		}
	})
	t.Run("host-errors-not-retried", func(t *testing.T) {
		devs := devices(newCPU(t, 0, 0, nil), newCPU(t, 1, 0, nil))
		jobs := newFakeJobs(4)
		jobs[2].prepare = func(*fakeJob) error { return errors.New("unsatisfied constraint") }
		_, err := runBatch(t, context.Background(), devs, jobs, &fakeResident{})
		var errs Errors
		if !errors.As(err, &errs) || len(errs) != 1 || errs[0].Job != 2 || errs[0].Device != "" {
			t.Fatalf("Run returned %v, want partition 2's host error alone", err)
		}
		if n := jobs[2].prepares.Load(); n != 1 {
			t.Errorf("failed Prepare ran %d times", n)
		}
		for _, i := range []int{0, 1, 3} {
			if jobs[i].finishes.Load() != 1 {
				t.Errorf("job %d did not finish", i)
			}
		}
	})
}

// TestTraceJSON checks the trace encodes, and its summary adds up.
func TestTraceJSON(t *testing.T) {
	devs := devices(newCPU(t, 0, 0, nil))
	tr, err := runBatch(t, context.Background(), devs, newFakeJobs(3), &fakeResident{})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Devices []string
		Summary Summary
		Events  []Event
	}
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Events) == 0 || back.Summary.Partitions != 3 || len(back.Devices) != 1 {
		t.Fatalf("decoded trace: %d events, summary %+v", len(back.Events), back.Summary)
	}
	for _, e := range back.Events {
		if e.End < e.Start || (e.Kind == KindRegion && e.Start < e.Requested) {
			t.Errorf("event out of order: %+v", e)
		}
	}
	if !strings.Contains(back.Summary.String(), "partitions 3") {
		t.Errorf("summary text: %s", back.Summary)
	}
}

// TestMixedSizes: jobs of two sizes under tight memory. Idle sets of the
// other size must be freed to make room, on the staging path and on the
// fallback path, and every byte comes back.
func TestMixedSizes(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []Option
	}{
		{"default-budget", []Option{WithWorkers(3)}},
		{"budget-lies", []Option{WithWorkers(3), WithMemoryBudget(1 << 30)}},
		{"no-staging", []Option{WithWorkers(2), noStaging}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &regionChecker{}
			devs := devices(newCPU(t, 0, capacityFor(1), nil))
			before := memBaseline(devs)
			jobs := newFakeJobs(12)
			for _, j := range jobs {
				if j.idx%3 == 0 {
					j.logN = fakeLogN - 1
				}
			}
			tr, err := runBatch(t, context.Background(), devs, jobs, &fakeResident{}, append(tc.opts, WithInstrument(c.wrap))...)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			checkAllFinished(t, jobs)
			checkReleased(t, devs, before)
			for _, v := range c.Violations() {
				t.Error(v)
			}
			if s := tr.Summary(); s.Staged+s.Fallbacks != len(jobs) {
				t.Errorf("staged %d + fallbacks %d, want %d\n%v", s.Staged, s.Fallbacks, len(jobs), s)
			}
		})
	}
}

// TestOptions checks that bad arguments are refused.
func TestOptions(t *testing.T) {
	dev := []backend.Backend{cpu.MustNew()}
	jobs := asJobs(newFakeJobs(1))
	res := (&fakeResident{}).spec()
	for name, err := range map[string]error{
		"workers":      Run(context.Background(), dev, jobs, res, WithWorkers(0)),
		"budget":       Run(context.Background(), dev, jobs, res, WithMemoryBudget(0)),
		"no devices":   Run(context.Background(), nil, jobs, res),
		"nil device":   Run(context.Background(), []backend.Backend{nil}, jobs, res),
		"no free":      Run(context.Background(), dev, jobs, Resident[*fakeKey]{Load: res.Load}),
		"check nil":    Check(nil),
		"check budget": Check(WithMemoryBudget(-5)),
	} {
		if err == nil || !strings.HasPrefix(err.Error(), "pool: ") {
			t.Errorf("%s: %v, want a pool: error", name, err)
		}
	}
	if err := Check(WithWorkers(4)); err != nil {
		t.Errorf("Check(WithWorkers(4)) = %v", err)
	}
	if err := Run(context.Background(), dev, nil, res); err != nil {
		t.Errorf("Run with no jobs: %v", err)
	}
}

// TestResidentOutOfMemory: the first load of the resident state runs out
// of memory; the pool frees, syncs and trims inside the compute region and
// loads it again.
func TestResidentOutOfMemory(t *testing.T) {
	var failed atomic.Bool
	hook := func(op cpu.Op, size int64) error {
		if op == cpu.OpAlloc && size == fakeKeyBytes && failed.CompareAndSwap(false, true) {
			return fmt.Errorf("injected: %w", backend.ErrOutOfMemory)
		}
		return nil
	}
	c := &regionChecker{}
	devs := devices(newCPU(t, 0, 0, hook))
	jobs := newFakeJobs(3)
	res := &fakeResident{}
	tr, err := runBatch(t, context.Background(), devs, jobs, res, WithInstrument(c.wrap))
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	checkAllFinished(t, jobs)
	for _, v := range c.Violations() {
		t.Error(v)
	}
	if n := res.loads.Load(); n != 1 {
		t.Errorf("resident state loaded %d times, want 1", n)
	}
	var seq []string
	for _, e := range tr.Events() {
		if e.Kind == KindCall && (e.Name == "Sync" || e.Name == "TrimPool" || (e.Name == "Alloc" && e.Bytes == fakeKeyBytes)) {
			seq = append(seq, e.Name)
		}
	}
	if got := strings.Join(seq, ","); !strings.HasPrefix(got, "Alloc,Sync,TrimPool,Alloc") {
		t.Errorf("calls %s; want Alloc, Sync, TrimPool, Alloc", got)
	}
}

// failFree fails every Free, as a device with a sticky error would.
type failFree struct{ backend.Backend }

func (failFree) Free(backend.Queue, backend.Buffer) error {
	return errors.New("injected: Free on a lost device")
}

// TestCleanupOnLostDevice: a device that lost its context fails its jobs
// and then its frees. The batch, proved on the other device, still
// succeeds; the failed cleanup is in the trace. A healthy device that
// cannot free reports it.
func TestCleanupOnLostDevice(t *testing.T) {
	dead := func(op cpu.Op, size int64) error {
		if op == cpu.OpNTT {
			return errors.New("injected: device lost")
		}
		return nil
	}
	lose := func(dev int) func(backend.Backend, *Worker) backend.Backend {
		return func(b backend.Backend, w *Worker) backend.Backend {
			if w.Device == dev {
				return failFree{b}
			}
			return b
		}
	}
	// The first four jobs wait for one another in Prepare, so that each
	// of the four workers holds one: both of cpu:1's workers fail, and it
	// is quarantined.
	// Rarely one of cpu:1's workers gets no job before the batch ends:
	// cpu:1 is then not quarantined, and its failed cleanup is Run's error,
	// as for a healthy device. The batch runs again (up to five times)
	// until cpu:1 is quarantined.
	var tr *Trace
	var err error
	for i := 0; ; i++ {
		devs := devices(newCPU(t, 0, 0, nil), newCPU(t, 1, 0, dead))
		jobs := newFakeJobs(8)
		var started atomic.Int32
		for _, j := range jobs[:4] {
			j.prepare = func(*fakeJob) error {
				started.Add(1)
				for i := 0; i < 5000 && started.Load() < 4; i++ {
					time.Sleep(time.Millisecond)
				}
				return nil
			}
		}
		tr, err = runBatch(t, context.Background(), devs, jobs, &fakeResident{}, WithInstrument(lose(1)))
		if !tr.Summary().Devices[1].Quarantined && i < 4 {
			continue
		}
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		checkAllFinished(t, jobs)
		break
	}
	found := false
	for _, e := range tr.Events() {
		if e.Kind == KindOutcome && e.Name == "cleanup failed" && e.Device == 1 {
			found = true
		}
	}
	if !found || !tr.Summary().Devices[1].Quarantined {
		t.Errorf("no failed cleanup of the quarantined device in the trace\n%v", tr.Summary())
	}

	// cpu:1 may take every job, and then cpu:0 has nothing to free: the
	// batch runs again (up to five times) until cpu:0 has proved some.
	for i := 0; ; i++ {
		devs := devices(newCPU(t, 0, 0, nil), newCPU(t, 1, 0, nil))
		tr, err = runBatch(t, context.Background(), devs, newFakeJobs(4), &fakeResident{}, WithInstrument(lose(0)))
		if tr.Summary().Devices[0].Partitions == 0 && i < 4 {
			continue
		}
		if err == nil || !strings.Contains(err.Error(), "Free on a lost device") {
			t.Errorf("a healthy device's failed cleanup: Run returned %v\n%v", err, tr.Summary())
		}
		break
	}
}
