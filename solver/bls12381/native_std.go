package bls12381

import (
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// Small std hints computed on field elements: the byte and word hints of
// std/math/uints and std/math/bitslice (sha2 and sha3 call them tens of
// thousands of times) and the inverse of std's IsZero. Each computes
// exactly what the hint function computes for the values it takes here
// (inputs of one word, the hint's own input and output counts) and hands
// any other call to the hint function itself.

// xorWords, andWords and orWords: two inputs, one output.
func (st *state) xorWords(calldata []uint32, sc *scratch) error {
	return st.bitwise(calldata, sc, func(a, b uint64) uint64 { return a ^ b })
}

func (st *state) andWords(calldata []uint32, sc *scratch) error {
	return st.bitwise(calldata, sc, func(a, b uint64) uint64 { return a & b })
}

func (st *state) orWords(calldata []uint32, sc *scratch) error {
	return st.bitwise(calldata, sc, func(a, b uint64) uint64 { return a | b })
}

func (st *state) bitwise(calldata []uint32, sc *scratch, f func(a, b uint64) uint64) error {
	if calldata[2] != 2 {
		return st.callHint(st.slotOf(calldata), calldata, sc)
	}
	x, n := st.readBits(calldata[3:])
	j := 3 + n
	y, n := st.readBits(calldata[j:])
	j += n
	lo, hi := int(calldata[j]), int(calldata[j+1])
	if hi-lo != 1 || !zeroFrom(&x, 1) || !zeroFrom(&y, 1) {
		return st.callHint(st.slotOf(calldata), calldata, sc)
	}
	st.setWordAt(lo, f(x[0], y[0]))
	return nil
}

// toBytes: inputs (nbLimbs, value); the nbLimbs bytes of value, low first.
func (st *state) toBytes(calldata []uint32, sc *scratch) error {
	if calldata[2] != 2 {
		return st.callHint(st.slotOf(calldata), calldata, sc)
	}
	nb, n := st.readBits(calldata[3:])
	j := 3 + n
	x, n := st.readBits(calldata[j:])
	j += n
	lo, hi := int(calldata[j]), int(calldata[j+1])
	if !zeroFrom(&nb, 1) || nb[0] != uint64(hi-lo) || !zeroFrom(&x, 1) {
		return st.callHint(st.slotOf(calldata), calldata, sc)
	}
	for i := 0; i < hi-lo; i++ {
		byt := uint64(0)
		if i < 8 {
			byt = x[0] >> (8 * i) & 0xff
		}
		st.setWordAt(lo+i, byt)
	}
	return nil
}

// partition: inputs (split, value); outputs value >> split and the split
// low bits of value.
func (st *state) partition(calldata []uint32, sc *scratch) error {
	if calldata[2] != 2 {
		return st.callHint(st.slotOf(calldata), calldata, sc)
	}
	s, n := st.readBits(calldata[3:])
	j := 3 + n
	x, n := st.readBits(calldata[j:])
	j += n
	lo, hi := int(calldata[j]), int(calldata[j+1])
	if hi-lo != 2 || !zeroFrom(&s, 1) || !zeroFrom(&x, 1) {
		return st.callHint(st.slotOf(calldata), calldata, sc)
	}
	q, r := uint64(0), x[0]
	if s[0] < 64 {
		q, r = x[0]>>s[0], x[0]&(uint64(1)<<s[0]-1)
	}
	st.setWordAt(lo, q)
	st.setWordAt(lo+1, r)
	return nil
}

// invZero: one input; its inverse, or 0 for 0. A non-zero input is queued
// in sc and inverted with the chunk's divisors (its output is read by later
// levels only).
func (st *state) invZero(calldata []uint32, sc *scratch) error {
	if calldata[2] != 1 {
		return st.callHint(st.slotOf(calldata), calldata, sc)
	}
	var v fr.Element
	j := 3 + st.read(&v, calldata[3:])
	lo, hi := int(calldata[j]), int(calldata[j+1])
	if hi-lo != 1 {
		return st.callHint(st.slotOf(calldata), calldata, sc)
	}
	if v.IsZero() {
		st.set(lo, &v)
		return nil
	}
	sc.invWires = append(sc.invWires, uint32(lo))
	sc.invVals = append(sc.invVals, v)
	return nil
}
