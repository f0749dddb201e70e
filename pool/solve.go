package pool

import (
	"context"
	"runtime"
	"time"

	"github.com/g16prover/g16/backend"
)

// Host pipeline: solvers run Job.Prepare (solving the circuit) apart from
// the device workers, so that how many jobs are solved at once does not
// depend on how many each device works on. A prepared job waits in the
// scheduler's ready list for a device worker; at most as many wait as the
// Run has device workers, so that prepared jobs (whose host buffers can be
// large) do not pile up when the devices are the bottleneck.
//
// How many Prepares run at once (the solving concurrency) is WithSolvers'
// number when given. Otherwise it adapts: it starts at the most allowed
// (WithSolverLimit; default a quarter of the host's CPUs and at least 2,
// or the Run's device workers when a device computes on the host's cores,
// backend.HostBound), and once
// a job has been prepared and computed it follows
//
//	solvers = ⌈devices · prepare / compute⌉ + 1, within [1, limit]
//
// with prepare the recent time of one Prepare and compute the recent time
// a job holds a device's compute region: enough concurrent solves that
// every device finds a prepared job whenever it is free, and no more. A
// solve slowed by its neighbours measures longer and raises the number
// until the limit; a device that cannot keep up lowers it.
//
// Concurrent solves share the host's cores (each gets its share of
// GOMAXPROCS), so more of them add no cores, only memory traffic: on a
// 16-core GPU host, ten sha256 partitions solved ten at once took 1.394 s,
// four at once 1.069 s, two 1.051 s, one 1.367 s (BENCHMARKS.md, GPU run
// 23). Hence the default limit: a solve keeps at least minCoresPerSolve
// cores.
const minCoresPerSolve = 4

// solving is the scheduler's solving-concurrency state, guarded by sched.mu.
type solving struct {
	fixed    bool // WithSolvers: limit is not adapted
	limit    int  // Prepares allowed at once now
	max      int  // the most limit may be
	devices  int
	readyCap int // prepared jobs that may wait for a device worker
	running  int // Prepares running
	// slots bounds held, the jobs from the start of their Prepare until
	// they settle (WithHostSlots); 0: unbounded.
	slots, held int

	prepare, compute ewma
}

// ewma is an exponentially weighted moving average of durations.
type ewma struct {
	n int
	v float64
}

func (e *ewma) add(d time.Duration) {
	const alpha = 0.3
	if e.n == 0 {
		e.v = float64(d)
	} else {
		e.v = alpha*float64(d) + (1-alpha)*e.v
	}
	e.n++
}

// initSolving sets the solving concurrency of a Run on devs with workers
// per device.
func (s *sched) initSolving(cfg *config, devs []backend.Backend) {
	sv := &s.solving
	sv.devices = len(devs)
	sv.readyCap = len(devs) * cfg.workers
	sv.slots = cfg.hostSlots
	if cfg.solvers > 0 {
		sv.fixed, sv.limit, sv.max = true, cfg.solvers, cfg.solvers
		if sv.slots > 0 {
			sv.max = min(sv.max, sv.slots)
		}
		return
	}
	sv.max = defaultSolvers()
	for _, d := range devs {
		if backend.IsHostBound(d) {
			// The device's work runs on the same cores as the solves.
			sv.max = sv.readyCap
			break
		}
	}
	if cfg.solverLimit > 0 {
		sv.max = min(sv.max, cfg.solverLimit)
	}
	if sv.slots > 0 {
		// More solvers than slots would only wait.
		sv.max = min(sv.max, sv.slots)
	}
	sv.max = max(sv.max, 1)
	sv.limit = sv.max
}

// retargetLocked applies the rule above once both times are measured.
func (sv *solving) retargetLocked() {
	if sv.fixed || sv.prepare.n == 0 || sv.compute.n == 0 || sv.compute.v <= 0 {
		return
	}
	need := int(float64(sv.devices)*sv.prepare.v/sv.compute.v+0.999999) + 1
	sv.limit = min(max(need, 1), sv.max)
}

// nextToPrepare blocks until a solver may start a Prepare (a solving slot,
// room in the ready list and a host slot are free) and returns the next
// job to prepare, which holds a host slot until it settles; nil when none
// is left or the Run stopped.
func (s *sched) nextToPrepare() *item {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		if s.stopped || len(s.pending) == 0 {
			return nil
		}
		sv := &s.solving
		if sv.running < sv.limit && len(s.ready) < sv.readyCap && (sv.slots == 0 || sv.held < sv.slots) {
			it := s.pending[0]
			s.pending = s.pending[1:]
			sv.running++
			sv.held++
			return it
		}
		s.cond.Wait()
	}
}

// prepared records the end of it's Prepare; a prepared job becomes ready.
// It returns false when the job cannot run (every device is lost).
func (s *sched) prepared(it *item, ok bool, took time.Duration) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.solving.running--
	s.cond.Broadcast()
	if !ok {
		return false
	}
	s.solving.prepare.add(took)
	s.solving.retargetLocked()
	if !s.usableLocked() {
		return false
	}
	s.ready = append(s.ready, it)
	return true
}

// observeCompute records how long a job held a device's compute region.
func (s *sched) observeCompute(took time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.solving.compute.add(took)
	s.solving.retargetLocked()
	s.cond.Broadcast()
}

// solve is one solver's loop: prepare jobs until none is left.
func (r *run[K]) solve(ctx context.Context, id int) {
	for {
		if ctx.Err() != nil {
			r.sched.stop()
			return
		}
		it := r.sched.nextToPrepare()
		if it == nil {
			return
		}
		start := time.Now()
		// r.prepCtx ends with ctx, or once every device is lost.
		err := r.host(r.prepCtx, "prepare", -1, id, it.job, r.jobs[it.job].Prepare)
		if err == nil {
			err = ctx.Err()
		}
		if r.sched.prepared(it, err == nil, time.Since(start)) {
			continue
		}
		if r.sched.allLost() != nil && ctx.Err() == nil {
			err = r.notRun()
		}
		r.prepareFailed(ctx, it, err)
	}
}

// prepareFailed settles a job whose Prepare failed (host work: no retry).
func (r *run[K]) prepareFailed(ctx context.Context, it *item, err error) {
	now := r.trace.now()
	ev := Event{Kind: KindOutcome, Name: "error", Device: -1, Worker: -1, Partition: it.job, Start: now, End: now, Err: err.Error()}
	if ctx.Err() != nil {
		ev.Name = "cancelled"
		r.trace.add(ev)
		r.sched.settle()
		return
	}
	r.trace.add(ev)
	r.mu.Lock()
	r.errs[it.job] = &JobError{Job: it.job, Err: err}
	r.mu.Unlock()
	r.sched.settle()
}

// defaultSolvers is the default most Prepares at once beside a device
// with cores of its own: a quarter of the host's CPUs, at least 2 (or the
// one CPU there is).
func defaultSolvers() int {
	n := runtime.NumCPU()
	return max(min(2, n), n/minCoresPerSolve)
}
