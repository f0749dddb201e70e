// G1's mixed addition (madd-2008-s, as xyzz_t::add_affine_inl) with its
// independent products paired through field_pair.cuh, four carry chains at
// a time instead of two:
//   (U2, S2) = (X2·ZZ1, Y2·ZZZ1), (PP, R²) = (P², R²),
//   (PPP, Q) = (P·PP, X1·PP), (ZZ3, ZZZ3) = (ZZ1·PP, ZZZ1·PPP),
// and Y3 = R(Q − X3) − Y1·PPP from mont_t::mul_sub (one reduction).
#pragma once
#include "curve.cuh"
#include "field_pair.cuh"

namespace g16 {

// acc += q for affine q, the exceptional cases (either operand infinity,
// P = ±Q) handled as in xyzz_t::add_affine_inl.
G16_HD void add_affine_pair(g1_xyzz_t& acc, const g1_affine_t& q) {
	if (q.is_inf()) return;
	if (acc.is_inf()) {
		acc = g1_xyzz_t::from_affine(q);
		return;
	}
	fp_t u2, s2;
	fp_pair::mul2(u2, s2, q.x, acc.zz, q.y, acc.zzz);
	fp_t p = u2 - acc.x;
	fp_t r = s2 - acc.y;
	if (p.is_zero()) {
		if (r.is_zero())
			acc.set_dbl_affine(q);
		else
			acc = g1_xyzz_t::inf();
		return;
	}
	fp_t pp, rr, ppp, qq;
	fp_pair::sqr2(pp, rr, p, r);
	fp_pair::mul2(ppp, qq, p, pp, acc.x, pp);
	fp_t x3 = rr - ppp - qq.dbl();
	acc.y = fp_t::mul_sub(r, qq - x3, acc.y, ppp);
	acc.x = x3;
	fp_pair::mul2(acc.zz, acc.zzz, acc.zz, pp, acc.zzz, ppp);
}

} // namespace g16
