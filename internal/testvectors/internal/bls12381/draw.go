// Field elements drawn from a byte stream, the same way for the
// generator's vectors and the conformance cross-checks.

package bls12381

import (
	"io"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// randomElement draws a uniform element of Fr: 255-bit big-endian candidates
// from rng, rejected until one is below r. rng is a ChaCha8 stream, which
// does not fail; a read error panics.
func randomElement(rng io.Reader) fr.Element {
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

// randomElements draws n elements with randomElement.
func randomElements(rng io.Reader, n int) []fr.Element {
	v := make([]fr.Element, n)
	for i := range v {
		v[i] = randomElement(rng)
	}
	return v
}
