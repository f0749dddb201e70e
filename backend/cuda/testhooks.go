//go:build cuda

package cuda

/*
#include "g16cuda.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
)

// Hooks for the tests: the kernels' arithmetic and the MSM pipeline run on
// the host (no GPU needed), and the field operations run on the device.

// MSM flags of g16cuda.h.
const (
	msmNoSplit  = C.G16_MSM_NO_SPLIT
	msmFanin8   = C.G16_MSM_FANIN8
	msmHostTail = C.G16_MSM_HOST_TAIL
)

// withMSMFlags sets g16_msm's flags to exactly flags (tests and tuning):
// the host tail of the options is off unless flags has it.
func withMSMFlags(flags int) Option {
	return func(c *config) error {
		c.msmFlags, c.msmHostTail = flags, false
		return nil
	}
}

// Field operations of g16_field_op.
const (
	opFpMul = iota
	opFpAdd
	opFpSub
	opFpNeg
	opFp2Mul
	opFp2Sqr
	opFrFromMont
	opFpSqr
	opFp2MulLazy
	opFpMulSub
	opFp2MulSubLazy
	opFpMulSub4      // a·b − c·d, c and d the second halves of a and b
	opFp2MulSubLazy4 // the same over Fp2, lazily reduced
	opWide           // a·b of two 12-limb integers, 24 limbs out: mont_t::mul_wide
	opSqrWide        // a², 24 limbs out: mont_t::sqr_wide
)

// fieldOp computes out[i] = op(a[i], b[i]) on the host (b == nil) or the
// device. out, a and bb are byte views of element slices of equal length n.
func fieldOp(b *Backend, op int, out, a, bb []byte, n int) error {
	return b.checkOp("fieldOp", out, a, bb, n, func(dev *C.g16_device, o, x, y unsafe.Pointer) C.g16_status {
		return C.g16_field_op(dev, C.int(op), o, x, y, C.int64_t(n))
	})
}

// Fields (g16cuda.h's G16_FIELD_*) and operations of g16_mont_op.
const (
	fieldBLS12381Fp = C.G16_FIELD_BLS12_381_FP
	fieldBLS12381Fr = C.G16_FIELD_BLS12_381_FR
	fieldBN254Fp    = C.G16_FIELD_BN254_FP
	fieldBN254Fr    = C.G16_FIELD_BN254_FR
	fieldBLS12381E2 = C.G16_FIELD_BLS12_381_FP2
	fieldBN254E2    = C.G16_FIELD_BN254_FP2
	fieldBLS12377Fp = C.G16_FIELD_BLS12_377_FP
	fieldBLS12377Fr = C.G16_FIELD_BLS12_377_FR
	fieldBLS12377E2 = C.G16_FIELD_BLS12_377_FP2
	fieldBW6761Fp   = C.G16_FIELD_BW6_761_FP
	fieldBW6761Fr   = C.G16_FIELD_BW6_761_FR

	montMul  = C.G16_MONT_MUL
	montAdd  = C.G16_MONT_ADD
	montSub  = C.G16_MONT_SUB
	montNeg  = C.G16_MONT_NEG
	montSqr  = C.G16_MONT_SQR
	montInv  = C.G16_MONT_INV
	montFrom = C.G16_MONT_FROM

	montMulLazy    = C.G16_MONT_MUL_LAZY
	montMulSubLazy = C.G16_MONT_MUL_SUB_LAZY
)

// montOp computes out[i] = op(a[i], b[i]) over one of each curve's fields
// (g16_mont_op) on the host (b == nil) or the device; out, a and bb as in
// fieldOp.
func montOp(b *Backend, field, op int, out, a, bb []byte, n int) error {
	return b.checkOp("montOp", out, a, bb, n, func(dev *C.g16_device, o, x, y unsafe.Pointer) C.g16_status {
		return C.g16_mont_op(dev, C.int(field), C.int(op), o, x, y, C.int64_t(n))
	})
}

// checkOp runs one of the arithmetic checks, run(dev, out, a, b), on the
// host (b == nil: dev nil, Go memory) or on the device (copies of a and bb
// uploaded, out downloaded).
func (b *Backend) checkOp(name string, out, a, bb []byte, n int, run func(dev *C.g16_device, o, x, y unsafe.Pointer) C.g16_status) error {
	if n == 0 {
		return nil
	}
	if b == nil {
		return errOf(run(nil, unsafe.Pointer(&out[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&bb[0])))
	}
	bufs := make([]backend.Buffer, 3)
	for i, s := range [][]byte{out, a, bb} {
		x, err := b.Alloc(nil, int64(len(s)))
		if err != nil {
			return err
		}
		defer b.Free(nil, x)
		bufs[i] = x
		if i > 0 {
			if err := b.Upload(nil, x, 0, s); err != nil {
				return err
			}
		}
	}
	if err := b.enter(name); err != nil {
		return err
	}
	p := func(i int) unsafe.Pointer { return bufs[i].(*buffer).ptr }
	err := b.status(run(b.dev, p(0), p(1), p(2)))
	b.leave()
	if err != nil {
		return err
	}
	return b.Download(nil, out, bufs[0], 0)
}

// hostMSMOn runs the MSM pipeline of group g on the host over bases and
// scalars (bytes of n affine points and n scalars) with the given window
// and task cap (0: automatic) and returns the result, a Jacobian point.
func hostMSMOn(g group, bases, scalars []byte, window, maxTask, flags int) ([]byte, error) {
	win, nw, pairs, w, err := hostMSMSumsOn(g, bases, scalars, window, maxTask, flags)
	if err != nil {
		return nil, err
	}
	return combine(g, win, nw, pairs, w), nil
}

// hostMSMSumsOn runs the pipeline as hostMSMOn does and returns the pass's
// sums, their number, pairs (g16cuda.h's g16_msm) and the window.
func hostMSMSumsOn(g group, bases, scalars []byte, window, maxTask, flags int) ([]byte, int, int, int, error) {
	n := int64(len(scalars)) / curve.Must(g.c).FrBytes
	if n == 0 || int64(len(bases)) < n*g.affineBytes() {
		return nil, 0, 0, 0, fmt.Errorf("hostMSM: %d bytes of bases for %d scalars of %s", len(bases), n, g)
	}
	win := sumsBuffer(g)
	var nw, pairs, w C.int
	err := errOf(C.g16_host_msm(C.int(g.code()), unsafe.Pointer(&bases[0]), unsafe.Pointer(&scalars[0]), C.int64_t(n),
		C.int(window), C.int(maxTask), C.int(flags), unsafe.Pointer(&win[0]), &nw, &pairs, &w))
	return win, int(nw), int(pairs), int(w), err
}

// combine is Σ_j 2^(shift·j)·W_j over nw window sums of g in win (pairs
// as hostCurve.AddSums reads them), a Jacobian point.
func combine(g group, win []byte, nw, pairs, shift int) []byte {
	h := hosts[g.c]
	out := make([]byte, g.jacBytes())
	h.SetInfinity(g.g2, out)
	h.AddSums(g.g2, out, win, nw, pairs, shift)
	return out
}

// hostMSMPeakOn runs the MSM pipeline of group g on the host over table
// (copies copies of stride points each; copies = 1, stride = the number
// of scalars: the bases) and returns the most bytes its buffers held at
// once, as the device's pool counts them (less CUB's temporaries).
func hostMSMPeakOn(g group, table []byte, stride, copies, window int, scalars []byte, maxTask, flags int) (int64, error) {
	n := int64(len(scalars)) / curve.Must(g.c).FrBytes
	if n == 0 || int64(len(table)) < int64(copies)*int64(stride)*g.affineBytes() {
		return 0, fmt.Errorf("hostMSMPeak: %d bytes of table for %d copies of %d points of %s", len(table), copies, stride, g)
	}
	var peak C.int64_t
	err := errOf(C.g16_host_msm_peak(C.int(g.code()), unsafe.Pointer(&table[0]), C.int64_t(stride), C.int(copies), C.int(window),
		unsafe.Pointer(&scalars[0]), C.int64_t(n), C.int(maxTask), C.int(flags), &peak))
	return int64(peak), err
}

// hostReduceOn runs the bucket reduction alone on the host
// (g16_host_reduce): windows sets of T XYZZ bucket sums of g to one sum a
// set, Σ_b (b+1)·S_b, or, with stop > 1, to the pairs left once
// windows·T ≤ stop (their number a set returned: hostCurve.AddSums reads
// them). cap is the resident threads the level planner assumes, fixed its
// cost of a level beside the additions.
func hostReduceOn(g group, buckets []byte, T, windows, cap int, fixed float64, stop int) ([]byte, int, error) {
	return hostReduceCode(g.code(), g.xyzzBytes(), buckets, T, windows, cap, fixed, stop)
}

// hostReduceCode is hostReduceOn for the group code code (any, to check
// the entry point's own checks) of XYZZ points of P bytes.
func hostReduceCode(code int, P int64, buckets []byte, T, windows, cap int, fixed float64, stop int) ([]byte, int, error) {
	if T < 1 || windows < 1 || int64(len(buckets)) != int64(T)*int64(windows)*P {
		return nil, 0, fmt.Errorf("hostReduce: %d bytes for %d sets of %d buckets of %d bytes", len(buckets), windows, T, P)
	}
	out := backend.AsBytes(make([]uint64, int64(max(windows, 2*stop))*P/8))
	var pairs C.int
	err := errOf(C.g16_host_reduce(C.int(code), unsafe.Pointer(&buckets[0]), C.int64_t(T),
		C.int64_t(windows), C.int64_t(cap), C.double(fixed), C.int64_t(stop), unsafe.Pointer(&out[0]), &pairs))
	return out, int(pairs), err
}

// reducePlan is the levels g16_host_reduce runs for the same arguments
// (g16_reduce_plan): each level's lg m, 1 for pairs, 2 to 4 for segments
// of 4 to 16.
func reducePlan(T, windows, cap int, fixed float64, stop int) ([]int, error) {
	var sh [C.G16_REDUCE_LEVELS + 1]C.int
	if err := errOf(C.g16_reduce_plan(C.int64_t(T), C.int64_t(windows), C.int64_t(cap), C.double(fixed), C.int64_t(stop), &sh[0])); err != nil {
		return nil, err
	}
	var shapes []int
	for _, v := range sh {
		if v == 0 {
			break
		}
		shapes = append(shapes, int(v))
	}
	return shapes, nil
}

// injectFault runs a kernel that faults on q's stream (nil: the internal
// one), which poisons the context: the call, and every later call on any
// Backend of the device, fails with backend.ErrDeviceLost.
func (b *Backend) injectFault(q backend.Queue) error {
	if err := b.enter("injectFault"); err != nil {
		return err
	}
	defer b.leave()
	s, err := b.streamOf("injectFault", q)
	if err != nil {
		return err
	}
	return b.status(C.g16_fault(b.dev, s))
}
