package bls12381

import (
	curve "github.com/consensys/gnark-crypto/ecc/bls12-381"
)

// g2Element is the field G2's coordinates are in: Fp2 (E2) on BLS12-381.
// internal/generator writes each curve's own field here (fp.Element on a
// curve whose G2 is over Fp, as BW6-761's), so the code over G2 is written
// once for both shapes: Fp and Fp2 elements have the same methods.
type g2Element = curve.E2
