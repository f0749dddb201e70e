//go:build cuda

package cuda

import (
	"math/big"
	mrand "math/rand/v2"
	"runtime"
	"sync"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// Random inputs for the MSM tests and benchmarks: fresh each run (from
// testRand's seed), never all zero, bases distinct.

// randScalars returns n scalars uniform enough for an MSM: four random limbs
// below 2^254 taken as a Montgomery representation (so the scalar itself,
// x·R⁻¹, spreads over all of Fr).
func randScalars(rng *mrand.Rand, n int) []fr.Element {
	s := make([]fr.Element, n)
	for i := range s {
		s[i] = fr.Element{rng.Uint64(), rng.Uint64(), rng.Uint64(), rng.Uint64() >> 2}
	}
	return s
}

// parts splits [0, n) among the cores, each part with its own random start.
func parts(rng *mrand.Rand, n int, f func(lo, hi int, seed uint64)) {
	k := runtime.NumCPU()
	step := (n + k - 1) / k
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo += step {
		hi := min(n, lo+step)
		seed := rng.Uint64()
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(lo, hi, seed)
		}()
	}
	wg.Wait()
}

func randFr(rng *mrand.Rand) fr.Element {
	return randScalars(rng, 1)[0]
}

// randG1 returns n distinct points: per core, S, S+H, S+2H, … for random S
// and H, converted to affine in batches.
func randG1(rng *mrand.Rand, n int) []bls12381.G1Affine {
	out := make([]bls12381.G1Affine, n)
	parts(rng, n, func(lo, hi int, seed uint64) {
		r := mrand.New(mrand.NewPCG(seed, 1))
		var acc bls12381.G1Jac
		var h bls12381.G1Affine
		s, t := randFr(r), randFr(r)
		acc.ScalarMultiplicationBase(s.BigInt(new(big.Int)))
		h.ScalarMultiplicationBase(t.BigInt(new(big.Int)))
		const batch = 1 << 14
		jac := make([]bls12381.G1Jac, batch)
		for i := lo; i < hi; i += batch {
			m := min(batch, hi-i)
			for k := 0; k < m; k++ {
				jac[k] = acc
				acc.AddMixed(&h)
			}
			copy(out[i:i+m], bls12381.BatchJacobianToAffineG1(jac[:m]))
		}
	})
	return out
}

// randG2 is randG1 on G2.
func randG2(rng *mrand.Rand, n int) []bls12381.G2Affine {
	out := make([]bls12381.G2Affine, n)
	parts(rng, n, func(lo, hi int, seed uint64) {
		r := mrand.New(mrand.NewPCG(seed, 2))
		var acc bls12381.G2Jac
		var h bls12381.G2Affine
		s, t := randFr(r), randFr(r)
		_, g2, _, g2a := bls12381.Generators()
		acc.ScalarMultiplication(&g2, s.BigInt(new(big.Int)))
		h.ScalarMultiplication(&g2a, t.BigInt(new(big.Int)))
		const batch = 1 << 12
		jac := make([]bls12381.G2Jac, batch)
		for i := lo; i < hi; i += batch {
			m := min(batch, hi-i)
			for k := 0; k < m; k++ {
				jac[k] = acc
				acc.AddMixed(&h)
			}
			batchG2ToAffine(jac[:m], out[i:i+m])
		}
	})
	return out
}

// batchG2ToAffine converts points with nonzero Z using one inversion
// (Montgomery's trick): prefix products of the Z, one inverse, then back.
func batchG2ToAffine(jac []bls12381.G2Jac, out []bls12381.G2Affine) {
	n := len(jac)
	prefix := make([]bls12381.E2, n)
	prefix[0] = jac[0].Z
	for i := 1; i < n; i++ {
		prefix[i].Mul(&prefix[i-1], &jac[i].Z)
	}
	var inv bls12381.E2
	inv.Inverse(&prefix[n-1])
	for i := n - 1; i >= 0; i-- {
		var zinv, z2, z3 bls12381.E2
		if i > 0 {
			zinv.Mul(&inv, &prefix[i-1])
			inv.Mul(&inv, &jac[i].Z)
		} else {
			zinv = inv
		}
		z2.Square(&zinv)
		z3.Mul(&z2, &zinv)
		out[i].X.Mul(&jac[i].X, &z2)
		out[i].Y.Mul(&jac[i].Y, &z3)
	}
}
