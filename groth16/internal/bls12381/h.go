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

// launchH queues h's seven NTTs and the quotient step on hq.
func (w *deviceWork) launchH(hq backend.Queue) error {
	p, dev, bufs := w.t.p, w.dev, w.bufs
	shift := backend.ValueBytes(&p.shift)
	for _, x := range evalBuffers {
		if err := dev.NTT(hq, bufs[x], backend.NTTSpec{Curve: proverCurve, LogN: p.logN, Inverse: true, Order: backend.DIF}); err != nil {
			return w.fail("NTT", err)
		}
		if err := dev.NTT(hq, bufs[x], backend.NTTSpec{Curve: proverCurve, LogN: p.logN, Order: backend.DIT, Coset: true, CosetShift: shift}); err != nil {
			return w.fail("NTT", err)
		}
	}
	if err := dev.QuotientStep(hq, proverCurve, bufs[bufA], bufs[bufB], bufs[bufC], p.n, backend.ValueBytes(&p.zInv)); err != nil {
		return w.fail("quotient step", err)
	}
	if err := dev.NTT(hq, bufs[bufA], backend.NTTSpec{Curve: proverCurve, LogN: p.logN, Inverse: true, Order: backend.DIF, Coset: true, CosetShift: shift}); err != nil {
		return w.fail("NTT", err)
	}
	return nil
}

// computeH uploads the buffers still to upload, then computes h on hq
// (nil: w.q) and waits for it.
func (w *deviceWork) computeH(hq backend.Queue) error {
	if len(w.left) > 0 {
		if err := w.put(slices.Clone(w.left)); err != nil {
			return err
		}
		// A proof given pending uploads is not retried elsewhere (a
		// batch's is, and passes none): the host's a, b and c, four
		// domain-sized vectors with the wires, are dropped once on the
		// device.
		w.sol.a, w.sol.b, w.sol.c = nil, nil, nil
	}
	if hq == nil {
		hq = w.q
	} else if err := w.q.Wait(); err != nil {
		// What q staged must be on the device before hq reads it.
		return w.fail("H", err)
	}
	start := time.Now()
	if err := w.launchH(hq); err != nil {
		return err
	}
	if err := hq.Wait(); err != nil {
		return w.fail("H", err)
	}
	w.t.times.H = time.Since(start)
	w.tl.add("H", start)
	return nil
}
