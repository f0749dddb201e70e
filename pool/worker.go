package pool

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/g16prover/g16/backend"
)

// worker runs jobs on one device, one at a time: host work, staging,
// compute, host work. The device's other workers do the same, so while one
// computes another stages and a third solves.
type worker[K any] struct {
	Worker
	r   *run[K]
	dev *device[K]
	b   backend.Backend // the device, as instrumented and traced for this worker
	q   backend.Queue   // made on first use; replaced after a device error

	// When the held region was asked for and acquired.
	requested, acquired int64
}

func (r *run[K]) newWorker(d *device[K], id int) *worker[K] {
	w := &worker[K]{r: r, dev: d}
	w.Device, w.ID, w.partition = d.idx, id, -1
	w.b = d.b
	if r.cfg.instrument != nil {
		w.b = r.cfg.instrument(w.b, &w.Worker)
	}
	if r.trace != nil {
		w.b = &traced{Backend: w.b, w: &w.Worker, t: r.trace}
	}
	return w
}

func (w *worker[K]) loop(ctx context.Context) {
	defer w.closeQueue()
	for {
		if ctx.Err() != nil {
			// The stop also reaches the scheduler, but asynchronously.
			w.r.sched.stop()
			return
		}
		it := w.r.sched.next(w.dev.idx)
		if it == nil {
			return
		}
		w.partition = it.job
		err, devErr := w.attempt(ctx, it)
		if devErr {
			// The queue may hold the error (or the device's broken
			// state); start the next job on a fresh one.
			w.closeQueue()
		}
		w.r.settle(ctx, w, it, err, devErr)
		w.partition = -1
	}
}

// attempt runs one job on this worker's device. devErr says whether a
// failure came from the device (a retry elsewhere may succeed) rather than
// from host work or cancellation.
func (w *worker[K]) attempt(ctx context.Context, it *item) (err error, devErr bool) {
	job := w.r.jobs[it.job]
	if err := ctx.Err(); err != nil {
		return err, false
	}
	if w.r.sched.isLost(w.dev.idx) {
		return errDeviceGone, false
	}
	if w.q == nil {
		q, err := w.b.NewQueue()
		if err != nil {
			return err, true
		}
		w.q = q
	}
	if err := w.ensureResident(ctx); err != nil {
		return err, ctx.Err() == nil
	}
	res := w.dev.res // loaded by ensureResident
	sizes := job.Buffers(res)
	set, err := w.stage(ctx, job, res, sizes)
	if err != nil {
		return err, ctx.Err() == nil
	}
	if err := w.computeStep(ctx, job, sizes, set); err != nil {
		return err, ctx.Err() == nil
	}
	return w.host(ctx, "finish", job.Finish), false
}

// host runs a host stage, outside every device region.
func (w *worker[K]) host(ctx context.Context, name string, f func(context.Context) error) error {
	return w.r.host(ctx, name, w.Device, w.ID, w.partition, f)
}

// host runs a host stage of job for device dev's worker id (-1 and the
// solver's number for Prepare), and traces it.
func (r *run[K]) host(ctx context.Context, name string, dev, id, job int, f func(context.Context) error) error {
	start := r.trace.now()
	err := f(ctx)
	ev := Event{Kind: KindHost, Name: name, Device: dev, Worker: id, Partition: job,
		Region: RegionHost, Start: start, End: r.trace.now()}
	if err != nil {
		ev.Err = err.Error()
	}
	r.trace.add(ev)
	return err
}

