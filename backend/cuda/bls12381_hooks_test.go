//go:build cuda

package cuda

import (
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
)

// The host hooks (testhooks.go, tablehooks.go, ntt.go) over BLS12-381's
// gnark-crypto types, for this package's BLS12-381 tests; every curve's
// kernels are tested through the hooks' bytes in internal/bls12381 and its
// generated copies.

var (
	blsG1 = group{ecc.BLS12_381, false}
	blsG2 = group{ecc.BLS12_381, true}
)

// blsGroup is G1 (1) or G2 (2) of BLS12-381.
func blsGroup(curve int) group {
	if curve == 2 {
		return blsG2
	}
	return blsG1
}

// hostMSMG1 runs the MSM pipeline on the host with the given window and
// task cap (0: automatic).
func hostMSMG1(points []bls12381.G1Affine, scalars []fr.Element, window, maxTask, flags int) (bls12381.G1Jac, error) {
	r, err := hostMSMOn(blsG1, backend.AsBytes(points), backend.AsBytes(scalars), window, maxTask, flags)
	if err != nil {
		return bls12381.G1Jac{}, err
	}
	return *(*bls12381.G1Jac)(unsafe.Pointer(&r[0])), nil
}

// hostMSMG2 is hostMSMG1 over G2.
func hostMSMG2(points []bls12381.G2Affine, scalars []fr.Element, window, maxTask, flags int) (bls12381.G2Jac, error) {
	r, err := hostMSMOn(blsG2, backend.AsBytes(points), backend.AsBytes(scalars), window, maxTask, flags)
	if err != nil {
		return bls12381.G2Jac{}, err
	}
	return *(*bls12381.G2Jac)(unsafe.Pointer(&r[0])), nil
}

// hostMSMPeak is hostMSMPeakOn on G1 (curve 1) or G2 (2) of BLS12-381,
// over the copies·stride points at table.
func hostMSMPeak(curve int, table unsafe.Pointer, stride, copies, window int, scalars []fr.Element, maxTask, flags int) (int64, error) {
	g := blsGroup(curve)
	t := unsafe.Slice((*byte)(table), int64(stride)*int64(copies)*g.affineBytes())
	return hostMSMPeakOn(g, t, stride, copies, window, backend.AsBytes(scalars), maxTask, flags)
}

// hostReduce is hostReduceOn on G1 (curve 1) or G2 (2) of BLS12-381, the
// XYZZ points as fp.Elements (4 a point on G1, 8 on G2); any other code
// goes to the entry point as it is, with points of G2's size.
func hostReduce(curve int, buckets []fp.Element, T, windows, cap int, fixed float64, stop int) ([]fp.Element, int, error) {
	var out []byte
	var pairs int
	var err error
	if curve == 1 || curve == 2 {
		out, pairs, err = hostReduceOn(blsGroup(curve), backend.AsBytes(buckets), T, windows, cap, fixed, stop)
	} else {
		out, pairs, err = hostReduceCode(curve, blsG2.xyzzBytes(), backend.AsBytes(buckets), T, windows, cap, fixed, stop)
	}
	return fpElements(out), pairs, err
}

// windowSumG1 is window j's sum of the windows sums in win (pairs as
// hostCurve.AddSums reads them), alone.
func windowSumG1(win []fp.Element, j, windows, pairs int) bls12381.G1Jac {
	r := combine(blsG1, backend.AsBytes(oneWindow(win, j, windows, pairs, 4)), 1, pairs, 0)
	return *(*bls12381.G1Jac)(unsafe.Pointer(&r[0]))
}

// windowSumG2 is windowSumG1 over G2.
func windowSumG2(win []fp.Element, j, windows, pairs int) bls12381.G2Jac {
	r := combine(blsG2, backend.AsBytes(oneWindow(win, j, windows, pairs, 8)), 1, pairs, 0)
	return *(*bls12381.G2Jac)(unsafe.Pointer(&r[0]))
}

// oneWindow is window j's points of the windows in win (limbs fp.Elements
// a point), laid out as the sums of one window: its sum, or its pairs' A
// then R halves.
func oneWindow(win []fp.Element, j, windows, pairs, limbs int) []fp.Element {
	if pairs <= 1 {
		return append([]fp.Element(nil), win[limbs*j:limbs*(j+1)]...)
	}
	out := append([]fp.Element(nil), win[limbs*j*pairs:limbs*(j+1)*pairs]...)
	return append(out, win[limbs*(windows+j)*pairs:limbs*(windows+j+1)*pairs]...)
}

// hostTable is hostTableOn over BLS12-381's G1 or G2 affine points.
func hostTable[T bls12381.G1Affine | bls12381.G2Affine](points []T, copies, w int) ([]T, error) {
	g := blsG1
	if _, ok := any(points[0]).(bls12381.G2Affine); ok {
		g = blsG2
	}
	t, err := hostTableOn(g, backend.AsBytes(points), copies, w)
	if err != nil {
		return nil, err
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&t[0])), len(t)/int(g.affineBytes())), nil
}

// hostTableMSM is hostTableMSMOn over a table of BLS12-381's points.
func hostTableMSM[T bls12381.G1Affine | bls12381.G2Affine](table []T, copies, w int, scalars []fr.Element, maxTask, flags int) ([]fp.Element, int, int, int, error) {
	g := blsG1
	if _, ok := any(table[0]).(bls12381.G2Affine); ok {
		g = blsG2
	}
	win, nsums, pairs, shift, err := hostTableMSMOn(g, backend.AsBytes(table), copies, w, backend.AsBytes(scalars), maxTask, flags)
	return fpElements(win), nsums, pairs, shift, err
}

// combineG1 is Σ_j 2^(shift·j)·W_j over nw G1 sums (pairs as
// hostCurve.AddSums reads them).
func combineG1(win []fp.Element, nw, pairs, shift int) bls12381.G1Jac {
	r := combine(blsG1, backend.AsBytes(win), nw, pairs, shift)
	return *(*bls12381.G1Jac)(unsafe.Pointer(&r[0]))
}

// combineG2 is combineG1 over G2.
func combineG2(win []fp.Element, nw, pairs, shift int) bls12381.G2Jac {
	r := combine(blsG2, backend.AsBytes(win), nw, pairs, shift)
	return *(*bls12381.G2Jac)(unsafe.Pointer(&r[0]))
}

// hostNTT is hostNTTOn over BLS12-381's scalars (spec.Curve is set).
func hostNTT(data []fr.Element, spec backend.NTTSpec, tune nttTune) error {
	spec.Curve = ecc.BLS12_381
	return hostNTTOn(backend.AsBytes(data), spec, tune)
}

// hostQuotient is hostQuotientOn over BLS12-381's scalars.
func hostQuotient(a, b, c []fr.Element, zInv fr.Element) error {
	return hostQuotientOn(ecc.BLS12_381, backend.AsBytes(a), backend.AsBytes(b), backend.AsBytes(c), backend.ValueBytes(&zInv))
}

// fpElements views b as fp.Elements.
func fpElements(b []byte) []fp.Element {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*fp.Element)(unsafe.Pointer(&b[0])), len(b)/fp.Bytes)
}

// square returns x^(2^k).
func square(x fr.Element, k int) fr.Element {
	for ; k > 0; k-- {
		x.Square(&x)
	}
	return x
}
