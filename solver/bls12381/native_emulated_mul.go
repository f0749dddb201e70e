package bls12381

import (
	"math/big"
	"math/bits"
	"strconv"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// mulHintName is the name gnark v0.16.1 registers the emulated field
// multiplication's hint under (std/math/emulated).
const mulHintName = "github.com/consensys/gnark/std/math/emulated.mulHint"

// mulHint computes gnark's emulated mulHint on fixed-size words. Inputs
//
//	nbBits, nbLimbs, nbALen, nbQuoLen, p (nbLimbs limbs), a (nbALen), b (the rest)
//
// with a = Σ a_i·2^(nbBits·i) and so on; outputs the limbs of quo and rem,
// ab = quo·p + rem, then the carries of the limb-wise identity
//
//	c_i = ⌊(c_{i−1} + Σ_{j+k=i} a_j·b_k − Σ_{j+k=i} quo_j·p_k − rem_i) / 2^nbBits⌋
//
// for i below max(nbALen+nbBLen, nbQuoLen+nbLimbs) − 2, each mod q. The
// calls computed here are those with 64-bit limbs (the 4-limb fields:
// secp256k1, P-256, BN254's), at most mulMaxLimbs limbs an operand, each
// below 2^mulLimbBits; any other call goes to gnark's hint function, as do
// those where quo or rem does not fit its limbs (gnark's error).
func (st *state) mulHint(calldata []uint32, sc *scratch) error {
	return st.wordHint(calldata, sc, &sc.mul)
}

// wordComputer is a hint computed on fixed-size words (mulScratch,
// polyScratch): compute takes the call's inputs and says whether it
// computed the nbOut outputs (false: the call is gnark's), which output
// then gives one at a time.
type wordComputer interface {
	compute(in []fr.Element, nbOut int) bool
	output(e *fr.Element, i int)
}

// wordHint reads a hint call's inputs, computes it with c, and sets its
// outputs; a call c does not compute goes to the hint's gnark function.
func (st *state) wordHint(calldata []uint32, sc *scratch, c wordComputer) error {
	nbIn := int(calldata[2])
	in := sc.frElements(0, nbIn)
	j := 3
	for i := range in {
		j += st.read(&in[i], calldata[j:])
	}
	lo, hi := int(calldata[j]), int(calldata[j+1])
	if !c.compute(in, hi-lo) {
		return st.callHint(st.slotOf(calldata), calldata, sc)
	}
	e := &sc.word
	for i := lo; i < hi; i++ {
		c.output(e, i-lo)
		st.set(i, e)
	}
	return nil
}

const (
	mulMaxLimbs = 8
	mulLimbBits = 120 // products of two limbs are below 2^240; the carries stay below 2^246, within an int256
)

// limbsNative reports whether the native field holds a limb of mulLimbBits
// bits as is, in the two low words of an element, as the emulated hints
// computed here read their limbs; derived from the modulus, not assumed.
// (Every pairing curve's scalar field does: 253 bits and more.) The outputs
// need nothing of the field's size: int256.element reduces any carry mod q.
var limbsNative = fr.Limbs >= 2 && nativeBits > mulLimbBits

// mulScratch is one mulHint call's numbers.
type mulScratch struct {
	nbLimbs, nbQuo, nbCarry int
	p, a, b                 [mulMaxLimbs]limb
	pw, aw, bw              [mulMaxLimbs + 2]big.Word // p, a, b as words
	abw                     [2*mulMaxLimbs + 4]big.Word
	pInt, abInt, quo, rem   big.Int
	carry                   [2 * mulMaxLimbs]int256
}

// limb is a limb below 2^128: lo + hi·2^64.
type limb struct{ lo, hi uint64 }

// compute computes the outputs of a call with inputs in and nbOut outputs
// into ms and reports whether it did.
func (ms *mulScratch) compute(in []fr.Element, nbOut int) bool {
	if strconv.IntSize != 64 || !limbsNative || len(in) < 4 {
		return false
	}
	var hdr [4]int
	for i := range hdr {
		n, ok := smallInt(&in[i])
		if !ok {
			return false
		}
		hdr[i] = n
	}
	nbBits, nbLimbs, nbA, nbQuo := hdr[0], hdr[1], hdr[2], hdr[3]
	nbB := len(in) - 4 - nbLimbs - nbA
	if nbBits != 64 || nbLimbs < 1 || nbLimbs > mulMaxLimbs || nbA < 1 || nbA > mulMaxLimbs ||
		nbB < 1 || nbB > mulMaxLimbs || nbQuo < 0 || nbQuo > mulMaxLimbs {
		return false
	}
	nbCarry := max(nbA+nbB-1, nbQuo+nbLimbs-1) - 1
	if nbCarry < 0 || nbOut != nbQuo+nbLimbs+nbCarry {
		return false
	}
	j := 4
	readLimbs := func(dst []limb) bool {
		for i := range dst {
			w := in[j].Bits()
			j++
			if !zeroFrom(&w, 2) || w[1]>>(mulLimbBits-64) != 0 {
				return false
			}
			dst[i] = limb{w[0], w[1]}
		}
		return true
	}
	if !readLimbs(ms.p[:nbLimbs]) || !readLimbs(ms.a[:nbA]) || !readLimbs(ms.b[:nbB]) {
		return false
	}
	ms.nbLimbs, ms.nbQuo, ms.nbCarry = nbLimbs, nbQuo, nbCarry

	// quo, rem = a·b divmod p (both 0 when p is 0)
	pw := recompose(ms.pw[:nbLimbs+1], ms.p[:nbLimbs])
	aw := recompose(ms.aw[:nbA+1], ms.a[:nbA])
	bw := recompose(ms.bw[:nbB+1], ms.b[:nbB])
	abw := mulWords(ms.abw[:len(aw)+len(bw)], aw, bw)
	ms.pInt.SetBits(pw)
	if ms.pInt.Sign() == 0 {
		ms.quo.SetUint64(0)
		ms.rem.SetUint64(0)
	} else {
		ms.abInt.SetBits(abw)
		ms.quo.QuoRem(&ms.abInt, &ms.pInt, &ms.rem)
	}
	if len(ms.quo.Bits()) > nbQuo || len(ms.rem.Bits()) > nbLimbs {
		return false
	}

	// the carries
	var acc int256
	qb, rb := ms.quo.Bits(), ms.rem.Bits()
	for i := 0; i < nbCarry; i++ {
		for k := max(0, i-nbB+1); k <= min(i, nbA-1); k++ {
			acc.addProduct(ms.a[k], ms.b[i-k])
		}
		for k := max(0, i-nbLimbs+1); k <= min(i, nbQuo-1); k++ {
			acc.subProduct(limb{word(qb, k), 0}, ms.p[i-k])
		}
		if i < nbLimbs {
			acc.subProduct(limb{word(rb, i), 0}, limb{1, 0})
		}
		acc.shiftRight64()
		ms.carry[i] = acc
	}
	return true
}

// output sets e to output i of the call compute computed: the limbs of
// quo, of rem, then the carries.
func (ms *mulScratch) output(e *fr.Element, i int) {
	switch {
	case i < ms.nbQuo:
		e.SetUint64(word(ms.quo.Bits(), i))
	case i < ms.nbQuo+ms.nbLimbs:
		e.SetUint64(word(ms.rem.Bits(), i-ms.nbQuo))
	default:
		ms.carry[i-ms.nbQuo-ms.nbLimbs].element(e)
	}
}

// word returns w[i], or 0 past its end.
func word(w []big.Word, i int) uint64 {
	if i < len(w) {
		return uint64(w[i])
	}
	return 0
}

// recompose sets dst (len(limbs)+1 words) to Σ limbs[i]·2^(64i) and returns it.
func recompose(dst []big.Word, limbs []limb) []big.Word {
	clear(dst)
	var c uint64
	for i, l := range limbs {
		s, c1 := bits.Add64(uint64(dst[i]), l.lo, 0)
		dst[i] = big.Word(s)
		s, c = bits.Add64(uint64(dst[i+1]), l.hi, c1)
		dst[i+1] = big.Word(s)
		for k := i + 2; c != 0 && k < len(dst); k++ {
			s, c = bits.Add64(uint64(dst[k]), 0, c)
			dst[k] = big.Word(s)
		}
	}
	return dst
}

// mulWords sets dst (len(x)+len(y) words) to x·y and returns it.
func mulWords(dst, x, y []big.Word) []big.Word {
	clear(dst)
	for i, xi := range x {
		var c uint64
		for k, yk := range y {
			h, l := bits.Mul64(uint64(xi), uint64(yk))
			l, c1 := bits.Add64(l, uint64(dst[i+k]), 0)
			h += c1
			l, c1 = bits.Add64(l, c, 0)
			h += c1
			dst[i+k] = big.Word(l)
			c = h
		}
		dst[i+len(y)] = big.Word(c)
	}
	return dst
}

// int256 is a signed 256-bit integer, two's complement, low word first.
type int256 [4]uint64

// add sets z to z + x.
func (z *int256) add(x *int256) {
	var c uint64
	z[0], c = bits.Add64(z[0], x[0], 0)
	z[1], c = bits.Add64(z[1], x[1], c)
	z[2], c = bits.Add64(z[2], x[2], c)
	z[3], _ = bits.Add64(z[3], x[3], c)
}

// sub sets z to z − x.
func (z *int256) sub(x *int256) {
	var b uint64
	z[0], b = bits.Sub64(z[0], x[0], 0)
	z[1], b = bits.Sub64(z[1], x[1], b)
	z[2], b = bits.Sub64(z[2], x[2], b)
	z[3], _ = bits.Sub64(z[3], x[3], b)
}

// addProduct adds x·y (each below 2^128) to z.
func (z *int256) addProduct(x, y limb) {
	p := int256(product(x, y))
	z.add(&p)
}

// subProduct subtracts x·y (each below 2^128) from z.
func (z *int256) subProduct(x, y limb) {
	p := int256(product(x, y))
	z.sub(&p)
}

// product returns x·y as four words.
func product(x, y limb) [4]uint64 {
	var p [4]uint64
	h, l := bits.Mul64(x.lo, y.lo)
	p[0], p[1] = l, h
	h, l = bits.Mul64(x.lo, y.hi)
	var c uint64
	p[1], c = bits.Add64(p[1], l, 0)
	p[2], c = bits.Add64(p[2], h, c)
	p[3] += c
	h, l = bits.Mul64(x.hi, y.lo)
	p[1], c = bits.Add64(p[1], l, 0)
	p[2], c = bits.Add64(p[2], h, c)
	p[3] += c
	h, l = bits.Mul64(x.hi, y.hi)
	p[2], c = bits.Add64(p[2], l, 0)
	p[3] += h + c
	return p
}

// shiftRight64 sets z to ⌊z / 2^64⌋.
func (z *int256) shiftRight64() {
	sign := uint64(int64(z[3]) >> 63)
	z[0], z[1], z[2], z[3] = z[1], z[2], z[3], sign
}

// element sets e to z mod q, whatever q's size: the words of |z| are summed
// in the field (Horner's rule in 2^64), then negated for a negative z.
func (z *int256) element(e *fr.Element) {
	m := *z
	neg := int64(m[3]) < 0
	if neg {
		var b uint64
		m[0], b = bits.Sub64(0, m[0], 0)
		m[1], b = bits.Sub64(0, m[1], b)
		m[2], b = bits.Sub64(0, m[2], b)
		m[3], _ = bits.Sub64(0, m[3], b)
	}
	var t fr.Element
	e.SetUint64(m[3])
	for k := 2; k >= 0; k-- {
		e.Mul(e, &pow64)
		t.SetUint64(m[k])
		e.Add(e, &t)
	}
	if neg {
		e.Neg(e)
	}
}

// pow64 is 2^64 in fr.
var pow64 = func() fr.Element {
	var e fr.Element
	e.SetUint64(1 << 32)
	e.Square(&e)
	return e
}()
