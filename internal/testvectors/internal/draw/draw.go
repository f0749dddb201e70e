// Package draw draws field elements from a byte stream, the same way for
// the generator's vectors and the conformance cross-checks.
package draw

import (
	"io"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// Element draws a uniform element of Fr: 255-bit big-endian candidates
// from rng, rejected until one is below r. rng is a ChaCha8 stream, which
// does not fail; a read error panics.
func Element(rng io.Reader) fr.Element {
	var buf [fr.Bytes]byte
	for {
		if _, err := io.ReadFull(rng, buf[:]); err != nil {
			panic("testvectors: internal error: reading the random stream: " + err.Error())
		}
		buf[0] &= 0x7f
		var e fr.Element
		if e.SetBytesCanonical(buf[:]) == nil {
			return e
		}
	}
}

// Elements draws n elements with Element.
func Elements(rng io.Reader, n int) []fr.Element {
	v := make([]fr.Element, n)
	for i := range v {
		v[i] = Element(rng)
	}
	return v
}
