package bls12381

import (
	"math/big"
	"math/bits"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// A row's terms whose coefficient is a small integer k (|k| < 2⁶⁴; in the
// emulated and extension-field arithmetic of a verifier circuit most
// coefficients are) are summed without a Montgomery product each: an
// element in Montgomery form x̃ = x·R times the plain integer k is (k·x)·R,
// the Montgomery form of k·x before reduction, so
//
//	T = Σ kᵢ·x̃ᵢ  (a term of coefficient −k adds k·(r − x̃) instead)
//
// is summed in fr.Limbs+2 words (each term is below r·2⁶⁴, so 2⁶⁴ of them
// fit) and reduced mod r once a row with one Montgomery product (reduce).

// smallCoeff is a coefficient that is the integer k (neg false) or −k (neg
// true) with 0 < k < 2⁶⁴; k == 0 for any other coefficient.
type smallCoeff struct {
	k   uint64
	neg bool
}

// smallCoeffsOf finds the small integer coefficients of coeffs.
func smallCoeffsOf(coeffs []fr.Element) []smallCoeff {
	small := make([]smallCoeff, len(coeffs))
	for i := range coeffs {
		if coeffs[i].IsZero() {
			continue
		}
		if b := coeffs[i].Bits(); zeroFrom(&b, 1) {
			small[i] = smallCoeff{k: b[0]}
			continue
		}
		var n fr.Element
		n.Neg(&coeffs[i])
		if b := n.Bits(); zeroFrom(&b, 1) {
			small[i] = smallCoeff{k: b[0], neg: true}
		}
	}
	return small
}

// wideSum is T above, little-endian words.
type wideSum [fr.Limbs + 2]uint64

var (
	// modWords holds r's words.
	modWords = func() (q [fr.Limbs]uint64) {
		for i, w := range fr.Modulus().Bits() {
			q[i] = uint64(w)
		}
		return
	}()
	// wideTop holds the words of 2^(64(2·fr.Limbs−1)) mod r (reduce).
	wideTop = func() (e fr.Element) {
		var x big.Int
		x.Lsh(big.NewInt(1), 64*(2*fr.Limbs-1))
		x.Mod(&x, fr.Modulus())
		for i, w := range x.Bits() {
			e[i] = uint64(w)
		}
		return
	}()
)

// addSmall adds c·x̃ to t: k·x̃, or k·(r − x̃) for c = −k.
func (t *wideSum) addSmall(x *fr.Element, c smallCoeff) {
	if c.neg {
		t.addMulNeg(x, c.k)
	} else {
		t.addMul(x, c.k)
	}
}

// addMul adds k·x̃ to t.
func (t *wideSum) addMul(x *fr.Element, k uint64) {
	var carry, c uint64
	for i := range fr.Limbs {
		hi, lo := bits.Mul64(x[i], k)
		lo, c = bits.Add64(lo, carry, 0)
		hi += c
		t[i], c = bits.Add64(t[i], lo, 0)
		carry = hi + c
	}
	t[fr.Limbs], c = bits.Add64(t[fr.Limbs], carry, 0)
	t[fr.Limbs+1] += c
}

// addMulNeg adds k·(r − x̃) to t: −k·x̃ mod r.
func (t *wideSum) addMulNeg(x *fr.Element, k uint64) {
	var n fr.Element // r − x̃ (r for x̃ = 0: still 0 mod r)
	var b uint64
	for i := range fr.Limbs {
		n[i], b = bits.Sub64(modWords[i], x[i], b)
	}
	t.addMul(&n, k)
}

// reduce sets z to t mod r (as Montgomery words: the sum's element). With
// A the low fr.Limbs−1 words of t and B its top 3 (both below r),
//
//	t = A + B·2^(64(fr.Limbs−1)) ≡ A + B·c·R⁻¹,  c = 2^(64(2·fr.Limbs−1)) mod r
//
// one Montgomery product and one addition.
func (t *wideSum) reduce(z *fr.Element) {
	var a, b fr.Element
	copy(a[:], t[:fr.Limbs-1])
	copy(b[:], t[fr.Limbs-1:])
	z.Mul(&b, &wideTop)
	z.Add(z, &a)
}