// stage makes the job's buffers and uploads its inputs ahead of compute,
// for a device holding res. It returns a nil set when staging was skipped: the budget does not admit
// the job even on an otherwise empty device, or Alloc reported out of
// memory. It never syncs, trims or asks how much memory is free.
func (w *worker[K]) stage(ctx context.Context, job Job[K], res K, sizes []int64) (*bufSet, error) {
	set, fresh, err := w.admit(sizes)
	if err != nil {
		return nil, err
	}
	if set == nil && !fresh {
		now := w.r.trace.now()
		w.r.trace.add(Event{Kind: KindOutcome, Name: OutcomeSkipped, Device: w.Device, Worker: w.ID,
			Partition: w.partition, Start: now, End: now, Bytes: total(sizes), Err: "over budget"})
		return nil, nil
	}
	need := total(sizes)
	if err := w.acquire(ctx, RegionStaging); err != nil {
		if fresh {
			w.dev.unreserve(need)
		} else {
			w.dev.release(set, true)
		}
		return nil, err
	}
	if w.r.cfg.syncInStaging {
		_ = w.b.Sync() // a planted fault, for this package's tests
	}
	if fresh {
		bufs, err := w.allocate(sizes, false)
		if err != nil {
			w.dev.unreserve(need)
			if errors.Is(err, backend.ErrOutOfMemory) {
				w.leave(RegionStaging, OutcomeSkipped, nil)
				return nil, nil
			}
			w.leave(RegionStaging, "", err)
			return nil, err
		}
		set = &bufSet{sizes: append([]int64(nil), sizes...), bufs: bufs, bytes: need}
	}
	if err := job.Upload(w.b, w.q, res, set.bufs); err != nil {
		if set.direct {
			// Freeing it is device-global: leave that to the compute
			// region, which evicts idle sets.
			w.dev.release(set, true)
		} else {
			w.discard(set)
		}
		w.leave(RegionStaging, "", err)
		return nil, err
	}
	w.leave(RegionStaging, OutcomeStaged, nil)
	return set, nil
}

