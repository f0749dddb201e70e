//go:build cuda

package cuda

/*
#include "g16cuda.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
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

// Fields and operations of g16_mont_op.
const (
	fieldBLS12381Fp = C.G16_FIELD_BLS12_381_FP
	fieldBLS12381Fr = C.G16_FIELD_BLS12_381_FR
	fieldBN254Fp    = C.G16_FIELD_BN254_FP
	fieldBN254Fr    = C.G16_FIELD_BN254_FR
	fieldBLS12381E2 = C.G16_FIELD_BLS12_381_FP2
	fieldBN254E2    = C.G16_FIELD_BN254_FP2

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

// hostMSMG1 runs the MSM pipeline on the host with the given window and
// task cap (0: automatic).
func hostMSMG1(points []bls12381.G1Affine, scalars []fr.Element, window, maxTask, flags int) (bls12381.G1Jac, error) {
	win, nw, pairs, w, err := hostMSM(1, unsafe.Pointer(&points[0]), scalars, window, maxTask, flags)
	if err != nil {
		return bls12381.G1Jac{}, err
	}
	return combineSums[bls12381.G1Jac](win, nw, pairs, w, &g1Infinity, 4, g1FromXYZZ), nil
}

// hostMSMG2 is hostMSMG1 over G2.
func hostMSMG2(points []bls12381.G2Affine, scalars []fr.Element, window, maxTask, flags int) (bls12381.G2Jac, error) {
	win, nw, pairs, w, err := hostMSM(2, unsafe.Pointer(&points[0]), scalars, window, maxTask, flags)
	if err != nil {
		return bls12381.G2Jac{}, err
	}
	return combineSums[bls12381.G2Jac](win, nw, pairs, w, &g2Infinity, 8, g2FromXYZZ), nil
}

// hostMSM returns the pass's sums, their number, pairs (g16cuda.h's
// g16_msm) and the window.
func hostMSM(curve int, points unsafe.Pointer, scalars []fr.Element, window, maxTask, flags int) ([]fp.Element, int, int, int, error) {
	if len(scalars) == 0 {
		return nil, 0, 0, 0, fmt.Errorf("hostMSM: empty")
	}
	win := make([]fp.Element, outPoints*8)
	var nw, pairs, w C.int
	err := errOf(C.g16_host_msm(C.int(curve), points, unsafe.Pointer(&scalars[0]), C.int64_t(len(scalars)),
		C.int(window), C.int(maxTask), C.int(flags), unsafe.Pointer(&win[0]), &nw, &pairs, &w))
	return win, int(nw), int(pairs), int(w), err
}

// hostMSMPeak runs the MSM pipeline on the host over table (copies copies
// of stride points each; copies = 1, stride = len(scalars): the bases) and
// returns the most bytes its buffers held at once, as the device's pool
// counts them (less CUB's temporaries).
func hostMSMPeak(curve int, table unsafe.Pointer, stride, copies, window int, scalars []fr.Element, maxTask, flags int) (int64, error) {
	if len(scalars) == 0 {
		return 0, fmt.Errorf("hostMSMPeak: empty")
	}
	var peak C.int64_t
	err := errOf(C.g16_host_msm_peak(C.int(curve), table, C.int64_t(stride), C.int(copies), C.int(window),
		unsafe.Pointer(&scalars[0]), C.int64_t(len(scalars)), C.int(maxTask), C.int(flags), &peak))
	return int64(peak), err
}

// hostReduce runs the bucket reduction alone on the host
// (g16_host_reduce): windows sets of T XYZZ bucket sums (limbs fp.Elements
// a point: 4 on G1, 8 on G2) to one sum a set, Σ_b (b+1)·S_b, or, with
// stop > 1, to the pairs left once windows·T ≤ stop (their number a set
// returned: windowSum reads them). wide is the level planner's thread
// count.
func hostReduce(curve int, buckets []fp.Element, T, windows, wide, stop int) ([]fp.Element, int, error) {
	limbs := 4 * curve
	if T < 1 || windows < 1 || len(buckets) != T*windows*limbs {
		return nil, 0, fmt.Errorf("hostReduce: %d limbs for %d sets of %d buckets", len(buckets), windows, T)
	}
	out := make([]fp.Element, max(windows, 2*stop)*limbs)
	var pairs C.int
	err := errOf(C.g16_host_reduce(C.int(curve), unsafe.Pointer(&buckets[0]), C.int64_t(T),
		C.int64_t(windows), C.int64_t(wide), C.int64_t(stop), unsafe.Pointer(&out[0]), &pairs))
	return out, int(pairs), err
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
