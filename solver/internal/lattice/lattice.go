// Package lattice is the 4-D rational reconstruction of gnark-crypto's lattice
// package on integers, for the solvers' native sw_emulated.rationalReconstructExt
// hint. It does not depend on a curve.
package lattice

import (
	"math/big"
	"sync"
)

// The 4-D rational reconstruction of gnark-crypto's lattice package
// (Reconstructor.RationalReconstructExt, gnark-crypto v0.21.0), which
// gnark's sw_emulated.rationalReconstructExt hint calls once per scalar
// multiplication with the GLV endomorphism (ECDSA's verification). Given
// a modulus r, λ and k, it finds a short (x, y, z, t) with
//
//	x + λ·y ≡ k·(z + λ·t)  (mod r)
//
// by LLL reduction (δ = 99/100) of the 7 generators
//
//	(r,0,0,0) (0,r,0,0) (0,0,r,0) (0,0,0,r) (−λ,1,0,0) (k,0,1,0) (0,0,−λ,1)
//
// stopping early at the first row with z or t not zero and every entry at
// most ⌊r^(1/4)⌋ in absolute value.
//
// gnark-crypto runs the reduction on exact rationals: the Gram–Schmidt
// coefficients μ_ij and squared norms B_i as fractions, normalised by a gcd
// at each step. Here the same algorithm, step for step, keeps them as the
// integers of the integral LLL (Cohen, A Course in Computational Algebraic
// Number Theory, §2.6.3, algorithm 2.6.7): with S the rows whose
// Gram–Schmidt vector b*_i is not zero (the others lie in the span of the
// rows before them, and gnark-crypto's μ_ij is 0 for them),
//
//	d_i  = Π_{j ∈ S, j ≤ i} B_j        (d_{−1} = 1; the Gram determinant)
//	λ_ij = d_j·μ_ij                     (j ∈ S, j < i)
//
// are integers, computed for row i by the exact divisions
//
//	u ← ⟨b_i, b_j⟩;  u ← (d_l·u − λ_il·λ_jl) / d_{l−1}  for l ∈ S, l < j
//
// giving λ_ij for j < i, and d_{i−1}·B_i for j = i. Every test gnark-crypto
// makes on a fraction is an exact comparison, so it is one on integers:
//
//	|μ_kj| > 1/2                 ⇔  2·|λ_kj| > d_j
//	⌊μ_kj + 1/2⌉                 =  ⌊(2·λ_kj + d_j) / (2·d_j)⌋
//	B_k ≥ (99/100 − μ²)·B_{k−1}  ⇔  100·d_{k−1}B_k·d_{k−2} ≥ 99·d_{k−1}² − 100·λ_{k,k−1}²
//
// so the rows, the steps and the result are gnark-crypto's, with integers
// of a few thousand bits instead of fractions and their gcds.

const (
	extRows = 7
	extCols = 4
)

// extReducer is the reduction's memory, reused across calls.
type extReducer struct {
	b     [extRows][extCols]big.Int // the basis, one generator a row
	lam   [extRows][extRows]big.Int // λ_ij, j < i, j ∈ S
	d     [extRows + 1]big.Int      // d[i+1] = d_i; d[0] = d_{−1} = 1
	inS   [extRows]bool             // b*_i ≠ 0
	bound big.Int                   // ⌊r^(1/4)⌋
	u, t  big.Int
	t2    big.Int
	q     big.Int
	rem   big.Int
	lhs   big.Int
	rhs   big.Int
}

var extReducers = sync.Pool{New: func() any { return new(extReducer) }}

// RationalReconstructExt returns gnark-crypto's
// NewReconstructor(r).SetLambda(lambda).RationalReconstructExt(k) in res,
// and false where gnark-crypto finds no row with z or t not zero (it
// panics there).
func RationalReconstructExt(res *[4]big.Int, r, lambda, k *big.Int) bool {
	e := extReducers.Get().(*extReducer)
	defer extReducers.Put(e)
	for i := range e.b {
		for j := range e.b[i] {
			e.b[i][j].SetInt64(0)
		}
	}
	for i := 0; i < extCols; i++ {
		e.b[i][i].Set(r)
	}
	e.b[4][0].Mod(lambda, r)
	e.b[4][0].Neg(&e.b[4][0])
	e.b[4][1].SetInt64(1)
	e.b[5][0].Mod(k, r)
	e.b[5][2].SetInt64(1)
	e.b[6][2].Mod(lambda, r)
	e.b[6][2].Neg(&e.b[6][2])
	e.b[6][3].SetInt64(1)
	e.bound.Sqrt(r)
	e.bound.Sqrt(&e.bound)

	row := e.reduce()
	if row < 0 {
		row = e.shortest()
		if row < 0 {
			return false
		}
	}
	for j := range res {
		res[j].Set(&e.b[row][j])
	}
	return true
}

