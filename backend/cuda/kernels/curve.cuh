// Short Weierstrass points y² = x³ + b for G1 (over Fp) and G2 (over Fp2),
// on any curve with a = 0 (the formulas never read b): F is the coordinate
// field, an Fp's mont_t or an fp2.
//
// Inputs are affine points in gnark-crypto's layout (X then Y, the point at
// infinity written X = Y = 0). Sums are kept in XYZZ coordinates
// (x = X/ZZ, y = Y/ZZZ, with ZZ³ = ZZZ²), where a mixed addition costs 8M+2S
// and needs no inversion. Formulas: the Explicit-Formulas Database,
// "g1p/auto/shortw/xyzz" (madd-2008-s, add-2008-s, dbl-2008-s-1, mdbl-2008-s),
// a = 0. The point at infinity is ZZ = ZZZ = 0. Y3's two products and
// their difference are F::mul_sub (one reduction for Fp).
#pragma once
#include "fp2.cuh"

namespace g16 {

template <class F>
struct affine_t {
	F x, y;
	G16_HD bool is_inf() const { return x.is_zero() && y.is_zero(); }
};

template <class F>
struct xyzz_t {
	F x, y, zz, zzz;

	G16_HD static xyzz_t inf() { return {F::zero(), F::zero(), F::zero(), F::zero()}; }
	G16_HD bool is_inf() const { return zz.is_zero(); }
	G16_HD static xyzz_t from_affine(const affine_t<F>& p) {
		if (p.is_inf()) return inf();
		return {p.x, p.y, F::one(), F::one()};
	}
	G16_HD xyzz_t neg() const { return {x, y.neg(), zz, zzz}; }

	// dbl-2008-s-1:
	//   U = 2Y, V = U², W = U·V, S = X·V, M = 3X²
	//   X3 = M² − 2S, Y3 = M(S − X3) − W·Y, ZZ3 = V·ZZ, ZZZ3 = W·ZZZ
	G16_HD_CALL void dbl() {
		F u = y.dbl();
		F v = u.sqr();
		F w = u * v;
		F s = x * v;
		F xx = x.sqr();
		F m = xx.dbl() + xx;
		x = m.sqr() - s.dbl();
		y = F::mul_sub(m, s - x, w, y);
		zz = v * zz;
		zzz = w * zzz;
	}

	// mdbl-2008-s: this = 2q for affine q (not infinity).
	G16_HD void set_dbl_affine(const affine_t<F>& q) {
		F u = q.y.dbl();
		F v = u.sqr();
		F w = u * v;
		F s = q.x * v;
		F xx = q.x.sqr();
		F m = xx.dbl() + xx;
		x = m.sqr() - s.dbl();
		y = F::mul_sub(m, s - x, w, q.y);
		zz = v;
		zzz = w;
	}

	// this += q for affine q, madd-2008-s:
	//   U2 = X2·ZZ1, S2 = Y2·ZZZ1, P = U2 − X1, R = S2 − Y1, PP = P², PPP = P·PP, Q = X1·PP
	//   X3 = R² − PPP − 2Q, Y3 = R(Q − X3) − Y1·PPP, ZZ3 = ZZ1·PP, ZZZ3 = ZZZ1·PPP
	// with the exceptional cases (either operand infinity, P = ±Q) handled.
	// Inlined into the caller (G1's accumulation loop, where it keeps the
	// sum in registers); Y3 from F::mul_sub.
	G16_HD void add_affine(const affine_t<F>& q) {
		if (q.is_inf()) return;
		if (is_inf()) {
			*this = from_affine(q);
			return;
		}
		F u2 = q.x * zz;
		F s2 = q.y * zzz;
		F p = u2 - x;
		F r = s2 - y;
		if (p.is_zero()) {
			if (r.is_zero())
				set_dbl_affine(q);
			else
				*this = inf();
			return;
		}
		F pp = p.sqr();
		F ppp = p * pp;
		F qq = x * pp;
		zz = zz * pp; // pp's last use
		F x3 = r.sqr() - ppp - qq.dbl();
		y = F::mul_sub(r, qq - x3, y, ppp);
		x = x3;
		zzz = zzz * ppp;
	}

	// this += q, add-2008-s:
	//   U1 = X1·ZZ2, U2 = X2·ZZ1, S1 = Y1·ZZZ2, S2 = Y2·ZZZ1, P = U2 − U1, R = S2 − S1,
	//   PP = P², PPP = P·PP, Q = U1·PP,
	//   X3 = R² − PPP − 2Q, Y3 = R(Q − X3) − S1·PPP, ZZ3 = ZZ1·ZZ2·PP, ZZZ3 = ZZZ1·ZZZ2·PPP
	G16_HD_CALL void add(const xyzz_t& q) {
		if (q.is_inf()) return;
		if (is_inf()) {
			*this = q;
			return;
		}
		F u1 = x * q.zz;
		F u2 = q.x * zz;
		F s1 = y * q.zzz;
		F s2 = q.y * zzz;
		F p = u2 - u1;
		F r = s2 - s1;
		if (p.is_zero()) {
			if (r.is_zero())
				dbl();
			else
				*this = inf();
			return;
		}
		F pp = p.sqr();
		F ppp = p * pp;
		F qq = u1 * pp;
		F x3 = r.sqr() - ppp - qq.dbl();
		y = F::mul_sub(r, qq - x3, s1, ppp);
		x = x3;
		zz = zz * q.zz * pp;
		zzz = zzz * q.zzz * ppp;
	}
};

} // namespace g16
