package bls12381

import (
	"encoding/binary"
	"fmt"
	"io"
	"math/big"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// randomElement draws a field element from rd the way gnark-crypto's
// fr.Element.SetRandom draws it from crypto/rand.Reader: the bytes of
// r's bit length, the unused top bits cleared, read as little-endian words
// straight into the limbs, redrawn until below r. Reading the same bytes
// therefore gives the same element, which is what makes our proofs match
// gnark's byte for byte.
func randomElement(rd io.Reader) (fr.Element, error) {
	const k = (fr.Bits + 7) / 8 // bytes read
	top := uint(fr.Bits % 8)    // bits used in the last byte read
	if top == 0 {
		top = 8
	}
	var buf [fr.Bytes]byte
	modulus := fr.Modulus()
	for {
		if _, err := io.ReadFull(rd, buf[:k]); err != nil {
			return fr.Element{}, fmt.Errorf("groth16: reading randomness: %w", err)
		}
		buf[k-1] &= byte(1<<top - 1)
		var z fr.Element
		for i := range z {
			z[i] = binary.LittleEndian.Uint64(buf[8*i:])
		}
		if limbsBelow(&z, modulus) {
			return z, nil
		}
	}
}

// limbsBelow reports whether z's raw limbs, read as an integer, are below m.
func limbsBelow(z *fr.Element, m *big.Int) bool {
	var le [fr.Bytes]byte
	for i := range z {
		binary.LittleEndian.PutUint64(le[8*i:], z[i])
	}
	var be [fr.Bytes]byte
	for i := range le {
		be[fr.Bytes-1-i] = le[i]
	}
	return new(big.Int).SetBytes(be[:]).Cmp(m) < 0
}