// reduce runs the LLL reduction and returns the row that stopped it early,
// or −1 when it ran to the end.
func (e *extReducer) reduce() int {
	for i := 0; i < extRows; i++ {
		if e.small(i) {
			return i
		}
	}
	e.gramSchmidtFrom(0)
	k := 1
	for k < extRows {
		for {
			reduced := false
			for j := k - 1; j >= 0; j-- {
				if !e.inS[j] {
					continue
				}
				dj := &e.d[j+1]
				e.t.Abs(&e.lam[k][j])
				e.t.Lsh(&e.t, 1)
				if e.t.Cmp(dj) <= 0 {
					continue
				}
				// q = ⌊(2λ_kj + d_j) / (2d_j)⌋; b_k ← b_k − q·b_j
				e.t.Lsh(&e.lam[k][j], 1)
				e.t.Add(&e.t, dj)
				e.t2.Lsh(dj, 1)
				e.q.DivMod(&e.t, &e.t2, &e.rem)
				for l := 0; l < extCols; l++ {
					e.t.Mul(&e.q, &e.b[j][l])
					e.b[k][l].Sub(&e.b[k][l], &e.t)
				}
				e.sizeReduced(k, j)
				reduced = true
				if e.small(k) {
					return k
				}
			}
			if !reduced {
				break
			}
		}
		if !e.inS[k-1] {
			k++
			continue
		}
		if e.lovasz(k) {
			k++
			continue
		}
		e.b[k], e.b[k-1] = e.b[k-1], e.b[k]
		if e.inS[k] {
			e.swapped(k)
		} else {
			e.gramSchmidtFrom(k - 1)
		}
		if e.small(k - 1) {
			return k - 1
		}
		if e.small(k) {
			return k
		}
		if k > 1 {
			k--
		}
	}
	return -1
}

// lovasz reports whether B_k ≥ (99/100 − μ_{k,k−1}²)·B_{k−1}, for k−1 ∈ S:
//
//	100·(d_{k−1}·B_k)·d_{k−2} ≥ 99·d_{k−1}² − 100·λ_{k,k−1}²
func (e *extReducer) lovasz(k int) bool {
	if e.inS[k] {
		e.lhs.Mul(&e.d[k+1], &e.d[k-1])
		e.lhs.Mul(&e.lhs, big100)
	} else {
		e.lhs.SetInt64(0)
	}
	e.rhs.Mul(&e.d[k], &e.d[k])
	e.rhs.Mul(&e.rhs, big99)
	e.t.Mul(&e.lam[k][k-1], &e.lam[k][k-1])
	e.t.Mul(&e.t, big100)
	e.rhs.Sub(&e.rhs, &e.t)
	return e.lhs.Cmp(&e.rhs) >= 0
}

var (
	big99  = big.NewInt(99)
	big100 = big.NewInt(100)
)

// sizeReduced updates λ for b_k ← b_k − q·b_j (j < k, j ∈ S). The spans of
// the rows are unchanged, so b*_i, S and d are, and λ changes in row k
// only, as μ_kl ← μ_kl − q·μ_jl with μ_jj = 1:
//
//	λ_kl ← λ_kl − q·λ_jl  (l ∈ S, l < j);  λ_kj ← λ_kj − q·d_j
func (e *extReducer) sizeReduced(k, j int) {
	for l := 0; l < j; l++ {
		if !e.inS[l] {
			continue
		}
		e.t.Mul(&e.q, &e.lam[j][l])
		e.lam[k][l].Sub(&e.lam[k][l], &e.t)
	}
	e.t.Mul(&e.q, &e.d[j+1])
	e.lam[k][j].Sub(&e.lam[k][j], &e.t)
}

