package cuda

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
)

// kernelCurves are the curves the kernels compute on, each with its code in
// g16cuda.h (G16_CURVE_*; curves.go checks them against the header) and
// the bits its scalars' MSM windows cover (its header's fr_params::BITS:
// 255 on the curves of 8-limb scalars).
var kernelCurves = []struct {
	id   ecc.ID
	code int
	bits int
}{
	{ecc.BLS12_381, 1, 255},
	{ecc.BN254, 2, 255},
	{ecc.BLS12_377, 3, 255},
	{ecc.BW6_761, 4, 377},
}

// curveCode is c's G16_CURVE_* code, 0 for a curve the kernels lack.
func curveCode(c ecc.ID) int {
	for _, k := range kernelCurves {
		if k.id == c {
			return k.code
		}
	}
	return 0
}

// windowBits is the bits the MSM's windows cover on c (kernelCurves), 0
// for a curve the kernels lack.
func windowBits(c ecc.ID) int {
	for _, k := range kernelCurves {
		if k.id == c {
			return k.bits
		}
	}
	return 0
}

// group is one of a kernel curve's groups, G1 or G2, that the MSM kernels
// compute in.
type group struct {
	c  ecc.ID
	g2 bool
}

// groupOf is the group of the MSM kernel k on curve c; false when k is not
// an MSM or the kernels lack c.
func groupOf(c ecc.ID, k backend.Kernel) (group, bool) {
	if curveCode(c) == 0 || (k != backend.KernelMSMG1 && k != backend.KernelMSMG2) {
		return group{}, false
	}
	return group{c, k == backend.KernelMSMG2}, true
}

// code is the group's code in the kernels' MSM calls,
// G16_GROUP(curve, g) = 2·(curve − 1) + g: BLS12-381 G1 1, G2 2; BN254
// G1 3, G2 4; BLS12-377 G1 5, G2 6; BW6-761 G1 7, G2 8.
func (g group) code() int {
	n := 1
	if g.g2 {
		n = 2
	}
	return 2*(curveCode(g.c)-1) + n
}

func (g group) kernel() backend.Kernel {
	if g.g2 {
		return backend.KernelMSMG2
	}
	return backend.KernelMSMG1
}

// affineBytes is an affine point's size, the MSM's bases.
func (g group) affineBytes() int64 {
	if g.g2 {
		return curve.Must(g.c).G2AffineBytes
	}
	return curve.Must(g.c).G1AffineBytes
}

// jacBytes is a Jacobian point's size, the MSM's result.
func (g group) jacBytes() int64 {
	if g.g2 {
		return curve.Must(g.c).G2JacBytes
	}
	return curve.Must(g.c).G1JacBytes
}

// xyzzBytes is an XYZZ point's size, the kernels' buckets and sums: four
// coordinates (of Fp, or of Fp2 in G2 on the curves with Fp2), twice an
// affine point.
func (g group) xyzzBytes() int64 { return 2 * g.affineBytes() }

// windowBits is the bits the group's MSM windows cover (windowBits).
func (g group) windowBits() int { return windowBits(g.c) }

// String names the group, "bn254 G2".
func (g group) String() string {
	if g.g2 {
		return fmt.Sprintf("%s G2", curve.Name(g.c))
	}
	return fmt.Sprintf("%s G1", curve.Name(g.c))
}

// kernelCurveNames names the curves the kernels compute on, "bls12-381,
// bn254, bls12-377 and bw6-761".
func kernelCurveNames() string {
	s := ""
	for i, k := range kernelCurves {
		switch {
		case i == 0:
		case i == len(kernelCurves)-1:
			s += " and "
		default:
			s += ", "
		}
		s += curve.Name(k.id)
	}
	return s
}
