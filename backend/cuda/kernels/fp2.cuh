// Fp2 = Fp[u]/(u² + 1), the field of G2's coordinates, in gnark-crypto's
// layout: A0 then A1, each an fp_t in Montgomery form.
#pragma once
#include "bls12_381.cuh"

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

	// Karatsuba with lazy reduction: the three products double-width
	// (fp_t::mul_wide), combined unreduced, then two Montgomery reductions
	// (fp_t::redc) instead of the three of three Fp products:
	//
	//   v0 = a0b0 − a1b1 + B,  v1 = (a0 + a1)(b0 + b1) − a0b0 − a1b1 = a0b1 + a1b0,
	//   c0 = REDC(v0),  c1 = REDC(v1),
	//
	// with B = p·2^382 (fp_params::bias). Bounds (p < 2^381, R = 2^384):
	// a0 + a1 and b0 + b1 are below 2p < 2^382, which mul_wide allows, and
	// their product below 4p² < 2^764. a0b0, a1b1 < p², so v0 lies in
	// (B − p², B + p²) ⊂ [0, p·2^383) ⊂ [0, p·R), and v1 in [0, 2p²) ⊂
	// [0, p·R): both are what redc takes. v0 is computed mod 2^768 (the
	// difference may borrow; adding B brings it back in range).
	//
	// z is an order token (slots.cuh): 0, ORed into an operand of each
	// double-width product and set from a bit of the result that is 0,
	// so that the products run one after the other.
	G16_HD static fp2_t mul_lazy(const fp2_t& a, const fp2_t& b, uint32_t& z) {
		const int W = fp_t::W;
		uint32_t t0[W], t1[W], s[W];
		fp_t b0 = b.c0, b1 = b.c1;
		b0.v[0] |= z;
		fp_t::mul_wide(t0, a.c0.v, b0.v);
		b1.v[0] |= token(t0);
		fp_t::mul_wide(t1, a.c1.v, b1.v);
		fp_t::add_wide(s, t0, t1);
		fp_t::sub_wide(t0, t0, t1);
		fp_t::add_bias(t0);
		fp_t c0 = fp_t::redc(t0);
		fp_t sa = fp_t::add_unreduced(a.c0, a.c1), sb = fp_t::add_unreduced(b.c0, b.c1);
		sb.v[0] |= c0.v[fp_t::N - 1] >> 31; // c0 < p < 2^381
		fp_t::mul_wide(t0, sa.v, sb.v);
		fp_t::sub_wide(t0, t0, s);
		fp_t c1 = fp_t::redc(t0);
		z = c1.v[fp_t::N - 1] >> 31;
		return {c0, c1};
	}

	// a·b − c·d with lazy reduction: mul_lazy's six double-width products
	// combined before two reductions (instead of four):
	//
	//   c0 = REDC(a0b0 − a1b1 − c0d0 + c1d1 + B),
	//   c1 = REDC((a0 + a1)(b0 + b1) − a0b0 − a1b1 − (c0 + c1)(d0 + d1) + c0d0 + c1d1 + B)
	//      = REDC(a0b1 + a1b0 − c0d1 − c1d0 + B).
	//
	// Bounds: each of the two differences lies in (−2p², 2p²), so with B =
	// p·2^382 > 2p² (2p < 2^382) the values lie in (B − 2p², B + 2p²) ⊂
	// [0, p·2^383) ⊂ [0, p·R), what redc takes; computed mod 2^768 as in
	// mul_lazy. z: the order token, as in mul_lazy; the products run in the
	// order a0b0, a1b1, c0d0, c1d1, (a0 + a1)(b0 + b1), (c0 + c1)(d0 + d1),
	// so that at most four double-width values are live.
	G16_HD static fp2_t mul_sub_lazy(const fp2_t& a, const fp2_t& b, const fp2_t& c, const fp2_t& d, uint32_t& z) {
		const int W = fp_t::W;
		uint32_t t0[W], t1[W], x[W], s[W];
		fp_t b0 = b.c0, b1 = b.c1, d0 = d.c0, d1 = d.c1;
		b0.v[0] |= z;
		fp_t::mul_wide(t0, a.c0.v, b0.v);
		b1.v[0] |= token(t0);
		fp_t::mul_wide(t1, a.c1.v, b1.v);
		fp_t::add_wide(s, t0, t1); // a0b0 + a1b1
		fp_t::sub_wide(x, t0, t1); // a0b0 − a1b1
		d0.v[0] |= token(t1);
		fp_t::mul_wide(t0, c.c0.v, d0.v);
		d1.v[0] |= token(t0);
		fp_t::mul_wide(t1, c.c1.v, d1.v);
		fp_t::sub_wide(x, x, t0);
		fp_t::add_wide(x, x, t1);
		fp_t::sub_wide(s, s, t0);
		fp_t::sub_wide(s, s, t1); // a0b0 + a1b1 − c0d0 − c1d1
		fp_t::add_bias(x);
		fp_t r0 = fp_t::redc(x);
		fp_t sa = fp_t::add_unreduced(a.c0, a.c1), sb = fp_t::add_unreduced(b.c0, b.c1);
		sb.v[0] |= r0.v[fp_t::N - 1] >> 31;
		fp_t::mul_wide(t0, sa.v, sb.v);
		fp_t::sub_wide(x, t0, s);
		fp_t sc = fp_t::add_unreduced(c.c0, c.c1), sd = fp_t::add_unreduced(d.c0, d.c1);
		sd.v[0] |= token(t0);
		fp_t::mul_wide(t0, sc.v, sd.v);
		fp_t::sub_wide(x, x, t0);
		fp_t::add_bias(x);
		fp_t r1 = fp_t::redc(x);
		z = r1.v[fp_t::N - 1] >> 31;
		return {r0, r1};
	}

	// The order token of a double-width product below 2^767: its top bit.
	G16_HD static uint32_t token(const uint32_t (&t)[fp_t::W]) { return t[fp_t::W - 1] >> 31; }

	// a·b − c·d (curve.cuh's Y3), as two products: Fp's mul_sub shares one
	// reduction, Fp2's does not.
	G16_HD static fp2_t mul_sub(const fp2_t& a, const fp2_t& b, const fp2_t& c, const fp2_t& d) {
		return a * b - c * d;
	}

	// (a0 + a1·u)² = (a0 + a1)(a0 − a1) + 2·a0·a1·u, two Fp products.
	G16_HD_CALL fp2_t sqr() const {
		fp_t t = c0 * c1;
		return {(c0 + c1) * (c0 - c1), t.dbl()};
	}
};

} // namespace g16
