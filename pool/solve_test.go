package pool

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/g16prover/g16/backend"
)

// offHost hides a CPU backend's HostBound, so that the pool treats it as a
// device with cores of its own (a GPU).
type offHost struct{ backend.Backend }

// preparesDuringCompute counts the prepare events that overlap a compute
// region held on any device.
func preparesDuringCompute(tr *Trace) int {
	var computes [][2]int64
	for _, e := range tr.Events() {
		if e.Kind == KindRegion && e.Name == string(RegionCompute) {
			computes = append(computes, [2]int64{e.Start, e.End})
		}
	}
	n := 0
	for _, e := range tr.Events() {
		if e.Kind != KindHost || e.Name != "prepare" {
			continue
		}
		for _, c := range computes {
			if e.Start < c[1] && c[0] < e.End {
				n++
				break
			}
		}
	}
	return n
}

// slowJobs are jobs whose Prepare takes prep (the first first of them also
// wait for one another, up to 10 seconds, so that they are seen running at
// once, however late a loaded machine starts a solver) and whose device
// work takes comp more.
func slowJobs(n, first int, prep, comp time.Duration) []*fakeJob {
	jobs := newFakeJobs(n)
	var started atomic.Int32
	for i, j := range jobs {
		j.prepare = func(*fakeJob) error {
			if i < first {
				started.Add(1)
				for end := time.Now().Add(10 * time.Second); time.Now().Before(end) && started.Load() < int32(first); {
					time.Sleep(time.Millisecond)
				}
			}
			time.Sleep(prep)
			return nil
		}
		j.onCompute = func(*fakeJob, backend.Backend) { time.Sleep(comp) }
	}
	return jobs
}

// TestSolversIndependentOfWorkers shows that with one device worker the
// pool solves several jobs at once (WithSolvers), that solving overlaps
// the device's compute region, and that every job still finishes once.
func TestSolversIndependentOfWorkers(t *testing.T) {
	const solvers = 3
	devs := []backend.Backend{offHost{newCPU(t, 0, 0, nil)}}
	jobs := slowJobs(12, solvers, 20*time.Millisecond, 5*time.Millisecond)
	tr, err := runBatch(t, context.Background(), devs, jobs, &fakeResident{}, WithWorkers(1), WithSolvers(solvers))
	if err != nil {
		t.Fatal(err)
	}
	checkAllFinished(t, jobs)
	if got := tr.MostAtOnce("prepare"); got != solvers {
		t.Errorf("at most %d Prepares ran at once, want WithSolvers' %d (one device worker)", got, solvers)
	}
	if got := preparesDuringCompute(tr); got == 0 {
		t.Error("no Prepare overlapped the device's compute region")
	}
}

// TestSolversDefault runs the adaptive default: on a device with cores of
// its own and solving slower than the device, it solves more jobs at once
// than the device has workers, up to WithSolverLimit or the default's own
// bound (a quarter of the CPUs, at least 2), whichever is lower; on a
// host-bound device (the CPU backend) it solves no more at once than the
// workers. It logs what the default chose on this host.
func TestSolversDefault(t *testing.T) {
	limit := min(4, defaultSolvers()) // 2 on 2 to 11 CPUs, 3 on 12 to 15, 4 from 16
	if limit < 2 {
		t.Skip("one CPU: the default solves one job at a time")
	}
	devs := []backend.Backend{offHost{newCPU(t, 0, 0, nil)}}
	jobs := slowJobs(16, limit, 20*time.Millisecond, 2*time.Millisecond)
	tr, err := runBatch(t, context.Background(), devs, jobs, &fakeResident{}, WithWorkers(1), WithSolverLimit(limit))
	if err != nil {
		t.Fatal(err)
	}
	checkAllFinished(t, jobs)
	if got := tr.MostAtOnce("prepare"); got != limit {
		t.Errorf("adaptive default: at most %d Prepares at once, want the limit %d", got, limit)
	}

	var s sched
	s.initSolving(&config{workers: 1}, devs)
	t.Logf("this host: %d CPUs; default solving limit for one GPU-like device: %d", runtime.NumCPU(), s.solving.max)
	if want := defaultSolvers(); s.solving.max != want {
		t.Errorf("default limit %d, want %d (a quarter of the host's %d CPUs, at least 2)", s.solving.max, want, runtime.NumCPU())
	}

	host := devices(newCPU(t, 0, 0, nil))
	s.initSolving(&config{workers: 2}, host)
	if s.solving.max != 2 {
		t.Errorf("host-bound device with 2 workers: solving limit %d, want 2", s.solving.max)
	}
	jobs = slowJobs(8, 0, 5*time.Millisecond, 0)
	tr, err = runBatch(t, context.Background(), host, jobs, &fakeResident{}, WithWorkers(2))
	if err != nil {
		t.Fatal(err)
	}
	checkAllFinished(t, jobs)
	if got := tr.MostAtOnce("prepare"); got > 2 {
		t.Errorf("host-bound device, 2 workers: %d Prepares at once", got)
	}
}

// TestSolvingRule checks the adaptive rule ⌈devices·prepare/compute⌉ + 1
// within [1, limit].
func TestSolvingRule(t *testing.T) {
	for _, c := range []struct {
		devices, max  int
		prep, compute time.Duration
		want          int
	}{
		{1, 16, 850 * time.Millisecond, 100 * time.Millisecond, 10},
		{1, 8, 850 * time.Millisecond, 100 * time.Millisecond, 8},
		{2, 32, 850 * time.Millisecond, 100 * time.Millisecond, 18},
		{1, 16, 10 * time.Millisecond, 100 * time.Millisecond, 2},
		{1, 16, 100 * time.Millisecond, 100 * time.Millisecond, 2},
	} {
		sv := solving{devices: c.devices, max: c.max, limit: c.max}
		sv.prepare.add(c.prep)
		sv.compute.add(c.compute)
		sv.retargetLocked()
		if sv.limit != c.want {
			t.Errorf("%d devices, prepare %v, compute %v, limit %d: %d solvers, want %d", c.devices, c.prep, c.compute, c.max, sv.limit, c.want)
		}
	}
	sv := solving{devices: 1, max: 16, limit: 3, fixed: true}
	sv.prepare.add(time.Second)
	sv.compute.add(time.Millisecond)
	sv.retargetLocked()
	if sv.limit != 3 {
		t.Errorf("WithSolvers(3) adapted to %d", sv.limit)
	}
	if err := Check(WithSolvers(0)); err == nil {
		t.Error("WithSolvers(0) accepted")
	}
	if err := Check(WithSolverLimit(-1)); err == nil {
		t.Error("WithSolverLimit(-1) accepted")
	}
}
