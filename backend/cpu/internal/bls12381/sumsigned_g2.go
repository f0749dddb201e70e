package bls12381

import (
	curve "github.com/consensys/gnark-crypto/ecc/bls12-381"
)

// sumSignedG2 computes Σ ±pts[i] over the signed indices sel (i for
// +pts[i], ^i for −pts[^i]) by levels of pairwise batched additions
// (sumsigned.go), in work, which must hold len(sel)/2 + 1 points. The
// terms it does not add itself (points at infinity excepted) it passes to
// rest, each once, for the caller to add up: the pairs with equal x, and
// the few points of the last level. The sum of what rest receives is the
// sum asked for.
func sumSignedG2(pts []curve.G2Affine, sel []int32, work []curve.G2Affine, rest func(p *curve.G2Affine)) {
	sc := new(addScratchG2)
	// The first level reads pts through sel, a batch at a time.
	m := 0 // points in work
	for j := 0; j < len(sel); {
		k := 0
		for ; k < len(sc.in) && j < len(sel); j++ {
			if i := sel[j]; i < 0 {
				sc.in[k].X = pts[^i].X
				sc.in[k].Y.Neg(&pts[^i].Y)
			} else {
				sc.in[k] = pts[i]
			}
			if !sc.in[k].IsInfinity() {
				k++
			}
		}
		if k%2 == 1 {
			k--
			work[m] = sc.in[k]
			m++
		}
		m += addPairsG2(sc.in[:k], work[m:], sc, rest)
	}
	// Later levels halve work in place: pair j is read before output j is
	// written, and output j lands at or before index 2j.
	for m >= sumLeft {
		out := 0
		for lo := 0; lo+1 < m; lo += 2 * addBatch {
			hi := min(m&^1, lo+2*addBatch)
			out += addPairsG2(work[lo:hi], work[out:], sc, rest)
		}
		if m%2 == 1 {
			work[out] = work[m-1]
			out++
		}
		m = out
	}
	for j := range m {
		rest(&work[j])
	}
}

// addScratchG2 is sumSignedG2's working memory: a batch of the first
// level with signs applied, the batch's denominators and their running
// products, and which pairs are left to rest.
type addScratchG2 struct {
	in      [2 * addBatch]curve.G2Affine
	d, acc  [addBatch]g2Element
	pending [addBatch]bool
}

// addPairsG2 writes in[2j] + in[2j+1] to out for each pair whose x differ,
// and passes both points of the others to rest. It returns how many sums
// it wrote. len(in) is even and at most 2·addBatch; out may overlap in from
// its start (out[j] is written after in[2j] and in[2j+1] are read).
func addPairsG2(in, out []curve.G2Affine, sc *addScratchG2, rest func(p *curve.G2Affine)) int {
	d, acc, pending := &sc.d, &sc.acc, &sc.pending
	k := 0
	for j := 0; j+1 < len(in); j += 2 {
		p, q := &in[j], &in[j+1]
		pending[j/2] = p.X.Equal(&q.X)
		if pending[j/2] {
			continue
		}
		d[k].Sub(&q.X, &p.X)
		if k == 0 {
			acc[0] = d[0]
		} else {
			acc[k].Mul(&acc[k-1], &d[k])
		}
		k++
	}
	if k > 0 {
		var inv, t g2Element
		inv.Inverse(&acc[k-1])
		for j := k - 1; j > 0; j-- {
			t.Mul(&inv, &acc[j-1]) // dⱼ⁻¹
			inv.Mul(&inv, &d[j])   // (d₁⋯dⱼ₋₁)⁻¹
			d[j] = t
		}
		d[0] = inv
	}
	o := 0
	for j := 0; j+1 < len(in); j += 2 {
		if pending[j/2] {
			// rest before out is written: out[o] may alias in[j].
			rest(&in[j])
			rest(&in[j+1])
			continue
		}
		p, q := &in[j], &in[j+1]
		var lambda, x3, y3 g2Element
		lambda.Sub(&q.Y, &p.Y)
		lambda.Mul(&lambda, &d[o])
		x3.Square(&lambda)
		x3.Sub(&x3, &p.X)
		x3.Sub(&x3, &q.X)
		y3.Sub(&p.X, &x3)
		y3.Mul(&y3, &lambda)
		y3.Sub(&y3, &p.Y)
		out[o].X, out[o].Y = x3, y3
		o++
	}
	return o
}
