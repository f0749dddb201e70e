package bls12381

import (
	"math/big"
	"math/bits"
	"strconv"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// polyMvHintName is the name gnark v0.16.1 registers the emulated
// multivariate polynomial evaluation's hint under (std/math/emulated).
const polyMvHintName = "github.com/consensys/gnark/std/math/emulated.polyMvHint"

// polyMvHint computes gnark's emulated polyMvHint on fixed-size words.
// Inputs
//
//	nbBits, nbLimbs, nbTerms, nbVars, nbQuo, nbRem, nbCarry,
//	signs (nbTerms), powers (nbTerms·nbVars), |coefficients| (nbTerms),
//	p (nbLimbs limbs), then per variable its limb count and limbs
//
// and outputs the limbs of |quo| and rem, with v = Σ ±c_t·Π x_i^e_ti =
// quo·p + rem (Euclidean: 0 ≤ rem < p), the carries of the limb-wise
// identity, and 1 if quo < 0. The calls computed here are those with 64-bit
// limbs, at most polyMaxLimbs limbs a variable and polyMaxTerms terms of
// degree polyMaxDegree at most, coefficients of one word, and limbs small
// enough that the limb-wise sums stay below 2^254 (checked per call);
// any other call goes to gnark's hint function, as do those whose quo or
// rem does not fit its limbs, or whose rem is not zero when nbRem is 0
// (gnark's errors).
func (st *state) polyMvHint(calldata []uint32, sc *scratch) error {
	return st.wordHint(calldata, sc, &sc.poly)
}

const (
	polyMaxLimbs  = 8
	polyMaxTerms  = 8
	polyMaxVars   = 8
	polyMaxDegree = 4
	polyMaxQuo    = 4 * polyMaxLimbs
	polyMaxCarry  = polyMaxDegree*polyMaxLimbs + polyMaxQuo
)

// polyScratch is one polyMvHint call's numbers.
type polyScratch struct {
	nbQuo, nbRem, nbCarry int
	kNeg                  bool
	signs                 [polyMaxTerms]bool
	powers                [polyMaxTerms][polyMaxVars]int
	coeffs                [polyMaxTerms]uint64
	p                     [polyMaxLimbs]limb
	nbVarLimbs            [polyMaxVars]int
	vars                  [polyMaxVars][polyMaxLimbs]limb
	varWords              [polyMaxVars][polyMaxLimbs + 1]big.Word // the variables as words
	pWords                [polyMaxLimbs + 1]big.Word
	varInts               [polyMaxVars]big.Int
	pInt, term, sum, quo  big.Int
	rem, c                big.Int
	lhs                   [polyMaxCarry]int256 // the limb-wise Σ ±c_t·Π x_i^e_ti
	prod, next            [polyMaxCarry]int256 // one term's limbs
	carry                 [polyMaxCarry]int256
}

// compute computes the outputs of a call with inputs in and nbOut outputs
// into ps and reports whether it did.
func (ps *polyScratch) compute(in []fr.Element, nbOut int) bool {
	if strconv.IntSize != 64 || !limbsNative || len(in) < 8 {
		return false
	}
	at := 0
	small := func() (int, bool) {
		if at >= len(in) {
			return 0, false
		}
		n, ok := smallInt(&in[at])
		at++
		return n, ok
	}
	var hdr [7]int
	for i := range hdr {
		n, ok := small()
		if !ok {
			return false
		}
		hdr[i] = n
	}
	nbBits, nbLimbs, nbTerms, nbVars, nbQuo, nbRem, nbCarry := hdr[0], hdr[1], hdr[2], hdr[3], hdr[4], hdr[5], hdr[6]
	if nbBits != 64 || nbLimbs < 1 || nbLimbs > polyMaxLimbs || nbTerms < 1 || nbTerms > polyMaxTerms ||
		nbVars < 1 || nbVars > polyMaxVars || nbQuo > polyMaxQuo || nbRem > polyMaxLimbs || nbCarry > polyMaxCarry ||
		nbOut != nbQuo+nbRem+nbCarry+1 {
		return false
	}
	for t := 0; t < nbTerms; t++ {
		n, ok := small()
		if !ok {
			return false
		}
		ps.signs[t] = n != 0
	}
	for t := 0; t < nbTerms; t++ {
		deg := 0
		for v := 0; v < nbVars; v++ {
			n, ok := small()
			if !ok || n > polyMaxDegree {
				return false
			}
			ps.powers[t][v] = n
			deg += n
		}
		if deg > polyMaxDegree {
			return false
		}
	}
	for t := 0; t < nbTerms; t++ {
		if at >= len(in) || !in[at].IsUint64() {
			return false
		}
		ps.coeffs[t] = in[at].Uint64()
		at++
	}
	readLimbs := func(dst []limb) (maxBits int, ok bool) {
		if at+len(dst) > len(in) {
			return 0, false
		}
		for i := range dst {
			w := in[at].Bits()
			at++
			if !zeroFrom(&w, 2) || w[1]>>(mulLimbBits-64) != 0 {
				return 0, false
			}
			dst[i] = limb{w[0], w[1]}
			maxBits = max(maxBits, limbBits(dst[i]))
		}
		return maxBits, true
	}
	if _, ok := readLimbs(ps.p[:nbLimbs]); !ok {
		return false
	}
	varBits := 0
	for v := 0; v < nbVars; v++ {
		n, ok := small()
		if !ok || n < 1 || n > polyMaxLimbs {
			return false
		}
		ps.nbVarLimbs[v] = n
		b, ok := readLimbs(ps.vars[v][:n])
		if !ok {
			return false
		}
		varBits = max(varBits, b)
	}
	if at != len(in) {
		return false
	}
	// a term's limb-wise products are below 2^(len(c_t) + deg_t·varBits),
	// and a limb of lhs sums at most nbTerms·maxVarLimbs^(deg−1) of them:
	// below 2^254 they and the carries' sums stay below 2^255
	maxVarLimbs := 0
	for v := 0; v < nbVars; v++ {
		maxVarLimbs = max(maxVarLimbs, ps.nbVarLimbs[v])
	}
	for t := 0; t < nbTerms; t++ {
		deg := 0
		for v := 0; v < nbVars; v++ {
			deg += ps.powers[t][v]
		}
		count := bits.Len(uint(nbTerms)) + max(deg-1, 0)*bits.Len(uint(maxVarLimbs))
		if bits.Len64(ps.coeffs[t])+deg*varBits+count > 253 {
			return false
		}
	}
	ps.nbQuo, ps.nbRem, ps.nbCarry = nbQuo, nbRem, nbCarry

	// the value, quo and rem
	for v := 0; v < nbVars; v++ {
		ps.varInts[v].SetBits(recompose(ps.varWords[v][:ps.nbVarLimbs[v]+1], ps.vars[v][:ps.nbVarLimbs[v]]))
	}
	ps.pInt.SetBits(recompose(ps.pWords[:nbLimbs+1], ps.p[:nbLimbs]))
	ps.sum.SetUint64(0)
	for t := 0; t < nbTerms; t++ {
		ps.term.SetUint64(ps.coeffs[t])
		for v := 0; v < nbVars; v++ {
			for range ps.powers[t][v] {
				ps.term.Mul(&ps.term, &ps.varInts[v])
			}
		}
		if ps.signs[t] {
			ps.sum.Sub(&ps.sum, &ps.term)
		} else {
			ps.sum.Add(&ps.sum, &ps.term)
		}
	}
	ps.quo.SetUint64(0)
	ps.rem.SetUint64(0)
	if ps.pInt.Sign() != 0 {
		ps.quo.DivMod(&ps.sum, &ps.pInt, &ps.rem)
	}
	ps.kNeg = ps.quo.Sign() < 0
	ps.quo.Abs(&ps.quo)
	if len(ps.quo.Bits()) > nbQuo {
		return false
	}
	if nbRem == 0 && ps.rem.Sign() != 0 || len(ps.rem.Bits()) > nbRem {
		return false
	}

	// the limb-wise value
	nbLhs := 0
	for t := 0; t < nbTerms; t++ {
		ps.prod[0] = int256{ps.coeffs[t]}
		n := 1
		for v := 0; v < nbVars; v++ {
			for range ps.powers[t][v] {
				x := ps.vars[v][:ps.nbVarLimbs[v]]
				m := n + len(x) - 1
				if m > polyMaxCarry {
					return false
				}
				clear(ps.next[:m])
				for i := 0; i < n; i++ {
					for k := range x {
						ps.next[i+k].addMul(&ps.prod[i], x[k])
					}
				}
				copy(ps.prod[:m], ps.next[:m])
				n = m
			}
		}
		for i := nbLhs; i < n; i++ {
			ps.lhs[i] = int256{}
		}
		nbLhs = max(nbLhs, n)
		for i := 0; i < n; i++ {
			if ps.signs[t] {
				ps.lhs[i].sub(&ps.prod[i])
			} else {
				ps.lhs[i].add(&ps.prod[i])
			}
		}
	}

	// the carries: c_i = ⌊(c_{i−1} + lhs_i − rem_i ∓ (quo·p)_i) / 2^64⌋
	var acc int256
	qb, rb := ps.quo.Bits(), ps.rem.Bits()
	for i := 0; i < nbCarry; i++ {
		if i < nbLhs {
			acc.add(&ps.lhs[i])
		}
		if i < nbRem {
			acc.subProduct(limb{word(rb, i), 0}, limb{1, 0})
		}
		if nbQuo > 0 {
			for k := max(0, i-nbLimbs+1); k <= min(i, nbQuo-1); k++ {
				if ps.kNeg {
					acc.addProduct(limb{word(qb, k), 0}, ps.p[i-k])
				} else {
					acc.subProduct(limb{word(qb, k), 0}, ps.p[i-k])
				}
			}
		}
		acc.shiftRight64()
		ps.carry[i] = acc
	}
	return true
}

// output sets e to output i of the call compute computed: the limbs of
// |quo|, of rem, the carries, then the sign of quo.
func (ps *polyScratch) output(e *fr.Element, i int) {
	switch {
	case i < ps.nbQuo:
		e.SetUint64(word(ps.quo.Bits(), i))
	case i < ps.nbQuo+ps.nbRem:
		e.SetUint64(word(ps.rem.Bits(), i-ps.nbQuo))
	case i < ps.nbQuo+ps.nbRem+ps.nbCarry:
		ps.carry[i-ps.nbQuo-ps.nbRem].element(e)
	default:
		e.SetUint64(0)
		if ps.kNeg {
			e.SetUint64(1)
		}
	}
}

// limbBits is the bit length of l.
func limbBits(l limb) int {
	if l.hi != 0 {
		return 64 + bits.Len64(l.hi)
	}
	return bits.Len64(l.lo)
}

// addMul sets z to z + x·y, for x ≥ 0 and x·y below 2^255.
func (z *int256) addMul(x *int256, y limb) {
	var p int256
	// x·y.lo
	var c uint64
	for k := 0; k < 4; k++ {
		h, l := bits.Mul64(x[k], y.lo)
		var c1 uint64
		p[k], c1 = bits.Add64(l, c, 0)
		c = h + c1
	}
	// + x·y.hi·2^64
	c = 0
	for k := 0; k < 3; k++ {
		h, l := bits.Mul64(x[k], y.hi)
		var c1, c2 uint64
		l, c1 = bits.Add64(l, c, 0)
		p[k+1], c2 = bits.Add64(p[k+1], l, 0)
		c = h + c1 + c2
	}
	z.add(&p)
}
