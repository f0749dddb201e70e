// Fp2 = Fp[u]/(u² + k), the field of G2's coordinates, in gnark-crypto's
// layout: A0 then A1, each an element of Fp in Montgomery form. k is the
// curve's (its Fp parameters' NONRESIDUE: −k is not a square mod p): 1 on
// BLS12-381 and BN254 (p ≡ 3 mod 4), 5 on BLS12-377. fp2<Fp> is
// instantiated by each curve's parameter header (its fp2_t).
//
// The lazy products below need of Fp's parameters a bias B = p·2^j
// (BIAS_LO and bias(i): the limbs of B from limb BIAS_LO up, the limbs
// below being 0) with (1 + k)·p² < B and B + (1 + k)·p² < p·R, and
// p < 2^(32N−1) (so that the top bit of a reduced element, and of a
// double-width product of two sums of two elements, is 0: the order tokens
// read it). BLS12-381 (p < 2^381, R = 2^384) takes B = p·2^382, BN254
// (p < 2^254, R = 2^256) p·2^255, BLS12-377 (p < 2^377, R = 2^384)
// p·2^381.
#pragma once
#include "field.cuh"

namespace g16 {

template <class Fp>
struct fp2 {
	typedef Fp base;
	static const int DEGREE = 2;
	static const uint32_t K = Fp::params::NONRESIDUE; // u² = −K
	Fp c0, c1;

	G16_HD static fp2 zero() { return {Fp::zero(), Fp::zero()}; }
	G16_HD static fp2 one() { return {Fp::one(), Fp::zero()}; }
	G16_HD bool is_zero() const { return c0.is_zero() && c1.is_zero(); }

