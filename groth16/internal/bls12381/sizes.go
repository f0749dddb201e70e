package bls12381

import (
	"github.com/consensys/gnark-crypto/ecc"

	g16curve "github.com/g16prover/g16/curve"
)

// The curve the prover computes on, and the sizes of the values it moves.
const proverCurve = ecc.BLS12_381

var (
	scalarBytes   = g16curve.Must(proverCurve).FrBytes
	g1AffineBytes = g16curve.Must(proverCurve).G1AffineBytes
	g2AffineBytes = g16curve.Must(proverCurve).G2AffineBytes
)
