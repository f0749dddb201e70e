package bls12381

import (
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark/constraint"
)

// The field-specific code of the package is its arithmetic, through fr; the
// helpers here read an element's words for any number of limbs (fr.Limbs),
// so that the same source serves every curve's scalar field.

// nativeBits is the bit length of the native field's modulus.
var nativeBits = fr.Modulus().BitLen()

// zeroFrom reports whether the words of b from word i on are all zero.
func zeroFrom(b *[fr.Limbs]uint64, i int) bool {
	for _, w := range b[i:] {
		if w != 0 {
			return false
		}
	}
	return true
}

// toU64 is v's Montgomery words in gnark's generic element.
func toU64(v *fr.Element) constraint.U64 {
	var u constraint.U64
	copy(u[:], v[:])
	return u
}

// fromU64 is the element whose Montgomery words u holds.
func fromU64(u constraint.U64) fr.Element {
	var v fr.Element
	copy(v[:], u[:])
	return v
}

// smallLo[i] is i and smallHi[i] is i·2⁸, in Montgomery form.
var smallLo, smallHi = func() (lo, hi [256]fr.Element) {
	for i := range lo {
		lo[i].SetUint64(uint64(i))
		hi[i].SetUint64(uint64(i) << 8)
	}
	return
}()

// setWord sets e to x. Below 2¹⁶ (bits, bytes, the limbs of range checks,
// most counts), the Montgomery form is a sum of two table entries instead
// of a Montgomery product by R².
func setWord(e *fr.Element, x uint64) {
	if x >= 1<<16 {
		e.SetUint64(x)
		return
	}
	*e = smallLo[x&0xff]
	if h := x >> 8; h != 0 {
		e.Add(e, &smallHi[h])
	}
}
