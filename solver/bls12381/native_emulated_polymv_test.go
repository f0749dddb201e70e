package bls12381

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	secpfp "github.com/consensys/gnark-crypto/ecc/secp256k1/fp"
)

// TestPolyMvHint compares the native polyMvHint with gnark's hint function
// on random calls of the shapes the ECDSA circuit makes (4 limbs, 1 to 6
// variables, 1 to 4 terms of degree 1 to 3, both signs) and others: limbs
// of 0 to 120 bits, coefficients of 1 to 64 bits, p of secp256k1, random or
// zero, evaluations that are zero mod p with no remainder limbs, and
// quotients that do not fit their limbs (gnark's error, our fallback).
func TestPolyMvHint(t *testing.T) {
	gnarkHint := registeredHint(t, polyMvHintName)
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 5))
	n := 3000
	if testing.Short() {
		n = 300
	}
	secpP := secpfp.Modulus()
	randBits := func(b int) *big.Int {
		v := new(big.Int).SetUint64(rng.Uint64())
		v.Lsh(v, 64).Or(v, new(big.Int).SetUint64(rng.Uint64()))
		return v.Rsh(v, uint(128-b))
	}
	randLimb := func(maxBits int) *big.Int {
		switch rng.IntN(6) {
		case 0:
			return new(big.Int)
		case 1:
			return new(big.Int).SetUint64(^uint64(0))
		case 2:
			return randBits(maxBits)
		default:
			return randBits(rng.IntN(maxBits + 1))
		}
	}
	var ps polyScratch
	handled, fallbacks := 0, 0
	for it := 0; it < n; it++ {
		nbLimbs := 4
		if it%7 == 6 {
			nbLimbs = 1 + rng.IntN(polyMaxLimbs)
		}
		nbVars, nbTerms := 1+rng.IntN(6), 1+rng.IntN(4)
		maxBits := []int{64, 75, 80, mulLimbBits}[rng.IntN(4)]
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
		pv := recomposeBig(p)
		signs := make([]int64, nbTerms)
		powers := make([][]int64, nbTerms)
		coeffs := make([]*big.Int, nbTerms)
		for tm := range powers {
			signs[tm] = int64(rng.IntN(2))
			powers[tm] = make([]int64, nbVars)
			deg := 1 + rng.IntN(3)
			for range deg {
				powers[tm][rng.IntN(nbVars)]++
			}
			cb := 1 + rng.IntN(2)
			if it%5 == 0 {
				cb = 1 + rng.IntN(64)
			}
			coeffs[tm] = randBits(cb)
			if coeffs[tm].Sign() == 0 {
				coeffs[tm].SetUint64(1)
			}
		}
		vars := make([][]*big.Int, nbVars)
		varVals := make([]*big.Int, nbVars)
		for v := range vars {
			nl := nbLimbs
			if it%3 == 0 {
				nl = 1 + rng.IntN(nbLimbs)
			}
			for range nl {
				vars[v] = append(vars[v], randLimb(maxBits))
			}
			varVals[v] = recomposeBig(vars[v])
		}
		// the value, to size quo; with no remainder limbs, sometimes a value
		// that is zero mod p (the last variable chosen for it when the last
		// term is linear in it alone)
		value := func() *big.Int {
			sum := new(big.Int)
			for tm := range powers {
				tv := new(big.Int).Set(coeffs[tm])
				for v, e := range powers[tm] {
					for range e {
						tv.Mul(tv, varVals[v])
					}
				}
				if signs[tm] != 0 {
					sum.Sub(sum, tv)
				} else {
					sum.Add(sum, tv)
				}
			}
			return sum
		}
		nbRem := nbLimbs
		if it%4 == 1 {
			nbRem = 0
		}
		sum := value()
		nbQuo := 1
		lhsLen := 1
		for tm := range powers {
			l := 1
			for v, e := range powers[tm] {
				l += int(e) * (len(vars[v]) - 1)
			}
			lhsLen = max(lhsLen, l)
		}
		if pv.Sign() != 0 {
			q, _ := new(big.Int).DivMod(sum, pv, new(big.Int))
			nbQuo = max(1, (new(big.Int).Abs(q).BitLen()+63)/64)
		}
		if it%11 == 5 {
			nbQuo--
		}
		nbCarry := max(lhsLen, nbQuo+nbLimbs-1) - 1
		if nbCarry < 0 {
			nbCarry = 0
		}
		in := []*big.Int{big.NewInt(64), big.NewInt(int64(nbLimbs)), big.NewInt(int64(nbTerms)), big.NewInt(int64(nbVars)),
			big.NewInt(int64(nbQuo)), big.NewInt(int64(nbRem)), big.NewInt(int64(nbCarry))}
		for _, s := range signs {
			in = append(in, big.NewInt(s))
		}
		for _, pw := range powers {
			for _, e := range pw {
				in = append(in, big.NewInt(e))
			}
		}
		in = append(append(in, coeffs...), p...)
		for _, v := range vars {
			in = append(in, big.NewInt(int64(len(v))))
			in = append(in, v...)
		}
		nbOut := nbQuo + nbRem + nbCarry + 1
		out := bigs(nbOut)
		errGnark := gnarkHint(fr.Modulus(), in, out)

		computed, bad, got := computeWord(&ps, in, out)
		if !computed {
			// the calls of the ECDSA circuit's kind must not fall back
			if maxBits <= 80 && it%5 != 0 && it%11 != 5 && nbRem > 0 && errGnark == nil {
				t.Fatalf("call %d (%d limbs, %d terms, %d vars, quo %d): not computed natively, gnark's gives no error", it, nbLimbs, nbTerms, nbVars, nbQuo)
			}
			fallbacks++
			continue
		}
		if errGnark != nil {
			t.Fatalf("call %d: computed natively, gnark's fails: %v", it, errGnark)
		}
		handled++
		if bad >= 0 {
			t.Fatalf("call %d (%d limbs, %d terms, %d vars, quo %d, rem %d, carry %d): output %d is %s, gnark's %s",
				it, nbLimbs, nbTerms, nbVars, nbQuo, nbRem, nbCarry, bad, got.String(), out[bad].String())
		}
	}
	t.Logf("%d calls the same, %d left to gnark's hint", handled, fallbacks)
	if handled < n/3 {
		t.Fatalf("only %d of %d calls computed natively", handled, n)
	}
}
