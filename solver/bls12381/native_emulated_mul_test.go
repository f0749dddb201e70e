package bls12381

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	secpfp "github.com/consensys/gnark-crypto/ecc/secp256k1/fp"
	csolver "github.com/consensys/gnark/constraint/solver"
	_ "github.com/consensys/gnark/std/math/emulated" // registers mulHint
)

// TestMulHint compares the native mulHint with gnark's hint function on
// random calls of the shapes the ECDSA circuit makes (and others), with
// limbs of 0 to 120 bits, p of secp256k1 or random, zero operands and p,
// and quotients that do not fit their limbs (gnark's error, our fallback).
func TestMulHint(t *testing.T) {
	gnarkHint := registeredHint(t, mulHintName)
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 3))
	n := 3000
	if testing.Short() {
		n = 300
	}
	secpP := secpfp.Modulus()
	randLimb := func() *big.Int {
		var b int
		switch rng.IntN(6) {
		case 0:
			b = 0
		case 1:
			return new(big.Int).SetUint64(^uint64(0))
		case 2:
			b = 64
		case 3:
			b = mulLimbBits
		default:
			b = rng.IntN(mulLimbBits + 1)
		}
		v := new(big.Int).SetUint64(rng.Uint64())
		v.Lsh(v, 64).Or(v, new(big.Int).SetUint64(rng.Uint64()))
		return v.Rsh(v, uint(128-b))
	}
	var ms mulScratch
	handled, fallbacks := 0, 0
	for it := 0; it < n; it++ {
		nbLimbs := 4
		if it%5 == 4 {
			nbLimbs = 1 + rng.IntN(mulMaxLimbs)
		}
		nbA, nbB := 1+rng.IntN(nbLimbs), 1+rng.IntN(nbLimbs)
		if it%3 == 0 {
			nbA, nbB = nbLimbs, []int{1, 2, nbLimbs}[rng.IntN(3)]
		}
		var p []*big.Int
		switch {
		case nbLimbs == 4 && it%2 == 0:
			p = decompose64(secpP, 4)
		case it%97 == 1:
			p = decompose64(new(big.Int), nbLimbs)
		default:
			for range nbLimbs {
				p = append(p, new(big.Int).SetUint64(rng.Uint64()))
			}
		}
		var a, b []*big.Int
		for range nbA {
			a = append(a, randLimb())
		}
		for range nbB {
			b = append(b, randLimb())
		}
		if it%53 == 2 {
			for _, v := range a {
				v.SetUint64(0)
			}
		}
		// the limbs the quotient needs, sometimes one too few
		pv, av, bv := recomposeBig(p), recomposeBig(a), recomposeBig(b)
		nbQuo := 1
		if pv.Sign() != 0 {
			q := new(big.Int).Mul(av, bv)
			q.Quo(q, pv)
			nbQuo = max(1, (q.BitLen()+63)/64)
		}
		if it%11 == 5 {
			nbQuo--
		}
		in := []*big.Int{big.NewInt(64), big.NewInt(int64(nbLimbs)), big.NewInt(int64(nbA)), big.NewInt(int64(nbQuo))}
		in = append(append(append(in, p...), a...), b...)
		nbCarry := max(nbA+nbB-1, nbQuo+nbLimbs-1) - 1
		nbOut := nbQuo + nbLimbs + nbCarry
		out := bigs(nbOut)
		errGnark := gnarkHint(fr.Modulus(), in, out)

		computed, bad, got := computeWord(&ms, in, out)
		if !computed {
			if nbQuo > 0 && nbQuo <= mulMaxLimbs && errGnark == nil && it%11 != 5 {
				t.Fatalf("call %d (%d limbs, a %d, b %d, quo %d): not computed natively, gnark's gives no error", it, nbLimbs, nbA, nbB, nbQuo)
			}
			fallbacks++
			continue
		}
		if errGnark != nil {
			t.Fatalf("call %d: computed natively, gnark's fails: %v", it, errGnark)
		}
		handled++
		if bad >= 0 {
			t.Fatalf("call %d (%d limbs, a %d, b %d, quo %d): output %d is %s, gnark's %s", it, nbLimbs, nbA, nbB, nbQuo, bad, got.String(), out[bad].String())
		}
	}
	t.Logf("%d calls the same, %d left to gnark's hint", handled, fallbacks)
	if handled < n/2 {
		t.Fatalf("only %d of %d calls computed natively", handled, n)
	}
}

func registeredHint(t *testing.T, name string) csolver.Hint {
	for _, h := range csolver.GetRegisteredHints() {
		if csolver.GetHintName(h) == name {
			return h
		}
	}
	t.Fatalf("gnark registers no hint named %s", name)
	return nil
}

func decompose64(v *big.Int, n int) []*big.Int {
	out := make([]*big.Int, n)
	t := new(big.Int).Set(v)
	mask := new(big.Int).SetUint64(^uint64(0))
	for i := range out {
		out[i] = new(big.Int).And(t, mask)
		t.Rsh(t, 64)
	}
	return out
}

func recomposeBig(limbs []*big.Int) *big.Int {
	v := new(big.Int)
	for i := len(limbs) - 1; i >= 0; i-- {
		v.Lsh(v, 64).Add(v, limbs[i])
	}
	return v
}

// bigs returns n fresh big.Ints (a hint's outputs).
func bigs(n int) []*big.Int {
	out := make([]*big.Int, n)
	for i := range out {
		out[i] = new(big.Int)
	}
	return out
}

// computeWord runs c on a hint call's inputs, as wordHint does, and
// compares its outputs with want (gnark's). It returns whether c computed
// the call, and the first output that differs (−1 for none) with c's value.
func computeWord(c wordComputer, in, want []*big.Int) (computed bool, bad int, got fr.Element) {
	fin := make([]fr.Element, len(in))
	for i := range in {
		fin[i].SetBigInt(in[i])
	}
	if !c.compute(fin, len(want)) {
		return false, -1, got
	}
	var w fr.Element
	for i := range want {
		c.output(&got, i)
		w.SetBigInt(want[i])
		if !got.Equal(&w) {
			return true, i, got
		}
	}
	return true, -1, got
}
