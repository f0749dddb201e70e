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
	"github.com/consensys/gnark-crypto/ecc"
	"unsafe"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"

	"github.com/g16prover/g16/backend"
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
	p, err := b.resultOf("MSMG1", c, out, false)
	if err != nil {
		return err
	}
	return msmOn(b, q, "MSMG1", 1, g1AffineBytes, (*bls12381.G1Jac)(p), &g1Infinity, 4, g1FromXYZZ, bases, basesOff, scalars, n)
}

// MSMG2 is MSMG1 over G2.
func (b *Backend) MSMG2(q backend.Queue, c ecc.ID, out []byte, bases backend.Buffer, basesOff int64, scalars backend.Buffer, n int) error {
	p, err := b.resultOf("MSMG2", c, out, true)
	if err != nil {
		return err
	}
	return msmOn(b, q, "MSMG2", 2, g2AffineBytes, (*bls12381.G2Jac)(p), &g2Infinity, 8, g2FromXYZZ, bases, basesOff, scalars, n)
}

// jacobian is what msmOn needs of gnark's G1Jac and G2Jac.
type jacobian[T any] interface {
	*T
	Set(*T) *T
	DoubleAssign() *T
	AddAssign(*T) *T
}

// msmOn runs the MSM on curve (1: G1, 2: G2) and combines each pass's
// sums on the host: the pass returns nw XYZZ points of limbs fp.Elements
// each (X, Y, ZZ, ZZZ) and a shift, and Σ_j 2^(shift·j)·W_j is added to out.
func msmOn[J any, PJ jacobian[J]](b *Backend, q backend.Queue, op string, curve int, pointBytes int64, out PJ, inf *J, limbs int,
	fromXYZZ func([]fp.Element) J, bases backend.Buffer, basesOff int64, scalars backend.Buffer, n int) error {
	var sum J
	PJ(&sum).Set(inf)
	err := b.msm(q, op, curve, pointBytes, bases, basesOff, scalars, n, func(win []fp.Element, nw, pairs, shift int) {
		acc := combineSums[J, PJ](win, nw, pairs, shift, inf, limbs, fromXYZZ)
		PJ(&sum).AddAssign(&acc)
	})
	if err != nil {
		return err
	}
	out.Set(&sum)
	return nil
}

// combineSums is Σ_j 2^(shift·j)·W_j over the nw window sums W_j in win
// (XYZZ points of limbs fp.Elements each; pairs as windowSum reads them),
// by Horner's rule from the top sum.
func combineSums[J any, PJ jacobian[J]](win []fp.Element, nw, pairs, shift int, inf *J, limbs int, fromXYZZ func([]fp.Element) J) J {
	var acc J
	PJ(&acc).Set(inf)
	for j := nw - 1; j >= 0; j-- {
		for k := 0; k < shift && j < nw-1; k++ {
			PJ(&acc).DoubleAssign()
		}
		p := windowSum[J, PJ](win, j, nw, pairs, inf, limbs, fromXYZZ)
		PJ(&acc).AddAssign(&p)
	}
	return acc
}

// windowSum is window j's sum W_j of the nw in win: win's point j when
// pairs is 1; else the reduction's last pairs, A_s at point j·pairs + s
// and R_s at nw·pairs + j·pairs + s, standing for Σ_s A_s + Σ_s s·R_s
// (G16_MSM_HOST_TAIL), summed here with a running sum from the top.
func windowSum[J any, PJ jacobian[J]](win []fp.Element, j, nw, pairs int, inf *J, limbs int, fromXYZZ func([]fp.Element) J) J {
	if pairs <= 1 {
		return fromXYZZ(win[limbs*j:])
	}
	a := win[limbs*j*pairs:]
	r := win[limbs*(nw+j)*pairs:]
	var acc, running J
	PJ(&acc).Set(inf)
	PJ(&running).Set(inf)
	for s := pairs - 1; s >= 1; s-- { // acc = Σ_s s·R_s once the loop ends
		p := fromXYZZ(r[limbs*s:])
		PJ(&running).AddAssign(&p)
		PJ(&acc).AddAssign(&running)
	}
	for s := 0; s < pairs; s++ {
		p := fromXYZZ(a[limbs*s:])
		PJ(&acc).AddAssign(&p)
	}
	return acc
}

