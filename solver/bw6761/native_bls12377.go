package bw6761

import (
	bls12377 "github.com/consensys/gnark-crypto/ecc/bls12-377"
	"github.com/consensys/gnark-crypto/ecc/bls12-377/fp"
	"github.com/consensys/gnark-crypto/ecc/bw6-761/fr"
)

// gnark's fields_bls12377 hints of the two-chain (a BLS12-377 pairing in a
// BW6-761 circuit) on field elements: BLS12-377's base field is BW6-761's
// scalar field, with the same modulus and Montgomery R = 2³⁸⁴, so an
// fr.Element is an fp.Element word for word. Each computes what gnark's
// hint computes, with the same gnark-crypto E2 arithmetic (a zero divisor
// gives 0, as E2.Inverse does).
const fieldsBLS12377 = "github.com/consensys/gnark/std/algebra/native/fields_bls12377."

func init() {
	nativeHints[fieldsBLS12377+"divE2Hint"] = (*state).divE2
	nativeHints[fieldsBLS12377+"inverseE2Hint"] = (*state).inverseE2
}

// divE2: inputs a0, a1, b0, b1; outputs c0, c1 with c = a/b in E2.
func (st *state) divE2(calldata []uint32, sc *scratch) error {
	return st.e2Hint(calldata, sc, 4, func(in *[4]fp.Element) bls12377.E2 {
		var a, b, c bls12377.E2
		a.A0, a.A1, b.A0, b.A1 = in[0], in[1], in[2], in[3]
		c.Inverse(&b).Mul(&c, &a)
		return c
	})
}

// inverseE2: inputs a0, a1; outputs c0, c1 with c = 1/a in E2.
func (st *state) inverseE2(calldata []uint32, sc *scratch) error {
	return st.e2Hint(calldata, sc, 2, func(in *[4]fp.Element) bls12377.E2 {
		var a, c bls12377.E2
		a.A0, a.A1 = in[0], in[1]
		c.Inverse(&a)
		return c
	})
}

// e2Hint reads nIn inputs, computes f of them and sets the two outputs to
// its E2 value; a call of another shape goes to the hint function.
func (st *state) e2Hint(calldata []uint32, sc *scratch, nIn int, f func(in *[4]fp.Element) bls12377.E2) error {
	if int(calldata[2]) != nIn {
		return st.callHint(st.slotOf(calldata), calldata, sc)
	}
	var in [4]fp.Element
	j := 3
	for i := range nIn {
		var v fr.Element
		j += st.read(&v, calldata[j:])
		in[i] = fp.Element(v)
	}
	lo, hi := int(calldata[j]), int(calldata[j+1])
	if hi-lo != 2 {
		return st.callHint(st.slotOf(calldata), calldata, sc)
	}
	c := f(&in)
	c0, c1 := fr.Element(c.A0), fr.Element(c.A1)
	st.set(lo, &c0)
	st.set(lo+1, &c1)
	return nil
}
