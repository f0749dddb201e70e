// Fp2 = Fp[u]/(u² + 1), the field of G2's coordinates, in gnark-crypto's
// layout: A0 then A1, each an fp_t in Montgomery form.
#pragma once
#include "field.cuh"

namespace g16 {

struct fp2_t {
	fp_t c0, c1;

	G16_HD static fp2_t zero() { return {fp_t::zero(), fp_t::zero()}; }
	G16_HD static fp2_t one() { return {fp_t::one(), fp_t::zero()}; }
	G16_HD bool is_zero() const { return c0.is_zero() && c1.is_zero(); }

	G16_HD friend fp2_t operator+(const fp2_t& a, const fp2_t& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
	G16_HD friend fp2_t operator-(const fp2_t& a, const fp2_t& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
	G16_HD fp2_t dbl() const { return {c0.dbl(), c1.dbl()}; }
	G16_HD fp2_t neg() const { return {c0.neg(), c1.neg()}; }

	// Karatsuba, three Fp products:
	//   (a0 + a1·u)(b0 + b1·u) = (a0b0 − a1b1) + ((a0 + a1)(b0 + b1) − a0b0 − a1b1)·u
	G16_HD_CALL friend fp2_t operator*(const fp2_t& a, const fp2_t& b) {
		fp_t t0 = a.c0 * b.c0;
		fp_t t1 = a.c1 * b.c1;
		fp_t t2 = (a.c0 + a.c1) * (b.c0 + b.c1);
		return {t0 - t1, t2 - t0 - t1};
	}

	// (a0 + a1·u)² = (a0 + a1)(a0 − a1) + 2·a0·a1·u, two Fp products.
	G16_HD_CALL fp2_t sqr() const {
		fp_t t = c0 * c1;
		return {(c0 + c1) * (c0 - c1), t.dbl()};
	}
};

} // namespace g16