// admit is staging's admission control, by budget, outside both regions.
// It returns an idle set to reuse, or fresh == true when the budget admits
// new buffers (their bytes are then counted), or neither when staging is to
// be skipped. While the budget is full and other workers hold sets that
// they will release, it waits.
func (w *worker[K]) admit(sizes []int64) (set *bufSet, fresh bool, err error) {
	d := w.dev
	need := total(sizes)
	if w.r.cfg.noStaging {
		return nil, false, nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for {
		if d.stopped {
			return nil, false, context.Canceled // Run's ctx ended
		}
		if s := d.takeIdleLocked(sizes); s != nil {
			return s, false, nil
		}
		if d.fitsLocked(need) {
			d.held += need
			d.active++
			return nil, true, nil
		}
		if d.pooledIdleLocked() || (w.r.cfg.evictDirect && len(d.idle) > 0) {
			// Idle sets of other sizes make room: free those from the
			// pool (a pooled Free is not device-global; a direct one
			// is, and waits for the compute region) and look again.
			ev := d.evictLocked(w.r.cfg.evictDirect)
			d.mu.Unlock()
			err := w.freeSets(ev)
			d.evicted(ev)
			d.mu.Lock()
			if err != nil {
				return nil, false, err
			}
			continue
		}
		if d.active == 0 {
			return nil, false, nil
		}
		d.cond.Wait()
	}
}

// computeStep runs the job's device work in the compute region: on the
// staged set, or through the fallback when set is nil. A compute that runs
// out of device memory is run again once, in the region, after makeRoom;
// if it runs out again, the worker gives its set back and, when other jobs
// hold memory they will release, waits for them and takes the fallback.
func (w *worker[K]) computeStep(ctx context.Context, job Job[K], sizes []int64, set *bufSet) error {
	outcome := OutcomeStaged
	retried := false
	for {
		if err := w.acquire(ctx, RegionCompute); err != nil {
			if set != nil {
				w.dev.release(set, true)
			}
			return err
		}
		if err := ctx.Err(); err != nil {
			if set != nil {
				w.dev.release(set, true)
			}
			w.leave(RegionCompute, outcome, err)
			return err
		}
		res, err := w.resident()
		if err != nil {
			if set != nil {
				w.dev.release(set, true)
			}
			w.leave(RegionCompute, outcome, err)
			return fmt.Errorf("loading resident state: %w", err)
		}
		if set == nil {
			outcome = OutcomeFallback
			var gen uint64
			set, gen, err = w.fallbackSet(sizes)
			if err != nil {
				w.leave(RegionCompute, outcome, err)
				if errors.Is(err, backend.ErrOutOfMemory) && w.waitRelease(gen) {
					continue // memory held by other jobs was released: try again
				}
				return err
			}
			if err := job.Upload(w.b, w.q, res, set.bufs); err != nil {
				w.discard(set)
				w.leave(RegionCompute, outcome, err)
				return err
			}
		}
		start := time.Now()
		err = w.runCompute(job, res, set)
		if errors.Is(err, backend.ErrOutOfMemory) && !retried {
			retried = true
			w.note(OutcomeRetried, err)
			if err = w.makeRoom(); err == nil {
				if err = job.Upload(w.b, w.q, res, set.bufs); err == nil {
					err = w.runCompute(job, res, set)
				}
			}
		}
		if errors.Is(err, backend.ErrOutOfMemory) {
			w.discard(set)
			set = nil
			w.dev.mu.Lock()
			gen := w.dev.gen
			w.dev.mu.Unlock()
			w.leave(RegionCompute, outcome, err)
			if w.waitRelease(gen) {
				continue
			}
			return err
		}
		if err == nil {
			w.r.sched.observeCompute(time.Since(start))
		}
		if err != nil {
			w.discard(set)
		} else {
			w.dev.release(set, true)
		}
		w.leave(RegionCompute, outcome, err)
		return err
	}
}

// runCompute runs the job's Compute on set and waits for the queue. After an
// error the queue is replaced: a failed queue may keep reporting it.
func (w *worker[K]) runCompute(job Job[K], res K, set *bufSet) error {
	err := job.Compute(w.b, w.q, res, set.bufs)
	if err == nil {
		err = w.wait()
	}
	if err != nil {
		w.closeQueue()
		q, qerr := w.b.NewQueue()
		if qerr != nil {
			return errors.Join(err, qerr)
		}
		w.q = q
	}
	return err
}

// makeRoom, in the compute region, frees the device's idle sets, waits for
// the device and trims its pool, so that the memory they and other jobs'
// finished work left cached is free for a retry.
func (w *worker[K]) makeRoom() error {
	d := w.dev
	d.mu.Lock()
	ev := d.evictLocked(true)
	d.mu.Unlock()
	err := w.freeSets(ev)
	d.evicted(ev)
	if err != nil {
		return err
	}
	if err := w.b.Sync(); err != nil {
		return err
	}
	if w.r.cfg.noTrim {
		return nil
	}
	return w.b.TrimPool(0)
}

// note records an outcome event for the worker's job.
func (w *worker[K]) note(name string, err error) {
	now := w.r.trace.now()
	ev := Event{Kind: KindOutcome, Name: name, Device: w.Device, Worker: w.ID, Partition: w.partition, Start: now, End: now}
	if err != nil {
		ev.Err = err.Error()
	}
	w.r.trace.add(ev)
}

// fallbackSet gets buffers inside the compute region: an idle set of the
// right sizes if there is one; otherwise it frees the idle sets, waits for
// the device (Sync), trims the pool so that the bytes it caches become
// available, and allocates outside the pool. Under WithMemoryBudget it
// allocates only what the budget admits. On failure, gen is the
// device's generation from before the allocation, for waitRelease.
func (w *worker[K]) fallbackSet(sizes []int64) (set *bufSet, gen uint64, err error) {
	d := w.dev
	d.mu.Lock()
	if s := d.takeIdleLocked(sizes); s != nil {
		d.mu.Unlock()
		return s, 0, nil
	}
	ev := d.evictLocked(true)
	d.mu.Unlock()
	err = w.freeSets(ev)
	d.evicted(ev)
	if err != nil {
		return nil, 0, err
	}
	d.mu.Lock()
	gen = d.gen
	if d.capped && !d.fitsLocked(total(sizes)) {
		held := d.held
		d.mu.Unlock()
		return nil, gen, fmt.Errorf("pool: %s: WithMemoryBudget(%d): a job's %d bytes do not fit beside the %d held: %w",
			d.name, d.budget, total(sizes), held, backend.ErrOutOfMemory)
	}
	d.mu.Unlock()
	if err := w.b.Sync(); err != nil {
		return nil, gen, err
	}
	if !w.r.cfg.noTrim {
		if err := w.b.TrimPool(0); err != nil {
			return nil, gen, err
		}
	}
	bufs, err := w.allocate(sizes, true)
	if err != nil {
		return nil, gen, err
	}
	need := total(sizes)
	d.mu.Lock()
	d.held += need
	d.active++
	d.mu.Unlock()
	return &bufSet{sizes: append([]int64(nil), sizes...), bufs: bufs, bytes: need, direct: true}, gen, nil
}

// waitRelease waits, outside both regions, until another job releases
// memory on the device, or idle sets being freed are freed (the generation
// moves past gen). It returns false when no other job holds any and none
// is being freed, so that nothing will change, or on stop.
func (w *worker[K]) waitRelease(gen uint64) bool {
	d := w.dev
	d.mu.Lock()
	defer d.mu.Unlock()
	for d.gen == gen && (d.active > 0 || d.freeing > 0) && !d.stopped {
		d.cond.Wait()
	}
	return d.gen != gen && !d.stopped
}

// ensureResident loads the device's resident state before the worker's
// first staging, so that staged sets never crowd out the state every job
// needs.
func (w *worker[K]) ensureResident(ctx context.Context) error {
	if w.dev.resLoaded.Load() || w.dev.spec.Load == nil {
		return nil
	}
	if err := w.acquire(ctx, RegionCompute); err != nil {
		return err
	}
	_, err := w.resident()
	if err != nil {
		err = fmt.Errorf("loading resident state: %w", err)
	}
	w.leave(RegionCompute, OutcomeResident, err)
	return err
}

// resident loads the device's resident state on first use. It runs in the
// compute region, so on out-of-memory it may free idle sets, Sync and trim
// before its one retry.
func (w *worker[K]) resident() (K, error) {
	d := w.dev
	if d.resLoaded.Load() || d.spec.Load == nil {
		return d.res, nil
	}
	k, err := d.spec.Load(w.dev.idx, w.b, w.q)
	if errors.Is(err, backend.ErrOutOfMemory) {
		if err := w.makeRoom(); err != nil {
			return k, err
		}
		k, err = d.spec.Load(w.dev.idx, w.b, w.q)
	}
	if err == nil {
		err = w.wait() // other workers' queues will read it
		if err != nil {
			_ = d.spec.Free(w.b, w.q, k)
		}
	}
	if err != nil {
		var zero K
		return zero, err
	}
	d.res = k
	d.resLoaded.Store(true)
	return k, nil
}

// allocate makes buffers of the given sizes, from the pool or directly. On
// failure it frees what it got.
func (w *worker[K]) allocate(sizes []int64, direct bool) ([]backend.Buffer, error) {
	bufs := make([]backend.Buffer, 0, len(sizes))
	for _, n := range sizes {
		var b backend.Buffer
		var err error
		if direct {
			b, err = w.b.AllocDirect(n)
		} else {
			b, err = w.b.Alloc(w.q, n)
		}
		if err != nil {
			for _, b := range bufs {
				_ = w.b.Free(w.q, b)
			}
			return nil, err
		}
		bufs = append(bufs, b)
	}
	return bufs, nil
}

// discard frees a staged or running set that must not be reused (its job
// failed). The accounting changes after the bytes are freed, so that a
// worker woken by the change finds them free.
func (w *worker[K]) discard(s *bufSet) {
	_ = w.freeSets([]*bufSet{s})
	w.dev.release(s, false)
}

func (w *worker[K]) freeSets(sets []*bufSet) error {
	var errs []error
	for _, s := range sets {
		for _, b := range s.bufs {
			if err := w.b.Free(w.q, b); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// wait waits for this worker's queue.
func (w *worker[K]) wait() error {
	start := w.r.trace.now()
	err := w.q.Wait()
	ev := Event{Kind: KindCall, Name: "Queue.Wait", Device: w.Device, Worker: w.ID, Partition: w.partition,
		Region: w.region(), Start: start, End: w.r.trace.now()}
	if err != nil {
		ev.Err = err.Error()
	}
	w.r.trace.add(ev)
	return err
}

func (w *worker[K]) closeQueue() error {
	if w.q == nil {
		return nil
	}
	err := w.q.Close()
	w.q = nil
	return err
}

// acquire takes region r of the worker's device, unless ctx ends first.
func (w *worker[K]) acquire(ctx context.Context, r Region) error {
	ch := w.dev.staging
	if r == RegionCompute {
		ch = w.dev.compute
	}
	w.requested = w.r.trace.now()
	select {
	case ch <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	w.acquired = w.r.trace.now()
	if r == RegionCompute {
		w.compute = true
	} else {
		w.staging = true
	}
	return nil
}

// leave releases region r and records how the worker's time in it ended.
func (w *worker[K]) leave(r Region, outcome string, err error) {
	ch := w.dev.staging
	if r == RegionCompute {
		ch = w.dev.compute
		w.compute = false
	} else {
		w.staging = false
	}
	<-ch
	ev := Event{Kind: KindRegion, Name: string(r), Device: w.Device, Worker: w.ID, Partition: w.partition,
		Requested: w.requested, Start: w.acquired, End: w.r.trace.now(), Outcome: outcome}
	if err != nil {
		ev.Err = err.Error()
	}
	w.r.trace.add(ev)
}
