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

// parts splits [0, n) among the cores, each part with its own random seed,
// and returns the (s, t) that f returns for each part.
func parts(rng *mrand.Rand, n int, f func(lo, hi int, seed uint64) (fr.Element, fr.Element)) []logPart {
	k := runtime.NumCPU()
	step := (n + k - 1) / k
	var out []logPart
	for lo := 0; lo < n; lo += step {
		out = append(out, logPart{lo: lo, hi: min(n, lo+step)})
	}
	var wg sync.WaitGroup
	for i := range out {
		p := &out[i]
		seed := rng.Uint64()
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.s, p.t = f(p.lo, p.hi, seed)
		}()
	}
	wg.Wait()
	return out
}

func randFr(rng *mrand.Rand) fr.Element {
	return randScalars(rng, 1)[0]
}

// logPart is a run of bases with known discrete logarithms: bases lo..hi−1
// are (s + (i−lo)·t)·G for the group's generator G.
type logPart struct {
	lo, hi int
	s, t   fr.Element
}

// randG1 returns n distinct points: per core, S, S+H, S+2H, … for random S
// and H, converted to affine in batches.
func randG1(rng *mrand.Rand, n int) []bls12381.G1Affine {
	p, _ := randG1Logs(rng, n)
	return p
}

// randG1Logs is randG1 that also returns the points' discrete logarithms.
func randG1Logs(rng *mrand.Rand, n int) ([]bls12381.G1Affine, []logPart) {
	out := make([]bls12381.G1Affine, n)
	logs := parts(rng, n, func(lo, hi int, seed uint64) (fr.Element, fr.Element) {
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
		return s, t
	})
	return out, logs
}

// randG2 is randG1 on G2.
func randG2(rng *mrand.Rand, n int) []bls12381.G2Affine {
	p, _ := randG2Logs(rng, n)
	return p
}

// randG2Logs is randG1Logs on G2.
func randG2Logs(rng *mrand.Rand, n int) ([]bls12381.G2Affine, []logPart) {
	out := make([]bls12381.G2Affine, n)
	logs := parts(rng, n, func(lo, hi int, seed uint64) (fr.Element, fr.Element) {
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
		return s, t
	})
	return out, logs
}

// msmLog returns Σ_i k_i·a_i over the points of off..off+len(k)−1, where a_i
// is point i's discrete logarithm: the MSM of those points with scalars k is
// this times the generator.
func msmLog(logs []logPart, off int, k []fr.Element) fr.Element {
	var sum fr.Element
	for _, p := range logs {
		lo, hi := max(p.lo, off), min(p.hi, off+len(k))
		if lo >= hi {
			continue
		}
		// Σ k_i·(s + (i−p.lo)·t) = s·Σ k_i + t·Σ (i−p.lo)·k_i
		var sk, jk, j, x fr.Element
		j.SetUint64(uint64(lo - p.lo))
		var one fr.Element
		one.SetOne()
		for i := lo; i < hi; i++ {
			sk.Add(&sk, &k[i-off])
			x.Mul(&j, &k[i-off])
			jk.Add(&jk, &x)
			j.Add(&j, &one)
		}
		sk.Mul(&sk, &p.s)
		jk.Mul(&jk, &p.t)
		sum.Add(&sum, &sk).Add(&sum, &jk)
	}
	return sum
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
