// Fp2 = Fp[u]/(u² + 1), the field of G2's coordinates, in gnark-crypto's
// layout: A0 then A1, each an fp_t in Montgomery form.
#pragma once
#include "field.cuh"

namespace g16 {

// fp2_tmpl<INL>: with INL the products are inlined into the caller (the
// accumulation kernel); without, they are calls (one copy per kernel), which
// keeps the other G2 kernels small enough to compile in reasonable time.
// Both have the same layout.
template <bool INL>
struct fp2_tmpl {
	fp_t c0, c1;

	G16_HD static fp2_tmpl zero() { return {fp_t::zero(), fp_t::zero()}; }
	G16_HD static fp2_tmpl one() { return {fp_t::one(), fp_t::zero()}; }
	G16_HD bool is_zero() const { return c0.is_zero() && c1.is_zero(); }

	G16_HD friend fp2_tmpl operator+(const fp2_tmpl& a, const fp2_tmpl& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
	G16_HD friend fp2_tmpl operator-(const fp2_tmpl& a, const fp2_tmpl& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
	G16_HD fp2_tmpl dbl() const { return {c0.dbl(), c1.dbl()}; }
	G16_HD fp2_tmpl neg() const { return {c0.neg(), c1.neg()}; }

	// Karatsuba, three Fp products:
	//   (a0 + a1·u)(b0 + b1·u) = (a0b0 − a1b1) + ((a0 + a1)(b0 + b1) − a0b0 − a1b1)·u
	G16_HD static fp2_tmpl mul(const fp2_tmpl& a, const fp2_tmpl& b) {
		fp_t t0 = a.c0 * b.c0;
		fp_t t1 = a.c1 * b.c1;
		fp_t t2 = (a.c0 + a.c1) * (b.c0 + b.c1);
		return {t0 - t1, t2 - t0 - t1};
	}
	// (a0 + a1·u)² = (a0 + a1)(a0 − a1) + 2·a0·a1·u, two Fp products.
	G16_HD static fp2_tmpl square(const fp2_tmpl& a) {
		fp_t t = a.c0 * a.c1;
		return {(a.c0 + a.c1) * (a.c0 - a.c1), t.dbl()};
	}
	G16_HD_CALL static fp2_tmpl mul_call(const fp2_tmpl& a, const fp2_tmpl& b) { return mul(a, b); }
	G16_HD_CALL static fp2_tmpl square_call(const fp2_tmpl& a) { return square(a); }

	G16_HD friend fp2_tmpl operator*(const fp2_tmpl& a, const fp2_tmpl& b) {
		if constexpr (INL)
			return mul(a, b);
		else
			return mul_call(a, b);
	}
	G16_HD fp2_tmpl sqr() const {
		if constexpr (INL)
			return square(*this);
		else
			return square_call(*this);
	}
};

typedef fp2_tmpl<false> fp2_t;
typedef fp2_tmpl<true> fp2i_t;

} // namespace g16
