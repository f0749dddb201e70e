package cuda

import (
	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/curve"
)

// kernelCurve is the curve the kernels compute on: the field, curve, MSM
// and NTT templates are instantiated for BLS12-381 only so far.
const kernelCurve = ecc.BLS12_381

// The sizes of kernelCurve's values, in bytes (package curve's table).
var (
	scalarBytes   = curve.Must(kernelCurve).FrBytes
	g1AffineBytes = curve.Must(kernelCurve).G1AffineBytes
	g2AffineBytes = curve.Must(kernelCurve).G2AffineBytes
)
