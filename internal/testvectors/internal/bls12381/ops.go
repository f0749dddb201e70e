// Package bls12381 is BLS12-381's part of package testvectors: its test
// vectors' file format, their generator (Generate) and their checks
// (Checks, CrossChecks), and what the Backend contract's checks compute on
// the curve over bytes in gnark-crypto's layout (Ops: scalars drawn from a
// stream, points with known discrete logarithms, and gnark-crypto's MSMs
// as the reference). internal/generator writes the same package for every
// other curve g16 supports.
package bls12381

import (
	"fmt"
	"io"
	"math/big"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc"
	curve "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// Ops is the curve's values and reference computations, as bytes.
type Ops struct{}

// Curve is the curve's ID.
func (Ops) Curve() ecc.ID { return ecc.BLS12_381 }

// Scalars draws n uniform scalars: big-endian candidates of r's bit
// length from rng, rejected until one is below r. rng is a ChaCha8
// stream, which does not fail; a read error panics.
func (Ops) Scalars(rng io.Reader, n int) []byte {
	out := make([]fr.Element, n)
	var buf [fr.Bytes]byte
	for i := range out {
		for {
			if _, err := io.ReadFull(rng, buf[:]); err != nil {
				panic("testvectors: internal error: reading the random stream: " + err.Error())
			}
			buf[0] &= 0xff >> (8*fr.Bytes - fr.Bits)
			if out[i].SetBytesCanonical(buf[:]) == nil {
				break
			}
		}
	}
	return bytesOf(out)
}

// WitnessScalars draws n scalars as witnesses are full of them: about a
// quarter each of 0, 1, r−1 and uniform (Scalars), one byte of rng
// picking each.
func (o Ops) WitnessScalars(rng io.Reader, n int) []byte {
	out := make([]fr.Element, n)
	var pick [1]byte
	for i := range out {
		if _, err := io.ReadFull(rng, pick[:]); err != nil {
			panic("testvectors: internal error: reading the random stream: " + err.Error())
		}
		switch pick[0] % 4 {
		case 0:
		case 1:
			out[i].SetOne()
		case 2:
			out[i].SetInt64(-1)
		default:
			copy(bytesOf(out[i:i+1]), o.Scalars(rng, 1))
		}
	}
	return bytesOf(out)
}

// One is the scalar 1.
func (Ops) One() []byte { return bytesOf([]fr.Element{fr.One()}) }

// Points returns k·G1 and k·G2, affine, for each scalar k of scalars and
// the groups' generators G1 and G2.
func (Ops) Points(scalars []byte) (g1, g2 []byte) {
	ks := view[fr.Element](scalars)
	_, _, a1, a2 := curve.Generators()
	p1, p2 := make([]curve.G1Affine, len(ks)), make([]curve.G2Affine, len(ks))
	for i := range ks {
		k := ks[i].BigInt(new(big.Int))
		p1[i].ScalarMultiplication(&a1, k)
		p2[i].ScalarMultiplication(&a2, k)
	}
	return bytesOf(p1), bytesOf(p2)
}

// MSM is Σ scalars[i]·points[i] over G1 (G2 with g2) by gnark-crypto's
// MultiExp, as an affine point.
func (Ops) MSM(g2 bool, points, scalars []byte) ([]byte, error) {
	s := view[fr.Element](scalars)
	if g2 {
		var r curve.G2Jac
		if _, err := r.MultiExp(view[curve.G2Affine](points), s, ecc.MultiExpConfig{}); err != nil {
			return nil, err
		}
		var a curve.G2Affine
		return bytesOf([]curve.G2Affine{*a.FromJacobian(&r)}), nil
	}
	var r curve.G1Jac
	if _, err := r.MultiExp(view[curve.G1Affine](points), s, ecc.MultiExpConfig{}); err != nil {
		return nil, err
	}
	var a curve.G1Affine
	return bytesOf([]curve.G1Affine{*a.FromJacobian(&r)}), nil
}

// Affine converts jac, one Jacobian point of G1 (G2 with g2), to affine
// (the point at infinity to X = Y = 0).
func (Ops) Affine(g2 bool, jac []byte) ([]byte, error) {
	if g2 {
		p := view[curve.G2Jac](jac)
		if len(p) != 1 || len(jac) != int(unsafe.Sizeof(p[0])) {
			return nil, fmt.Errorf("%d bytes, not one G2 Jacobian point", len(jac))
		}
		var a curve.G2Affine
		return bytesOf([]curve.G2Affine{*a.FromJacobian(&p[0])}), nil
	}
	p := view[curve.G1Jac](jac)
	if len(p) != 1 || len(jac) != int(unsafe.Sizeof(p[0])) {
		return nil, fmt.Errorf("%d bytes, not one G1 Jacobian point", len(jac))
	}
	var a curve.G1Affine
	return bytesOf([]curve.G1Affine{*a.FromJacobian(&p[0])}), nil
}

// view views b as values of type T.
func view[T any](b []byte) []T {
	if len(b) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/int(unsafe.Sizeof(zero)))
}

// bytesOf is the memory of s.
func bytesOf[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(zero)))
}
