//go:build cuda

package cuda

/*
#include "f64.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"

	"github.com/g16prover/g16/backend"
)

// Hooks for the tests of the FP64-pipe Fp product (kernels/field_f64.cuh):
// its results against gnark-crypto, and its throughput beside fp_t's.

// MSM flags of f64.h: G1's first accumulation level on the hybrid addition
// (kernels/curve_f64.cuh).
const (
	msmG1F64    = C.G16_MSM_G1_F64
	msmG1F64Q   = C.G16_MSM_G1_F64_Q
	msmG1F64LB3 = C.G16_MSM_G1_F64_LB3
)

// Operations of g16_f64_op.
const (
	opF64Mul       = iota // a·b through fp64_t
	opF64RoundTrip        // a to fp64_t and back
	opF64Chain            // a·b⁸ as eight fp64_t products, reduced only at the end
)

// f64Op computes out[i] = op(a[i], b[i]) on the host (b == nil) or the
// device.
func f64Op(b *Backend, op int, a, bb []fp.Element) ([]fp.Element, error) {
	n := len(a)
	if len(bb) != n {
		return nil, fmt.Errorf("f64Op: %d and %d elements", n, len(bb))
	}
	out := make([]fp.Element, n)
	if n == 0 {
		return out, nil
	}
	if b == nil {
		return out, errOf(C.g16_f64_op(nil, C.int(op), unsafe.Pointer(&out[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&bb[0]), C.int64_t(n)))
	}
	bufs, free, err := b.deviceCopies(backend.AsBytes(out), backend.AsBytes(a), backend.AsBytes(bb))
	if err != nil {
		return nil, err
	}
	defer free()
	if err := b.enter("f64Op"); err != nil {
		return nil, err
	}
	err = b.status(C.g16_f64_op(b.dev, C.int(op), bufs[0].(*buffer).ptr, bufs[1].(*buffer).ptr, bufs[2].(*buffer).ptr, C.int64_t(n)))
	b.leave()
	if err != nil {
		return nil, err
	}
	return out, b.Download(nil, backend.AsBytes(out), bufs[0], 0)
}

// mulRate is one g16_mul_rate measurement.
type mulRate struct {
	ni, nf   int // fp_t and fp64_t chains a thread
	iters    int // products a chain
	ms       float64
	threads  int64 // one full wave
	regs     int   // registers a thread
	mismatch int64 // threads whose first fp_t and fp64_t chains differ
}

// products is the Fp products the run computed.
func (r mulRate) products() float64 {
	return float64(r.threads) * float64(r.iters) * float64(r.ni+r.nf)
}

// mulRateOn runs g16_mul_rate over x and y (n elements each).
func mulRateOn(b *Backend, ni, nf, iters int, x, y []fp.Element) (mulRate, error) {
	r := mulRate{ni: ni, nf: nf, iters: iters}
	if len(x) != len(y) || len(x) == 0 {
		return r, fmt.Errorf("mulRateOn: %d and %d elements", len(x), len(y))
	}
	bufs, free, err := b.deviceCopies(backend.AsBytes(x), backend.AsBytes(y))
	if err != nil {
		return r, err
	}
	defer free()
	if err := b.enter("mulRate"); err != nil {
		return r, err
	}
	var ms C.double
	var threads, mismatch C.int64_t
	var regs C.int
	err = b.status(C.g16_mul_rate(b.dev, C.int(ni), C.int(nf), C.int(iters), bufs[0].(*buffer).ptr, bufs[1].(*buffer).ptr, C.int64_t(len(x)), &ms, &threads, &regs, &mismatch))
	b.leave()
	r.ms, r.threads, r.regs, r.mismatch = float64(ms), int64(threads), int(regs), int64(mismatch)
	return r, err
}

// deviceCopies allocates a device buffer for each of srcs and uploads its
// bytes (the first may be an output: it is uploaded too, harmlessly);
// free releases them.
func (b *Backend) deviceCopies(srcs ...[]byte) ([]backend.Buffer, func(), error) {
	bufs := make([]backend.Buffer, 0, len(srcs))
	free := func() {
		for _, x := range bufs {
			_ = b.Free(nil, x)
		}
	}
	for _, s := range srcs {
		x, err := b.Alloc(nil, int64(len(s)))
		if err != nil {
			free()
			return nil, nil, err
		}
		bufs = append(bufs, x)
		if err := b.Upload(nil, x, 0, s); err != nil {
			free()
			return nil, nil, err
		}
	}
	return bufs, free, nil
}