var (
	g1Infinity = bls12381.G1Jac{X: fp.One(), Y: fp.One()}
	g2Infinity = func() bls12381.G2Jac {
		var p bls12381.G2Jac
		p.X.SetOne()
		p.Y.SetOne()
		return p
	}()
)

// Scratch is the device memory one MSM pass takes (msmScratch, for a pass
// of at most the chunk's points; the larger msmTableScratch of a live table
// of precomputed multiples, table.go); the NTT and the quotient step run in
// place and take none.
func (b *Backend) Scratch(k backend.Kernel, c ecc.ID, n int) int64 {
	if c != kernelCurve {
		return 0
	}
	switch k {
	case backend.KernelMSMG1:
		return max(msmScratch(1, n, b.cfg.msmChunk, b.cfg.msmWindow, b.cfg.msmMaxTask), b.tableScratch(1, n))
	case backend.KernelMSMG2:
		return max(msmScratch(2, n, b.cfg.msmChunk, b.cfg.msmWindow, b.cfg.msmMaxTask), b.tableScratch(2, n))
	}
	return 0
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
func (b *Backend) msm(q backend.Queue, op string, curve int, pointBytes int64, bases backend.Buffer, basesOff int64, scalars backend.Buffer, n int, combine func(win []fp.Element, nw, pairs, w int)) error {
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
	tb := bx.tables.find(basesOff, n, pointBytes, b.cfg.msmWindow)
	// Room for outPoints XYZZ points of G2 (4 Fp2 = 8 Fp each).
	win := make([]fp.Element, outPoints*8)
	var total MSMTiming
	chunk := b.cfg.msmChunk
	for off := 0; off < n; {
		c := min(chunk, n-off)
		var nw, pairs, w, shift C.int
		var tm C.g16_msm_timing
		var st C.g16_status
		if tb != nil {
			w = C.int(tb.w)
			st = C.g16_msm_table(b.dev, s, C.int(curve),
				unsafe.Add(tb.ptr, basesOff-tb.off+int64(off)*pointBytes), C.int64_t(tb.n), C.int(tb.copies), w,
				unsafe.Add(sx.ptr, int64(off)*scalarBytes),
				C.int64_t(c), C.int(b.cfg.msmMaxTask), b.msmFlags(),
				unsafe.Pointer(&win[0]), &nw, &pairs, &shift, &tm)
		} else {
			st = C.g16_msm(b.dev, s, C.int(curve),
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

// g1FromXYZZ converts (X, Y, ZZ, ZZZ), x = X/ZZ and y = Y/ZZZ, to Jacobian
// coordinates: Z = ZZ·ZZZ, X' = X·ZZ·ZZZ², Y' = Y·ZZ³·ZZZ² (then X'/Z² = X/ZZ
// and Y'/Z³ = Y/ZZZ). ZZ = 0 is the point at infinity.
func g1FromXYZZ(c []fp.Element) bls12381.G1Jac {
	x, y, zz, zzz := &c[0], &c[1], &c[2], &c[3]
	if zz.IsZero() {
		return g1Infinity
	}
	var p bls12381.G1Jac
	var zzz2, zz3 fp.Element
	zzz2.Square(zzz)
	zz3.Square(zz).Mul(&zz3, zz)
	p.Z.Mul(zz, zzz)
	p.X.Mul(x, zz).Mul(&p.X, &zzz2)
	p.Y.Mul(y, &zz3).Mul(&p.Y, &zzz2)
	return p
}

// g2FromXYZZ is g1FromXYZZ over Fp2; c holds X.A0, X.A1, Y.A0, … ZZZ.A1.
func g2FromXYZZ(c []fp.Element) bls12381.G2Jac {
	e := func(i int) *bls12381.E2 { return &bls12381.E2{A0: c[2*i], A1: c[2*i+1]} }
	x, y, zz, zzz := e(0), e(1), e(2), e(3)
	if zz.IsZero() {
		return g2Infinity
	}
	var p bls12381.G2Jac
	var zzz2, zz3 bls12381.E2
	zzz2.Square(zzz)
	zz3.Square(zz).Mul(&zz3, zz)
	p.Z.Mul(zz, zzz)
	p.X.Mul(x, zz).Mul(&p.X, &zzz2)
	p.Y.Mul(y, &zz3).Mul(&p.Y, &zzz2)
	return p
}
