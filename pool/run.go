package pool

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/g16prover/g16/backend"
)

// run is one Run's shared state.
type run[K any] struct {
	cfg     config
	jobs    []Job[K]
	devices []*device[K]
	sched   sched
	trace   *Trace

	// prepCtx is what Job.Prepare runs under: the Run's ctx, also
	// cancelled once every device is lost, so that solving stops.
	prepCtx    context.Context
	cancelPrep context.CancelCauseFunc

	mu   sync.Mutex
	errs []*JobError // by job; nil: finished or not yet run
}

// errDeviceGone is an attempt's outcome when its device was lost while
// the job was on the host: not the job's failure, so it goes back to the
// queue without counting as an attempt.
var errDeviceGone = errors.New("pool: device lost before the job reached it")

// Run runs every job on the devices and returns when all have finished or
// failed, or ctx is cancelled. It returns nil when every job finished;
// ctx.Err() when ctx was cancelled; otherwise an Errors naming each failed
// job. Jobs that did not fail have finished (their Finish returned nil)
// whatever Run returns, except after cancellation.
//
// Before returning, Run frees every device buffer it allocated, frees the
// resident state, and trims each device's pool back to what it cached when
// the Run began.
func Run[K any](ctx context.Context, devices []backend.Backend, jobs []Job[K], res Resident[K], opts ...Option) error {
	cfg := defaultConfig()
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return err
		}
	}
	if len(devices) == 0 {
		return errors.New("pool: Run: no devices")
	}
	if res.Load != nil && res.Free == nil {
		return errors.New("pool: Run: Resident has Load but no Free")
	}
	r := &run[K]{cfg: cfg, jobs: jobs, trace: cfg.trace, errs: make([]*JobError, len(jobs))}
	names := make([]string, len(devices))
	for i, b := range devices {
		if b == nil {
			return fmt.Errorf("pool: Run: device %d is nil", i)
		}
		r.devices = append(r.devices, newDevice[K](i, b, &cfg))
		names[i] = b.String()
	}
	for _, d := range r.devices {
		spec := res
		if res.Fit != nil {
			var err error
			if spec, err = res.Fit(d.idx, d.b, d.budgetBytes()); err != nil {
				return fmt.Errorf("pool: %s: %w", d.name, err)
			}
		}
		if spec.Load != nil && spec.Free == nil {
			return fmt.Errorf("pool: Run: %s: Resident has Load but no Free", d.name)
		}
		if d.capped && spec.Bytes+spec.Scratch > d.budget {
			return fmt.Errorf("pool: Run: %s: WithMemoryBudget(%d) cannot hold the resident state's %d bytes and its jobs' %d bytes of scratch",
				d.name, d.budget, spec.Bytes, spec.Scratch)
		}
		d.setResident(spec)
	}
	r.trace.begin(names)
	defer r.trace.finish()
	for _, d := range r.devices {
		if d.spec.Name != "" || d.spec.Bytes > 0 || d.spec.Scratch > 0 {
			now := r.trace.now()
			r.trace.add(Event{Kind: KindOutcome, Name: OutcomePlan, Device: d.idx, Worker: -1, Partition: -1,
				Start: now, End: now, Bytes: d.spec.Bytes, Outcome: d.spec.Name,
				Err: fmt.Sprintf("scratch %d bytes", d.spec.Scratch)})
		}
	}
	if cfg.hostSlots > 0 {
		r.trace.hostSlots(cfg.hostSlots)
	}
	if len(jobs) == 0 {
		return ctx.Err()
	}

	r.sched.cond = sync.NewCond(&r.sched.mu)
	r.sched.initSolving(&cfg, devices)
	r.sched.left = len(jobs)
	r.sched.failures = make([]int, len(devices))
	r.sched.lost = make([]bool, len(devices))
	r.prepCtx, r.cancelPrep = context.WithCancelCause(ctx)
	defer r.cancelPrep(nil)
	for i := range jobs {
		r.sched.pending = append(r.sched.pending, &item{job: i, exclude: -1})
	}
	stopWatch := context.AfterFunc(ctx, func() {
		r.sched.stop()
		for _, d := range r.devices {
			d.stop()
		}
	})
	defer stopWatch()

	var wg sync.WaitGroup
	for id := range r.sched.solving.max {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.solve(ctx, id)
		}()
	}
	for _, d := range r.devices {
		for id := range cfg.workers {
			w := r.newWorker(d, id)
			wg.Add(1)
			go func() {
				defer wg.Done()
				w.loop(ctx)
			}()
		}
	}
	wg.Wait()

	var cleanupErrs []error
	for _, d := range r.devices {
		err := r.cleanup(d)
		if err == nil {
			continue
		}
		if r.quarantined(d.idx) {
			// A device that failed its jobs may fail to free too (a
			// CUDA error is sticky). The jobs it failed went elsewhere;
			// record the failure and let the batch stand.
			now := r.trace.now()
			r.trace.add(Event{Kind: KindOutcome, Name: "cleanup failed", Device: d.idx, Worker: -1, Partition: -1,
				Start: now, End: now, Err: err.Error()})
			continue
		}
		cleanupErrs = append(cleanupErrs, err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	var failed Errors
	for _, e := range r.errs {
		if e != nil {
			failed = append(failed, e)
		}
	}
	switch {
	case len(failed) > 0 && len(cleanupErrs) > 0:
		return errors.Join(append([]error{failed}, cleanupErrs...)...)
	case len(failed) > 0:
		return failed
	}
	return errors.Join(cleanupErrs...)
}

func (r *run[K]) quarantined(dev int) bool {
	r.sched.mu.Lock()
	defer r.sched.mu.Unlock()
	return !r.sched.healthyLocked(dev)
}

// cleanup frees what the Run left on d, once every worker has stopped: the
// device is idle as far as this Run is concerned, so TrimPool is allowed.
func (r *run[K]) cleanup(d *device[K]) error {
	w := r.newWorker(d, -1)
	// Every worker has stopped, so the region is free at once; holding it
	// keeps the rule that Sync and TrimPool run only there.
	if err := w.acquire(context.Background(), RegionCompute); err != nil {
		return err
	}
	var errs []error
	defer func() { w.leave(RegionCompute, OutcomeCleanup, errors.Join(errs...)) }()
	d.mu.Lock()
	ev := d.evictLocked(true)
	d.mu.Unlock()
	if err := w.freeSets(ev); err != nil {
		errs = append(errs, err)
	}
	d.evicted(ev)
	if d.resLoaded.Load() {
		q, err := w.b.NewQueue()
		if err == nil {
			err = d.spec.Free(w.b, q, d.res)
			if cerr := q.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("pool: %s: freeing resident state: %w", d.name, err))
		}
		var zero K
		d.resLoaded.Store(false)
		d.res = zero
	}
	if err := w.closeQueue(); err != nil {
		errs = append(errs, err)
	}
	if err := w.b.Sync(); err != nil {
		errs = append(errs, err)
	}
	if err := w.b.TrimPool(d.cachedAtStart); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// settle records how an attempt at it ended. devErr says the failure came
// from device work (and may be retried elsewhere).
func (r *run[K]) settle(ctx context.Context, w *worker[K], it *item, err error, devErr bool) {
	if errors.Is(err, errDeviceGone) {
		if r.sched.retry(it) {
			now := r.trace.now()
			r.trace.add(Event{Kind: KindOutcome, Name: "requeued", Device: w.dev.idx, Worker: w.ID, Partition: it.job,
				Start: now, End: now, Err: err.Error()})
			return
		}
		err, devErr = r.notRun(), false
	}
	ev := Event{Kind: KindOutcome, Device: w.dev.idx, Worker: w.ID, Partition: it.job, Start: r.trace.now()}
	ev.End = ev.Start
	if err != nil {
		ev.Err = err.Error()
	}
	lost := devErr && errors.Is(err, backend.ErrDeviceLost)
	if lost {
		r.lose(w, err)
	}
	if !lost && (err == nil || devErr) && len(r.devices) > 1 && r.sched.deviceOutcome(w.dev.idx, err == nil) {
		q := ev
		q.Name, q.Err = "quarantined", fmt.Sprintf("%d device failures in a row", quarantineAfter)
		r.trace.add(q)
	}
	switch {
	case err == nil:
		ev.Name = "done"
		r.trace.add(ev)
		r.sched.settle()
		return
	case ctx.Err() != nil:
		ev.Name = "cancelled"
		r.trace.add(ev)
		r.sched.settle()
		return
	case devErr && r.cfg.retry && it.attempt == 0 && len(r.devices) > 1 && r.sched.allLost() == nil:
		it.attempt++
		it.exclude = w.dev.idx
		it.first = fmt.Errorf("on %s: %w", w.dev.name, err)
		if r.sched.retry(it) {
			ev.Name = "retry"
			r.trace.add(ev)
			return
		}
	}
	ev.Name = "error"
	r.trace.add(ev)
	je := &JobError{Job: it.job, Err: err}
	if devErr {
		je.Device = w.dev.name
	}
	if it.first != nil {
		je.Err = fmt.Errorf("%w (retried after failing %w)", err, it.first)
	}
	r.mu.Lock()
	r.errs[it.job] = je
	r.mu.Unlock()
	r.sched.settle()
}

// lose quarantines w's device for the rest of the Run at once: it reported
// err, which matches backend.ErrDeviceLost. Once no device is left, the
// jobs not yet started fail without running, and solving stops.
func (r *run[K]) lose(w *worker[K], err error) {
	stranded, newly := r.sched.lose(w.dev.idx, err)
	now := r.trace.now()
	if newly {
		r.trace.add(Event{Kind: KindOutcome, Name: "quarantined", Device: w.dev.idx, Worker: w.ID, Partition: -1,
			Start: now, End: now, Err: "device lost: " + err.Error()})
	}
	if r.sched.allLost() == nil {
		return
	}
	notRun := r.notRun()
	r.cancelPrep(notRun)
	r.mu.Lock()
	for _, it := range stranded {
		r.errs[it.job] = &JobError{Job: it.job, Err: notRun}
	}
	r.mu.Unlock()
	for _, it := range stranded {
		r.trace.add(Event{Kind: KindOutcome, Name: "not run", Device: -1, Worker: -1, Partition: it.job,
			Start: now, End: now, Err: notRun.Error()})
	}
}

// notRun is the error of a job that no device is left to run.
func (r *run[K]) notRun() error {
	return fmt.Errorf("not run: every device was lost (the first: %w)", r.sched.allLost())
}
