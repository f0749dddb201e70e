package bls12381

import (
	"slices"
	"time"

	"github.com/g16prover/g16/backend"
)

// H, the quotient (docs/design.md §4): from the constraint evaluations a,
// b and c in bufA, bufB and bufC, natural order,
//
//	a, b, c ← iNTT (bit-reversed out), then NTT on the coset g·⟨ω⟩
//	a ← (a·b − c)/(gⁿ − 1)
//	h ← iNTT on the coset, left bit-reversed in bufA (the order of pk.G1.Z)

// startH queues h on hq (nil: w.q): a, b and c, when left to upload, go
// up on w.q one at a time, each vector's two NTTs queued on hq as soon as
// it is on the device, so that the next one uploads while they run; then
// the quotient step and the last NTT. It returns once all of it is
// queued, with the time the first NTT was queued.
func (w *deviceWork) startH(hq backend.Queue) (time.Time, error) {
	p, dev, bufs := w.t.p, w.dev, w.bufs
	if hq == nil {
		hq = w.q
	}
	if hq != w.q {
		// What q staged before must be on the device before hq reads it
		// (put waits for what it uploads).
		if err := w.q.Wait(); err != nil {
			return time.Time{}, w.fail("H", err)
		}
	}
	shift := backend.ValueBytes(&p.shift)
	var start time.Time
	for k, x := range evalBuffers {
		if err := w.put([]int{x}); err != nil {
			return start, err
		}
		if k == 0 {
			start = time.Now()
		}
		if err := dev.NTT(hq, bufs[x], backend.NTTSpec{Curve: proverCurve, LogN: p.logN, Inverse: true, Order: backend.DIF}); err != nil {
			return start, w.fail("NTT", err)
		}
		if err := dev.NTT(hq, bufs[x], backend.NTTSpec{Curve: proverCurve, LogN: p.logN, Order: backend.DIT, Coset: true, CosetShift: shift}); err != nil {
			return start, w.fail("NTT", err)
		}
	}
	if err := dev.QuotientStep(hq, proverCurve, bufs[bufA], bufs[bufB], bufs[bufC], p.n, backend.ValueBytes(&p.zInv)); err != nil {
		return start, w.fail("quotient step", err)
	}
	if err := dev.NTT(hq, bufs[bufA], backend.NTTSpec{Curve: proverCurve, LogN: p.logN, Inverse: true, Order: backend.DIF, Coset: true, CosetShift: shift}); err != nil {
		return start, w.fail("NTT", err)
	}
	return start, nil
}

// waitH waits for the h that startH queued on hq (nil: w.q) at start, and
// records its time.
func (w *deviceWork) waitH(hq backend.Queue, start time.Time) error {
	if hq == nil {
		hq = w.q
	}
	if err := hq.Wait(); err != nil {
		return w.fail("H", err)
	}
	w.t.times.H = time.Since(start)
	w.tl.add("H", start)
	return nil
}

// computeH uploads the buffers still to upload (the wire vectors first),
// computes h on hq (nil: w.q) and waits for it.
func (w *deviceWork) computeH(hq backend.Queue) error {
	var wires []int
	for _, i := range w.left {
		if !slices.Contains(evalBuffers, i) {
			wires = append(wires, i)
		}
	}
	if err := w.put(wires); err != nil {
		return err
	}
	start, err := w.startH(hq)
	if err != nil {
		return err
	}
	return w.waitH(hq, start)
}
