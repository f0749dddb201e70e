package bls12381

import (
	"unsafe"

	curve "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
)

// An MSM pass's window sums, as the kernels write them: XYZZ points
// (X, Y, ZZ, ZZZ; x = X/ZZ, y = Y/ZZZ; ZZ = 0 the point at infinity) of
// four coordinates in Montgomery form: fp.Elements in G1, and in G2 the
// type of gnark-crypto's G2Jac coordinates (E2, A0 then A1, on the curves
// whose G2 is over Fp2; fp.Element on BW6-761). Nothing below names G2's
// coordinate type: it is inferred from curve.G2Jac's fields.

// g1Limbs and g2Limbs are the fp.Elements of an XYZZ point of G1 and G2.
const (
	g1Limbs = 4
	g2Limbs = 4 * int(unsafe.Sizeof(curve.G2Jac{}.X)/unsafe.Sizeof(fp.Element{}))
)

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
		s := combineSums(limbs, nw, pairs, shift, &g2Infinity, g2Limbs, g2FromXYZZ)
		as[curve.G2Jac](acc).AddAssign(&s)
		return
	}
	s := combineSums(limbs, nw, pairs, shift, &g1Infinity, g1Limbs, g1FromXYZZ)
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

// g1Infinity and g2Infinity are the Jacobian points at infinity (1, 1, 0).
var (
	g1Infinity = func() (p curve.G1Jac) {
		p.X.SetOne()
		p.Y.SetOne()
		return p
	}()
	g2Infinity = func() (p curve.G2Jac) {
		p.X.SetOne()
		p.Y.SetOne()
		return p
	}()
)

// coord is what the conversions need of a coordinate field element of
// gnark-crypto (fp.Element, E2).
type coord[E any] interface {
	*E
	Mul(x, y *E) *E
	Square(x *E) *E
	IsZero() bool
}

// g1FromXYZZ converts (X, Y, ZZ, ZZZ), the first four coordinates of c,
// to Jacobian coordinates (fromXYZZ).
func g1FromXYZZ(c []fp.Element) curve.G1Jac {
	var p curve.G1Jac
	if !fromXYZZ(&p.X, &p.Y, &p.Z, c) {
		return g1Infinity
	}
	return p
}

// g2FromXYZZ is g1FromXYZZ in G2, over the type of G2Jac's coordinates.
func g2FromXYZZ(c []fp.Element) curve.G2Jac {
	var p curve.G2Jac
	if !fromXYZZ(&p.X, &p.Y, &p.Z, c) {
		return g2Infinity
	}
	return p
}

// fromXYZZ sets x, y, z from (X, Y, ZZ, ZZZ), the first four coordinates
// of type E in c: Z = ZZ·ZZZ, X' = X·ZZ·ZZZ², Y' = Y·ZZ³·ZZZ² (then
// X'/Z² = X/ZZ and Y'/Z³ = Y/ZZZ). It returns false, setting nothing, for
// ZZ = 0, the point at infinity.
func fromXYZZ[E any, PE coord[E]](x, y, z *E, c []fp.Element) bool {
	k := int(unsafe.Sizeof(*x) / unsafe.Sizeof(fp.Element{}))
	e := func(i int) *E { return (*E)(unsafe.Pointer(&c[k*i])) }
	X, Y, ZZ, ZZZ := e(0), e(1), e(2), e(3)
	if PE(ZZ).IsZero() {
		return false
	}
	var zzz2, zz3 E
	PE(&zzz2).Square(ZZZ)
	PE(&zz3).Square(ZZ)
	PE(&zz3).Mul(&zz3, ZZ)
	PE(z).Mul(ZZ, ZZZ)
	PE(x).Mul(X, ZZ)
	PE(x).Mul(x, &zzz2)
	PE(y).Mul(Y, &zz3)
	PE(y).Mul(y, &zzz2)
	return true
}
