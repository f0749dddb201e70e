// G1's mixed XYZZ addition with its Fp products split between the two
// multiply pipes: those of ZZ and ZZZ (and, with QF, Q) on the FP64 pipe as
// fp64_t products (field_f64.cuh), the others on the integer pipe as fp_t
// products. The sum keeps X and Y as fp_t and ZZ and ZZZ as fp64_t (below
// 2p), so that ZZ and ZZZ enter their four products with no conversion; the
// base's coordinates, PP and PPP are converted once each (from_fp), U2 and S2
// back (to_fp, fully reduced, for the subtractions). The formulas are
// curve.cuh's madd-2008-s:
//
//   U2 = X2·ZZ1, S2 = Y2·ZZZ1         fp64_t
//   P = U2 − X1, R = S2 − Y1, PP = P², PPP = P·PP, Q = X1·PP      fp_t (Q: fp64_t with QF)
//   ZZ3 = ZZ1·PP, ZZZ3 = ZZZ1·PPP     fp64_t
//   X3 = R² − PPP − 2Q, Y3 = R(Q − X3) − Y1·PPP                    fp_t
#pragma once
#include "curve.cuh"
#include "field_f64.cuh"

namespace g16 {

template <bool QF>
struct g1_xyzz_f64 {
	fp_t x, y;
	fp64_t zz, zzz;

	G16_HD static fp64_t zero64() {
		fp64_t r;
#pragma unroll
		for (int k = 0; k < fp64_t::N; k++) r.v[k] = 0;
		return r;
	}
	// The point at infinity: ZZ = 0 with all limbs 0 (a nonzero ZZ is never
	// p in its lazy form: the products of nonzero elements are not ≡ 0).
	G16_HD static g1_xyzz_f64 inf() { return {fp_t::zero(), fp_t::zero(), zero64(), zero64()}; }
	G16_HD bool is_inf() const {
		bool z = true;
#pragma unroll
		for (int k = 0; k < fp64_t::N; k++) z = z && zz.v[k] == 0;
		return z;
	}
	G16_HD void set(const xyzz_t<fp_t>& p) {
		x = p.x;
		y = p.y;
		zz = fp64_t::from_fp(p.zz);
		zzz = fp64_t::from_fp(p.zzz);
	}
	G16_HD xyzz_t<fp_t> get() const {
		if (is_inf()) return xyzz_t<fp_t>::inf();
		return {x, y, zz.to_fp(), zzz.to_fp()};
	}

	G16_HD void add_affine(const g1_affine_t& q) {
		if (q.is_inf()) return;
		if (is_inf()) {
			set(xyzz_t<fp_t>::from_affine(q));
			return;
		}
		fp_t u2 = (fp64_t::from_fp(q.x) * zz).to_fp();
		fp_t s2 = (fp64_t::from_fp(q.y) * zzz).to_fp();
		fp_t p = u2 - x;
		fp_t r = s2 - y;
		if (p.is_zero()) {
			xyzz_t<fp_t> t = xyzz_t<fp_t>::inf();
			if (r.is_zero()) t.set_dbl_affine(q);
			set(t);
			return;
		}
		fp_t pp = p.sqr();
		fp64_t pp64 = fp64_t::from_fp(pp);
		fp_t ppp = p * pp;
		fp_t qq;
		if (QF)
			qq = (fp64_t::from_fp(x) * pp64).to_fp();
		else
			qq = x * pp;
		zz = zz * pp64;
		zzz = zzz * fp64_t::from_fp(ppp);
		fp_t x3 = r.sqr() - ppp - qq.dbl();
		y = fp_t::mul_sub(r, qq - x3, y, ppp);
		x = x3;
	}
};

} // namespace g16