// swapped updates λ and d for the swap of rows k−1 and k, both in S
// (Cohen's algorithm 2.6.7, SWAPI): S and the d_i but d_{k−1} are
// unchanged, and with λ = λ_{k,k−1}
//
//	d'_{k−1} = (d_{k−2}·d_k + λ²) / d_{k−1}
//	λ_{k−1,j} ↔ λ_{k,j}  (j < k−1)
//	λ'_ik = (d_k·λ_{i,k−1} − λ·λ_ik) / d_{k−1},  λ'_{i,k−1} = (d'_{k−1}·λ_ik + λ·λ'_ik) / d_k  (i > k)
func (e *extReducer) swapped(k int) {
	lam := &e.lam[k][k-1]
	dk2, dk1, dk := &e.d[k-1], &e.d[k], &e.d[k+1]
	for j := 0; j < k-1; j++ {
		e.lam[k-1][j], e.lam[k][j] = e.lam[k][j], e.lam[k-1][j]
	}
	e.q.Mul(dk2, dk)
	e.t.Mul(lam, lam)
	e.q.Add(&e.q, &e.t)
	e.q.Quo(&e.q, dk1) // d'_{k−1}
	for i := k + 1; i < extRows; i++ {
		e.u.Set(&e.lam[i][k])
		e.t.Mul(dk, &e.lam[i][k-1])
		e.t2.Mul(lam, &e.u)
		e.t.Sub(&e.t, &e.t2)
		e.lam[i][k].Quo(&e.t, dk1)
		e.t.Mul(&e.q, &e.u)
		e.t2.Mul(lam, &e.lam[i][k])
		e.t.Add(&e.t, &e.t2)
		e.lam[i][k-1].Quo(&e.t, dk)
	}
	dk1.Set(&e.q)
}

// gramSchmidtFrom computes λ, d and S for rows from..extRows−1, those before
// from being current.
func (e *extReducer) gramSchmidtFrom(from int) {
	if from == 0 {
		e.d[0].SetInt64(1)
	}
	for i := from; i < extRows; i++ {
		for j := 0; j <= i; j++ {
			if j < i && !e.inS[j] {
				e.lam[i][j].SetInt64(0)
				continue
			}
			e.dot(&e.u, i, j)
			for l := 0; l < j; l++ {
				if !e.inS[l] {
					continue
				}
				// u ← (d_l·u − λ_il·λ_jl) / d_{l−1}, exact
				e.u.Mul(&e.u, &e.d[l+1])
				e.t.Mul(&e.lam[i][l], &e.lam[j][l])
				e.u.Sub(&e.u, &e.t)
				e.u.Quo(&e.u, &e.d[l])
			}
			if j < i {
				e.lam[i][j].Set(&e.u)
				continue
			}
			e.inS[i] = e.u.Sign() != 0
			if e.inS[i] {
				e.d[i+1].Set(&e.u)
			} else {
				e.d[i+1].Set(&e.d[i])
			}
		}
	}
}

// dot sets z to ⟨b_i, b_j⟩.
func (e *extReducer) dot(z *big.Int, i, j int) {
	z.SetInt64(0)
	for l := 0; l < extCols; l++ {
		e.t.Mul(&e.b[i][l], &e.b[j][l])
		z.Add(z, &e.t)
	}
}

// small reports whether row i has z or t not zero and every entry at most
// the bound in absolute value.
func (e *extReducer) small(i int) bool {
	if e.b[i][2].Sign() == 0 && e.b[i][3].Sign() == 0 {
		return false
	}
	for j := 0; j < extCols; j++ {
		if e.b[i][j].CmpAbs(&e.bound) > 0 {
			return false
		}
	}
	return true
}

// shortest returns the first row of least infinity norm among those with
// z or t not zero, or −1.
func (e *extReducer) shortest() int {
	best := -1
	var bestNorm *big.Int
	for i := 0; i < extRows; i++ {
		if e.b[i][2].Sign() == 0 && e.b[i][3].Sign() == 0 {
			continue
		}
		norm := &e.b[i][0]
		for j := 1; j < extCols; j++ {
			if e.b[i][j].CmpAbs(norm) > 0 {
				norm = &e.b[i][j]
			}
		}
		if best < 0 || norm.CmpAbs(bestNorm) < 0 {
			best, bestNorm = i, norm
		}
	}
	return best
}
