package bls12381

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// TestWideSum: a wideSum of terms ±kᵢ·xᵢ reduces to Σ ±kᵢ·xᵢ computed with
// fr's products, for random and extreme x (0, 1, r−1) and k (1, 2⁶⁴−1),
// from one term to the most a row of the test holds, and 2²⁰ of the
// largest terms.
func TestWideSum(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	var rMinus1 fr.Element
	rMinus1.SetOne()
	rMinus1.Neg(&rMinus1)
	randX := func() fr.Element {
		switch rng.IntN(8) {
		case 0:
			return fr.Element{}
		case 1:
			return smallLo[1]
		case 2:
			return rMinus1
		}
		var b [fr.Bytes]byte
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		var x fr.Element
		x.SetBytes(b[:])
		return x
	}
	randK := func() uint64 {
		switch rng.IntN(6) {
		case 0:
			return 1
		case 1:
			return ^uint64(0)
		case 2:
			return rng.Uint64N(1 << 16)
		}
		return rng.Uint64() | 1
	}
	rounds := 2000
	if testing.Short() {
		rounds = 300
	}
	for round := range rounds {
		n := 1 + rng.IntN(200)
		if round%100 == 0 {
			n = 5000
		}
		var w wideSum
		var want fr.Element
		for range n {
			x, k, neg := randX(), randK(), rng.IntN(2) == 0
			var ke, p fr.Element
			ke.SetUint64(k)
			p.Mul(&ke, &x)
			if neg {
				w.addMulNeg(&x, k)
				want.Sub(&want, &p)
			} else {
				w.addMul(&x, k)
				want.Add(&want, &p)
			}
		}
		var got fr.Element
		w.reduce(&got)
		if !got.Equal(&want) {
			t.Fatalf("round %d, %d terms: got %s, want %s", round, n, got.String(), want.String())
		}
	}
	// the largest terms, 2²⁰ of them: k = 2⁶⁴−1 times r (−k·0) and r − 1
	// fill the sum's top words
	var w wideSum
	var want, p, kMax fr.Element
	kMax.SetUint64(^uint64(0))
	p.Mul(&kMax, &rMinus1)
	for i := range 1 << 20 {
		if i%2 == 0 {
			w.addMulNeg(&fr.Element{}, ^uint64(0))
		} else {
			w.addMul(&rMinus1, ^uint64(0))
			want.Add(&want, &p)
		}
	}
	if w[fr.Limbs+1] == 0 {
		t.Fatalf("2²⁰ largest terms: the top word is 0, not reached")
	}
	var got fr.Element
	w.reduce(&got)
	if !got.Equal(&want) {
		t.Fatalf("2²⁰ largest terms: got %s, want %s", got.String(), want.String())
	}
}

// TestSmallCoeffsOf: the coefficients ±k with 0 < k < 2⁶⁴ are found with
// their sign, and no other.
func TestSmallCoeffsOf(t *testing.T) {
	var big64 big.Int
	big64.Lsh(big.NewInt(1), 64)
	coeffs := make([]fr.Element, 7)
	coeffs[1].SetUint64(5)
	coeffs[2].SetInt64(-6144)
	coeffs[3].SetUint64(^uint64(0))
	coeffs[4].SetBigInt(&big64) // 2⁶⁴: not small
	coeffs[5].SetBigInt(new(big.Int).Neg(&big64))
	coeffs[6].SetInt64(-1)
	want := []smallCoeff{{}, {k: 5}, {k: 6144, neg: true}, {k: ^uint64(0)}, {}, {}, {k: 1, neg: true}}
	got := smallCoeffsOf(coeffs)
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("coefficient %d (%s): got %+v, want %+v", i, coeffs[i].String(), got[i], want[i])
		}
	}
}

// BenchmarkWideSum times a sum of n terms of small coefficients in a
// wideSum against n products of fr: where one beats the other.
//
//	go test ./solver/bls12381 -run '^$' -bench WideSum -cpu 1
func BenchmarkWideSum(b *testing.B) {
	seed := rand.Uint64()
	b.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	const most = 16
	var xs, cs [most]fr.Element
	var ks [most]uint64
	for i := range xs {
		var buf [fr.Bytes]byte
		for j := range buf {
			buf[j] = byte(rng.Uint32())
		}
		xs[i].SetBytes(buf[:])
		ks[i] = rng.Uint64N(1 << 12)
		cs[i].SetUint64(ks[i])
	}
	for _, n := range []int{1, 2, 3, 4, 6, 8, 16} {
		b.Run(fmt.Sprintf("terms=%d/sum=wide", n), func(b *testing.B) {
			var z fr.Element
			for b.Loop() {
				var w wideSum
				for i := range n {
					w.addMul(&xs[i], ks[i])
				}
				w.reduce(&z)
			}
		})
		b.Run(fmt.Sprintf("terms=%d/sum=products", n), func(b *testing.B) {
			var z, t fr.Element
			for b.Loop() {
				z.SetZero()
				for i := range n {
					t.Mul(&cs[i], &xs[i])
					z.Add(&z, &t)
				}
			}
		})
	}
}
