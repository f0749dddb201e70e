package bls12381

import (
	curve "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
)

// An MSM pass's window sums, as the kernels write them: XYZZ points
// (X, Y, ZZ, ZZZ; x = X/ZZ, y = Y/ZZZ; ZZ = 0 the point at infinity) of
// four fp.Elements in G1 and four E2 (A0, A1) in G2, in Montgomery form.

// SetInfinity sets p, a Jacobian point of G1 (of G2 with g2), to the
// point at infinity (1, 1, 0).
func (Host) SetInfinity(g2 bool, p []byte) {
	if g2 {
		*as[curve.G2Jac](p) = g2Infinity
		return
	}
	*as[curve.G1Jac](p) = g1Infinity
}

// AddSums adds Σ_j 2^(shift·j)·W_j over the nw window sums W_j that win
// holds to acc, a Jacobian point of G1 (of G2 with g2). With pairs ≤ 1,
// W_j is win's point j; else the reduction stopped at its last pairs
// (the kernels' G16_MSM_HOST_TAIL): A_s at point j·pairs + s and R_s at
// point nw·pairs + j·pairs + s for s < pairs, and W_j = Σ_s A_s + Σ_s s·R_s.
func (Host) AddSums(g2 bool, acc, win []byte, nw, pairs, shift int) {
	limbs := view[fp.Element](win)
	if g2 {
		s := combineSums(limbs, nw, pairs, shift, &g2Infinity, 8, g2FromXYZZ)
		as[curve.G2Jac](acc).AddAssign(&s)
		return
	}
	s := combineSums(limbs, nw, pairs, shift, &g1Infinity, 4, g1FromXYZZ)
	as[curve.G1Jac](acc).AddAssign(&s)
}

// jacobian is what the sums need of gnark-crypto's G1Jac and G2Jac.
type jacobian[T any] interface {
	*T
	Set(*T) *T
	DoubleAssign() *T
	AddAssign(*T) *T
}

// combineSums is Σ_j 2^(shift·j)·W_j over the nw window sums in win
// (points of limbs fp.Elements each; pairs as AddSums reads them), by
// Horner's rule from the top sum.
func combineSums[J any, PJ jacobian[J]](win []fp.Element, nw, pairs, shift int, inf *J, limbs int, fromXYZZ func([]fp.Element) J) J {
	var acc J
	PJ(&acc).Set(inf)
	for j := nw - 1; j >= 0; j-- {
		for k := 0; k < shift && j < nw-1; k++ {
			PJ(&acc).DoubleAssign()
		}
		p := windowSum[J, PJ](win, j, nw, pairs, inf, limbs, fromXYZZ)
		PJ(&acc).AddAssign(&p)
	}
	return acc
}

// windowSum is window j's sum W_j of the nw in win (AddSums), the pairs
// summed with a running sum from the top.
func windowSum[J any, PJ jacobian[J]](win []fp.Element, j, nw, pairs int, inf *J, limbs int, fromXYZZ func([]fp.Element) J) J {
	if pairs <= 1 {
		return fromXYZZ(win[limbs*j:])
	}
	a := win[limbs*j*pairs:]
	r := win[limbs*(nw+j)*pairs:]
	var acc, running J
	PJ(&acc).Set(inf)
	PJ(&running).Set(inf)
	for s := pairs - 1; s >= 1; s-- { // acc = Σ_s s·R_s once the loop ends
		p := fromXYZZ(r[limbs*s:])
		PJ(&running).AddAssign(&p)
		PJ(&acc).AddAssign(&running)
	}
	for s := 0; s < pairs; s++ {
		p := fromXYZZ(a[limbs*s:])
		PJ(&acc).AddAssign(&p)
	}
	return acc
}

var (
	g1Infinity = curve.G1Jac{X: fp.One(), Y: fp.One()}
	g2Infinity = func() curve.G2Jac {
		var p curve.G2Jac
		p.X.SetOne()
		p.Y.SetOne()
		return p
	}()
)

// g1FromXYZZ converts (X, Y, ZZ, ZZZ), the first four elements of c, to
// Jacobian coordinates: Z = ZZ·ZZZ, X' = X·ZZ·ZZZ², Y' = Y·ZZ³·ZZZ² (then
// X'/Z² = X/ZZ and Y'/Z³ = Y/ZZZ). ZZ = 0 is the point at infinity.
func g1FromXYZZ(c []fp.Element) curve.G1Jac {
	x, y, zz, zzz := &c[0], &c[1], &c[2], &c[3]
	if zz.IsZero() {
		return g1Infinity
	}
	var p curve.G1Jac
	var zzz2, zz3 fp.Element
	zzz2.Square(zzz)
	zz3.Square(zz).Mul(&zz3, zz)
	p.Z.Mul(zz, zzz)
	p.X.Mul(x, zz).Mul(&p.X, &zzz2)
	p.Y.Mul(y, &zz3).Mul(&p.Y, &zzz2)
	return p
}

// g2FromXYZZ is g1FromXYZZ over Fp2; c holds X.A0, X.A1, Y.A0, … ZZZ.A1.
func g2FromXYZZ(c []fp.Element) curve.G2Jac {
	e := func(i int) *curve.E2 { return &curve.E2{A0: c[2*i], A1: c[2*i+1]} }
	x, y, zz, zzz := e(0), e(1), e(2), e(3)
	if zz.IsZero() {
		return g2Infinity
	}
	var p curve.G2Jac
	var zzz2, zz3 curve.E2
	zzz2.Square(zzz)
	zz3.Square(zz).Mul(&zz3, zz)
	p.Z.Mul(zz, zzz)
	p.X.Mul(x, zz).Mul(&p.X, &zzz2)
	p.Y.Mul(y, &zz3).Mul(&p.Y, &zzz2)
	return p
}
