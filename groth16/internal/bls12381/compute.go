package bls12381

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/g16prover/g16/backend"
)

// deviceWork is one partition's device stage on one device: its buffers,
// laid out as lay, and the solution whose values go up into them.
type deviceWork struct {
	t    *partition
	dev  backend.Backend
	q    backend.Queue
	key  *deviceKey
	bufs []backend.Buffer
	lay  layout
	sol  *solution

	left []int     // buffers not uploaded yet (put uploads them, on q)
	tl   *timeline // the spans, when the MSMs run side by side; nil otherwise
	b2   b2Choice  // where B2 runs (b2place.go)
}

// compute runs the device work: h from a, b and c (h.go, left
// bit-reversed in bufs[bufA]), then the Z MSM over h, and the MSMs over
// the wire values (A and B in G1, B in G2, K), each on its own queue, and
// returns their results. pending lists buffers still to upload (all of
// them when Prove did not stage them); q uploads them, one at a time.
//
// On a GPU the wire MSMs need nothing from H, so each starts as soon as
// its wire values are on the device (the G2 one, the longest, first),
// while the next vector uploads; a, b and c go up last, and H and then Z
// run on a queue of the highest priority (backend.NewUrgentQueue), so that
// the device schedules them beside the long MSM kernels already queued
// rather than behind them, and Z does not start last. On a host-bound
// backend (the CPU backend) that would only make them compete for the
// cores, so H runs first and the five MSMs after it: side by side, as
// gnark's prover runs them, when the backend says their host scratch
// (gnark-crypto's buckets and scalar digits, the compacted points) fits in
// the host's memory, else one at a time, each on all the backend's cores
// (hostsched.go). When key's plan says the MSMs' scratch does not fit side
// by side, H runs first and the MSMs one at a time; when it streams the
// key, so do they, each through the stream window (computeStreamed).
// compute returns only when every MSM has finished.
func (t *partition) compute(dev backend.Backend, q backend.Queue, key *deviceKey, bufs []backend.Buffer, lay layout, sol *solution, pending []int) (*msmResults, error) {
	if len(bufs) != nbBuffers {
		return nil, fmt.Errorf("groth16: internal error: %d device buffers, want %d", len(bufs), nbBuffers)
	}
	w := &deviceWork{t: t, dev: dev, q: q, key: key, bufs: bufs, lay: lay, sol: sol, left: slices.Clone(pending)}
	t.times.Plan = key.plan.String()
	if w.b2 = t.p.placeB2(dev, key, sol); w.b2.note != "" {
		t.times.Plan += "; " + w.b2.note
	}
	serial := key.plan.serial
	if backend.IsHostBound(dev) && !serial && key.plan.chunk == 0 {
		var note string
		serial, note = hostMSMsSerial(dev, key, t.p.logN)
		if note != "" {
			t.times.Plan += "; " + note
		}
	}
	res := new(msmResults)
	var err error
	switch {
	case key.plan.chunk > 0:
		err = w.computeStreamed(res)
	case serial:
		t.times.Spans = nil // one MSM at a time: no timeline to read
		err = w.oneAtATime(res)
	default:
		w.tl = newTimeline()
		err = w.sideBySide(res)
		t.times.Spans = w.tl.list()
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// fail wraps err from stage.
func (w *deviceWork) fail(stage string, err error) error {
	return w.t.errorf("%s on %s: %w", stage, w.dev, err)
}

// put uploads the buffers of which that are left, on q.
func (w *deviceWork) put(which []int) error {
	var now []int
	for _, i := range which {
		if j := slices.Index(w.left, i); j >= 0 {
			now = append(now, i)
			w.left = slices.Delete(w.left, j, j+1)
		}
	}
	if len(now) == 0 {
		return nil
	}
	return w.t.upload(w.dev, w.q, w.bufs, w.lay, w.sol, now, w.tl)
}

// oneAtATime runs H, then the five MSMs one after another, on q.
func (w *deviceWork) oneAtATime(res *msmResults) error {
	waitB2 := w.startHostB2(res)
	if err := w.computeH(nil); err != nil {
		return errors.Join(err, waitB2())
	}
	start := time.Now()
	for _, m := range append(w.wireMSMs(res), w.zMSM(res)) {
		s := time.Now()
		err := m.run(w.q)
		*m.took = time.Since(s)
		if err != nil {
			return errors.Join(w.fail(m.name, err), waitB2())
		}
	}
	err := waitB2()
	w.t.times.MSM = time.Since(start)
	return err
}

// sideBySide runs the MSMs each on a queue of its own, every wire MSM as
// soon as its values are up. On a host-bound backend H runs first and Z
// beside the others. On a GPU, H and then Z run on an urgent queue beside
// the wire MSMs (hChain), started after the last wire vector went up.
func (w *deviceWork) sideBySide(res *msmResults) error {
	hFirst := backend.IsHostBound(w.dev)
	msms := w.wireMSMs(res)
	waitB2 := w.startHostB2(res)
	if hFirst {
		if err := w.computeH(nil); err != nil {
			return errors.Join(err, waitB2())
		}
		msms = append(msms, w.zMSM(res))
	}
	errs := make([]error, len(msms)+1)
	var wg sync.WaitGroup
	var upErr error
	msmStart := time.Now()
	for i := range msms {
		m := &msms[i]
		if upErr = w.put(w.lay.before(m.scalars)); upErr != nil {
			// The MSMs started still run; none after them.
			errs[i] = upErr
			break
		}
		if i == 0 {
			msmStart = time.Now()
		}
		qi, err := w.dev.NewQueue()
		if err != nil {
			errs[i] = w.fail(m.name, err)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := time.Now()
			err := m.run(qi)
			if cerr := qi.Close(); err == nil {
				err = cerr
			}
			*m.took = time.Since(s)
			w.tl.add(m.name, s)
			if err != nil {
				errs[i] = w.fail(m.name, err)
			}
		}()
	}

	// On a GPU: h, then the Z MSM, beside the wire MSMs, on an urgent
	// queue of their own (a failed MSM must not leave its error on q,
	// which the caller waits for).
	if !hFirst && upErr == nil {
		errs[len(msms)] = w.finishHChain(w.startHChain(), res, &msms)
	}
	wg.Wait()

	// An MSM whose scratch did not fit beside the others' runs again, alone
	// (one at a time, on a fresh queue): it then has the room the others
	// gave back. Running out of memory side by side is not an error while
	// this smaller plan exists.
	for i, m := range msms {
		if !errors.Is(errs[i], backend.ErrOutOfMemory) {
			continue
		}
		rq, err := w.dev.NewQueue()
		if err != nil {
			errs[i] = errors.Join(errs[i], err)
			continue
		}
		s := time.Now()
		err = m.run(rq)
		if cerr := rq.Close(); err == nil {
			err = cerr
		}
		*m.took += time.Since(s)
		w.tl.add(m.name+" (alone, again)", s)
		errs[i] = nil
		if err != nil {
			errs[i] = w.fail(m.name, err)
		}
	}
	errs = append(errs, waitB2())
	w.t.times.MSM = time.Since(msmStart)
	return errors.Join(errs...)
}

// hChain is h and then the Z MSM on an urgent queue of their own: started
// (h queued, startHChain), then finished (finishHChain).
type hChain struct {
	q     backend.Queue
	start time.Time
	err   error
}

// startHChain uploads a, b and c when left (startH), queues h on a new
// urgent queue and returns without waiting for it.
func (w *deviceWork) startHChain() *hChain {
	c := new(hChain)
	q, err := backend.NewUrgentQueue(w.key.queues(w.dev))
	if err != nil {
		c.err = w.fail("H", err)
		return c
	}
	c.q = q
	c.start, c.err = w.startH(q)
	return c
}

// finishHChain waits for c's h, runs the Z MSM on c's queue (adding it to
// msms, for a run alone after running out of memory) and closes the queue.
func (w *deviceWork) finishHChain(c *hChain, res *msmResults, msms *[]keyedMSM) error {
	err := c.err
	if c.q == nil {
		return err
	}
	if err == nil {
		err = w.waitH(c.q, c.start)
	}
	if err == nil {
		z := w.zMSM(res)
		*msms = append(*msms, z)
		s := time.Now()
		err = z.run(c.q)
		*z.took = time.Since(s)
		w.tl.add(z.name, s)
		if err != nil {
			err = w.fail(z.name, err)
		}
	}
	if cerr := c.q.Close(); err == nil && cerr != nil {
		err = w.fail("H", cerr)
	}
	return err
}
