//go:build cuda

package cuda

/*
#include "g16cuda.h"
#include "msm_table.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
)

// outPoints is the XYZZ points an MSM pass may write (g16cuda.h: its
// window sums, at most 64, or the pairs of a host tail).
const outPoints = C.G16_MSM_OUT_POINTS

// LastMSMTiming returns the stage timings of the most recent MSM.
func (b *Backend) LastMSMTiming() MSMTiming {
	b.timingMu.Lock()
	defer b.timingMu.Unlock()
	return b.lastTiming
}

// MSMG1 computes Σ scalars[i]·bases[i] for i < n on the GPU.
func (b *Backend) MSMG1(q backend.Queue, c ecc.ID, out []byte, bases backend.Buffer, basesOff int64, scalars backend.Buffer, n int) error {
	return b.msmOn(q, "MSMG1", c, backend.KernelMSMG1, out, bases, basesOff, scalars, n)
}

// MSMG2 is MSMG1 over G2.
func (b *Backend) MSMG2(q backend.Queue, c ecc.ID, out []byte, bases backend.Buffer, basesOff int64, scalars backend.Buffer, n int) error {
	return b.msmOn(q, "MSMG2", c, backend.KernelMSMG2, out, bases, basesOff, scalars, n)
}

// msmOn runs the MSM of k on curve c and adds each pass's window sums into
// the result on the host (the curve's hostCurve.AddSums); out gets the
// result once every pass is done.
func (b *Backend) msmOn(q backend.Queue, op string, c ecc.ID, k backend.Kernel, out []byte, bases backend.Buffer, basesOff int64, scalars backend.Buffer, n int) error {
	g, err := b.resultOf(op, c, k, out)
	if err != nil {
		return err
	}
	h := hosts[c]
	sum := make([]byte, len(out))
	h.SetInfinity(g.g2, sum)
	err = b.msm(q, op, g, bases, basesOff, scalars, n, func(win []byte, nw, pairs, shift int) {
		h.AddSums(g.g2, sum, win, nw, pairs, shift)
	})
	if err != nil {
		return err
	}
	copy(out, sum)
	return nil
}

// sumsBuffer is room for the XYZZ points an MSM pass of g may write,
// aligned for the curve's field elements.
func sumsBuffer(g group) []byte {
	words := make([]uint64, outPoints*g.xyzzBytes()/8)
	return backend.AsBytes(words)
}

// Scratch is the device memory one MSM pass takes (msmScratch, for a pass
// of at most the chunk's points; the larger msmTableScratch of a live table
// of precomputed multiples, table.go); the NTT and the quotient step run in
// place and take none.
func (b *Backend) Scratch(k backend.Kernel, c ecc.ID, n int) int64 {
	g, ok := groupOf(c, k)
	if !ok {
		return 0
	}
	return max(msmScratch(g, n, b.cfg.msmChunk, b.cfg.msmWindow, b.cfg.msmMaxTask), b.tableScratch(g, n))
}

// minMSMPass is the shortest pass an MSM retries with when its scratch
// does not fit.
const minMSMPass = 1 << 16

// basesOn checks the n points of pointBytes at byte offset off (op's
// argument offArg) of bases, aligned to backend.BaseAlign, and returns q's
// stream and the buffer. The caller holds b.enter.
func (b *Backend) basesOn(op string, q backend.Queue, bases backend.Buffer, offArg string, off int64, n int, pointBytes int64) (unsafe.Pointer, *buffer, error) {
	s, err := b.streamOf(op, q)
	if err != nil {
		return nil, nil, err
	}
	bx, err := b.bufferOf(op, "bases", bases)
	if err != nil {
		return nil, nil, err
	}
	if err := b.span(op, bx, "bases", offArg, off, "n", int64(n), pointBytes); err != nil {
		return nil, nil, err
	}
	if off%backend.BaseAlign != 0 {
		return nil, nil, fmt.Errorf("%v: %s: %s: offset %d is not a multiple of %d", b, op, offArg, off, backend.BaseAlign)
	}
	return s, bx, nil
}

// msm runs the MSM in passes of at most cfg.msmChunk points, handing each
// pass's window sums and their shift to combine. It reads a live table of
// precomputed multiples of the bases range (table.go) when there is one
// of the configured window (or any, with the window automatic). A pass that runs out of memory is halved
// and run again (its scratch is back in the pool), down to minMSMPass
// points: the window sums of shorter passes add up to the same result.
func (b *Backend) msm(q backend.Queue, op string, g group, bases backend.Buffer, basesOff int64, scalars backend.Buffer, n int, combine func(win []byte, nw, pairs, w int)) error {
	pointBytes, scalarBytes := g.affineBytes(), curve.Must(g.c).FrBytes
	if err := checkMSMWindow(b.cfg.msmWindow, g.c); err != nil {
		return fmt.Errorf("%v: %s: %w", b, op, err)
	}
	if err := b.enter(op); err != nil {
		return err
	}
	defer b.leave()
	s, bx, err := b.basesOn(op, q, bases, "basesOff", basesOff, n, pointBytes)
	if err != nil {
		return err
	}
	sx, err := b.bufferOf(op, "scalars", scalars)
	if err != nil {
		return err
	}
	if err := b.span(op, sx, "scalars", "", 0, "n", int64(n), scalarBytes); err != nil {
		return err
	}
	tb := bx.tables.find(g, basesOff, n, b.cfg.msmWindow)
	win := sumsBuffer(g)
	var total MSMTiming
	chunk := b.cfg.msmChunk
	for off := 0; off < n; {
		c := min(chunk, n-off)
		var nw, pairs, w, shift C.int
		var tm C.g16_msm_timing
		var st C.g16_status
		if tb != nil {
			w = C.int(tb.w)
			st = C.g16_msm_table(b.dev, s, C.int(g.code()),
				unsafe.Add(tb.ptr, basesOff-tb.off+int64(off)*pointBytes), C.int64_t(tb.n), C.int(tb.copies), w,
				unsafe.Add(sx.ptr, int64(off)*scalarBytes),
				C.int64_t(c), C.int(b.cfg.msmMaxTask), b.msmFlags(),
				unsafe.Pointer(&win[0]), &nw, &pairs, &shift, &tm)
		} else {
			st = C.g16_msm(b.dev, s, C.int(g.code()),
				unsafe.Add(bx.ptr, basesOff+int64(off)*pointBytes),
				unsafe.Add(sx.ptr, int64(off)*scalarBytes),
				C.int64_t(c), C.int(b.cfg.msmWindow), C.int(b.cfg.msmMaxTask), b.msmFlags(),
				unsafe.Pointer(&win[0]), &nw, &pairs, &w, &tm)
			shift = w
		}
		if err := b.status(st); err != nil {
			if errors.Is(err, backend.ErrOutOfMemory) && c > minMSMPass {
				chunk = max(minMSMPass, c/2)
				continue
			}
			return err
		}
		off += c
		combine(win, int(nw), int(pairs), int(shift))
		total.Split += float64(tm.split)
		total.Digits += float64(tm.digits)
		total.Sort += float64(tm.sort)
		total.Plan += float64(tm.plan)
		total.Accumulate += float64(tm.accumulate)
		total.Reduce += float64(tm.reduce)
		total.Total += float64(tm.total)
		total.Ones += int64(tm.ones)
		total.Rest += int64(tm.rest)
		total.Window = int(w)
		total.Copies = 1
		if tb != nil {
			total.Copies = tb.copies
		}
		total.Passes++
	}
	b.timingMu.Lock()
	b.lastTiming = total
	b.timingMu.Unlock()
	return nil
}

// msmFlags is g16_msm's flags argument: the configured G16_MSM_* flags,
// with G16_MSM_HOST_TAIL under WithMSMHostTail.
func (b *Backend) msmFlags() C.int {
	f := C.int(b.cfg.msmFlags)
	if b.cfg.msmHostTail {
		f |= C.G16_MSM_HOST_TAIL
	}
	return f
}
