// Package bls12381 is what package gnarkio's readers know of BLS12-381's
// types: the sizes of its compressed points, the coefficient table of its
// constraint systems, and the on-curve check of its proving keys' bases.
// Package gnarkio checks a file's encoding and dispatches on the curve the
// file names; gnark decodes it. Every curve's package of this kind is
// written by internal/generator from one reference package.
package bls12381

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc"
	curve "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	groth16curve "github.com/consensys/gnark/backend/groth16/bls12-381"
	"github.com/consensys/gnark/constraint"
	cs "github.com/consensys/gnark/constraint/bls12-381"
)

// ID is the curve of this package.
const ID = ecc.BLS12_381

// Sizes in bytes of compressed points in gnark-crypto's encoding; a raw
// point takes twice as many.
const (
	G1Compressed = curve.SizeOfG1AffineCompressed
	G2Compressed = curve.SizeOfG2AffineCompressed
)

// PointFlags says how gnark-crypto marks a point's encoding in its first
// byte: the bits of mask (those above Fp's modulus in the top byte) hold a
// flag, and each flag gnark-crypto writes starts a compressed point
// (compressed[flag]) or a raw one (twice the size). The flags are read
// from gnark-crypto's own encodings of the generator, its negation (the
// two signs of y) and the point at infinity.
func PointFlags() (mask byte, compressed map[byte]bool) {
	spare := 8*fp.Bytes - fp.Bits
	mask = byte(0xff << (8 - spare))
	_, _, g1, _ := curve.Generators()
	var neg, inf curve.G1Affine
	neg.Neg(&g1)
	compressed = map[byte]bool{}
	for _, p := range []*curve.G1Affine{&g1, &neg, &inf} {
		c, r := p.Bytes(), p.RawBytes()
		compressed[c[0]&mask] = true
		compressed[r[0]&mask] = false
	}
	return mask, compressed
}

// System returns what package gnarkio's CheckR1CS reads of ccs: the
// curve-neutral system and the length of its coefficient table. ok is
// false when ccs is not a BLS12-381 system of gnark's.
func System(ccs constraint.ConstraintSystem) (sys *constraint.System, nbCoeffs int, ok bool) {
	r, ok := ccs.(*cs.R1CS)
	if !ok || r == nil {
		return nil, 0, false
	}
	return &r.System, len(r.Coefficients), true
}

// CheckKeyPoints returns an error naming the first base of pk that is not
// on the curve (a raw key is decoded without any check), or nil. Each
// slice is searched with firstFailing, which returns the lowest index in
// [0, n) whose check fails, or −1.
func CheckKeyPoints(pk gnarkgroth16.ProvingKey, firstFailing func(n int, ok func(int) bool) int) error {
	key, ok := pk.(*groth16curve.ProvingKey)
	if !ok || key == nil {
		return fmt.Errorf("a %T is not a BLS12-381 Groth16 proving key", pk)
	}
	g1 := []struct {
		name string
		pts  []curve.G1Affine
	}{
		{"A", key.G1.A}, {"B", key.G1.B}, {"K", key.G1.K}, {"Z", key.G1.Z},
		{"α, β, δ", []curve.G1Affine{key.G1.Alpha, key.G1.Beta, key.G1.Delta}},
	}
	for _, s := range g1 {
		if i := firstFailing(len(s.pts), func(i int) bool { return s.pts[i].IsOnCurve() }); i >= 0 {
			return fmt.Errorf("G1 %s point %d is not on BLS12-381", s.name, i)
		}
	}
	g2 := append([]curve.G2Affine{key.G2.Beta, key.G2.Delta}, key.G2.B...)
	if i := firstFailing(len(g2), func(i int) bool { return g2[i].IsOnCurve() }); i >= 0 {
		return fmt.Errorf("G2 point %d (β, δ, then B) is not on BLS12-381", i)
	}
	for i, ck := range key.CommitmentKeys {
		for _, s := range []struct {
			name string
			pts  []curve.G1Affine
		}{{"basis", ck.Basis}, {"basis·σ", ck.BasisExpSigma}} {
			if j := firstFailing(len(s.pts), func(j int) bool { return s.pts[j].IsOnCurve() }); j >= 0 {
				return fmt.Errorf("commitment key %d %s point %d is not on BLS12-381", i, s.name, j)
			}
		}
	}
	return nil
}

// SameSetup returns nil when vk is pk's twin, their α, β and δ equal, and
// otherwise an error saying which differ.
func SameSetup(pk gnarkgroth16.ProvingKey, vk gnarkgroth16.VerifyingKey) error {
	p, ok := pk.(*groth16curve.ProvingKey)
	if !ok || p == nil {
		return fmt.Errorf("a %T is not a BLS12-381 Groth16 proving key", pk)
	}
	v, ok := vk.(*groth16curve.VerifyingKey)
	if !ok || v == nil {
		return fmt.Errorf("a %T is not a BLS12-381 Groth16 verifying key", vk)
	}
	if !p.G1.Alpha.Equal(&v.G1.Alpha) || !p.G1.Beta.Equal(&v.G1.Beta) || !p.G1.Delta.Equal(&v.G1.Delta) ||
		!p.G2.Beta.Equal(&v.G2.Beta) || !p.G2.Delta.Equal(&v.G2.Delta) {
		return fmt.Errorf("the verifying key's α, β, δ differ from the proving key's: keys of different setups")
	}
	return nil
}