	G16_HD friend fp2 operator+(const fp2& a, const fp2& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
	G16_HD friend fp2 operator-(const fp2& a, const fp2& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
	G16_HD fp2 dbl() const { return {c0.dbl(), c1.dbl()}; }
	G16_HD fp2 neg() const { return {c0.neg(), c1.neg()}; }

	// K·x in Fp, by additions (K is small).
	G16_HD static Fp times_k(const Fp& x) {
		if constexpr (K == 1) {
			return x;
		} else {
			Fp r = x;
#pragma unroll
			for (uint32_t i = 1; i < K; i++) r = r + x;
			return r;
		}
	}

	// K·w for a double-width w below 2^(64N)/K, in place.
	G16_HD static void times_k_wide(uint32_t (&w)[Fp::W]) {
		if constexpr (K != 1) {
			uint64_t carry = 0;
#pragma unroll
			for (int i = 0; i < Fp::W; i++) {
				uint64_t t = (uint64_t)w[i] * K + carry;
				w[i] = (uint32_t)t;
				carry = t >> 32;
			}
		}
	}

	// Karatsuba, three Fp products:
	//   (a0 + a1·u)(b0 + b1·u) = (a0b0 − K·a1b1) + ((a0 + a1)(b0 + b1) − a0b0 − a1b1)·u
	G16_HD_CALL friend fp2 operator*(const fp2& a, const fp2& b) {
		Fp t0 = a.c0 * b.c0;
		Fp t1 = a.c1 * b.c1;
		Fp t2 = (a.c0 + a.c1) * (b.c0 + b.c1);
		return {t0 - times_k(t1), t2 - t0 - t1};
	}

	// Karatsuba with lazy reduction: the three products double-width
	// (Fp::mul_wide), combined unreduced, then two Montgomery reductions
	// (Fp::redc) instead of the three of three Fp products:
	//
	//   v0 = a0b0 − K·a1b1 + B,  v1 = (a0 + a1)(b0 + b1) − a0b0 − a1b1 = a0b1 + a1b0,
	//   c0 = REDC(v0),  c1 = REDC(v1),
	//
	// with B the bias of Fp's parameters (above). Bounds: a0 + a1 and
	// b0 + b1 are below 2p < 2^(32N−1), which mul_wide allows, and their
	// product below 4p² < 2^(64N−2). a0b0, a1b1 < p², so v0 lies in
	// (B − K·p², B + p²) ⊂ [0, p·R), and v1 in [0, 2p²) ⊂ [0, p·R): both
	// are what redc takes. v0 is computed mod 2^(64N) (the difference may
	// borrow; adding B brings it back in range).
	//
	// z is an order token (slots.cuh): 0, ORed into an operand of each
	// double-width product and set from a bit of the result that is 0,
	// so that the products run one after the other.
	G16_HD static fp2 mul_lazy(const fp2& a, const fp2& b, uint32_t& z) {
		const int W = Fp::W;
		uint32_t t0[W], t1[W], s[W];
		Fp b0 = b.c0, b1 = b.c1;
		b0.v[0] |= z;
		Fp::mul_wide(t0, a.c0.v, b0.v);
		b1.v[0] |= token(t0);
		Fp::mul_wide(t1, a.c1.v, b1.v);
		Fp::add_wide(s, t0, t1);
		times_k_wide(t1);
		Fp::sub_wide(t0, t0, t1);
		Fp::add_bias(t0);
		Fp c0 = Fp::redc(t0);
		Fp sa = Fp::add_unreduced(a.c0, a.c1), sb = Fp::add_unreduced(b.c0, b.c1);
		sb.v[0] |= c0.v[Fp::N - 1] >> 31; // c0 < p < 2^(32N−1)
		Fp::mul_wide(t0, sa.v, sb.v);
		Fp::sub_wide(t0, t0, s);
		Fp c1 = Fp::redc(t0);
		z = c1.v[Fp::N - 1] >> 31;
		return {c0, c1};
	}

	// a·b − c·d with lazy reduction: mul_lazy's six double-width products
	// combined before two reductions (instead of four):
	//
	//   c0 = REDC(a0b0 − K·a1b1 − c0d0 + K·c1d1 + B),
	//   c1 = REDC((a0 + a1)(b0 + b1) − a0b0 − a1b1 − (c0 + c1)(d0 + d1) + c0d0 + c1d1 + B)
	//      = REDC(a0b1 + a1b0 − c0d1 − c1d0 + B).
	//
	// Bounds: the first difference lies in (−(1 + K)·p², (1 + K)·p²), the
	// second in (−2p², 2p²), so with (1 + K)·p² < B and B + (1 + K)·p² <
	// p·R the values lie in [0, p·R), what redc takes; computed mod 2^(64N)
	// as in mul_lazy. z: the order token, as in mul_lazy; the products run
	// in the order a0b0, a1b1, c0d0, c1d1, (a0 + a1)(b0 + b1),
	// (c0 + c1)(d0 + d1), so that at most four double-width values are live.
	G16_HD static fp2 mul_sub_lazy(const fp2& a, const fp2& b, const fp2& c, const fp2& d, uint32_t& z) {
		const int W = Fp::W;
		uint32_t t0[W], t1[W], x[W], s[W];
		Fp b0 = b.c0, b1 = b.c1, d0 = d.c0, d1 = d.c1;
		b0.v[0] |= z;
		Fp::mul_wide(t0, a.c0.v, b0.v);
		b1.v[0] |= token(t0);
		Fp::mul_wide(t1, a.c1.v, b1.v);
		Fp::add_wide(s, t0, t1); // a0b0 + a1b1
		times_k_wide(t1);
		Fp::sub_wide(x, t0, t1); // a0b0 − K·a1b1
		d0.v[0] |= token(t1);
		Fp::mul_wide(t0, c.c0.v, d0.v);
		d1.v[0] |= token(t0);
		Fp::mul_wide(t1, c.c1.v, d1.v);
		Fp::sub_wide(x, x, t0);
		Fp::sub_wide(s, s, t0);
		Fp::sub_wide(s, s, t1); // a0b0 + a1b1 − c0d0 − c1d1
		times_k_wide(t1);
		Fp::add_wide(x, x, t1);
		Fp::add_bias(x);
		Fp r0 = Fp::redc(x);
		Fp sa = Fp::add_unreduced(a.c0, a.c1), sb = Fp::add_unreduced(b.c0, b.c1);
		sb.v[0] |= r0.v[Fp::N - 1] >> 31;
		Fp::mul_wide(t0, sa.v, sb.v);
		Fp::sub_wide(x, t0, s);
		Fp sc = Fp::add_unreduced(c.c0, c.c1), sd = Fp::add_unreduced(d.c0, d.c1);
		sd.v[0] |= token(t0);
		Fp::mul_wide(t0, sc.v, sd.v);
		Fp::sub_wide(x, x, t0);
		Fp::add_bias(x);
		Fp r1 = Fp::redc(x);
		z = r1.v[Fp::N - 1] >> 31;
		return {r0, r1};
	}

	// The order token of a double-width product below 2^(64N−1): its top bit.
	G16_HD static uint32_t token(const uint32_t (&t)[Fp::W]) { return t[Fp::W - 1] >> 31; }

	// a·b − c·d (curve.cuh's Y3), as two products: Fp's mul_sub shares one
	// reduction, Fp2's does not.
	G16_HD static fp2 mul_sub(const fp2& a, const fp2& b, const fp2& c, const fp2& d) {
		return a * b - c * d;
	}

	// (a0 + a1·u)² = ((a0 + a1)(a0 − K·a1) + (K − 1)·a0a1) + 2·a0·a1·u, two
	// Fp products.
	G16_HD_CALL fp2 sqr() const { return sqr_from(c0 * c1, (c0 + c1) * (c0 - times_k(c1))); }

	// The square from its two products t = a0·a1 and m = (a0 + a1)(a0 − K·a1).
	G16_HD fp2 sqr_from(const Fp& t, const Fp& m) const {
		if constexpr (K == 1)
			return {m, t.dbl()};
		else
			return {m + times_k(t) - t, t.dbl()};
	}

	// 1/(a + bu) = (a − bu)/(a² + K·b²), 0 for 0: one inversion in Fp
	// (mont_t::inv).
	G16_HD fp2 inv() const {
		Fp t = (c0.sqr() + times_k(c1.sqr())).inv();
		return {c0 * t, (c1 * t).neg()};
	}
};

} // namespace g16
