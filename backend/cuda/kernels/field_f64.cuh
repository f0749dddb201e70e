// Fp Montgomery multiplication on the FP64 pipe, used by curve_f64.cuh's G1
// addition under f64.h's flags (not the default).
//
// Measured (BENCHMARKS.md, runs 14 and 15): 0.91× fp_t's products a second
// alone and 1.01× beside an fp_t chain, the FP64 pipe 56% busy: its DFMA
// bursts and integer bursts do not overlap at five warps a scheduler. The
// hybrid G1 addition is 21% slower than fp_t's. Kept for the record and as
// the starting point of a lower-latency variant.
//
// Why: the MSM's accumulation is bound by its 32-bit products, IMAD.WIDE on
// the fmaheavy pipe (BENCHMARKS.md), while the FP64 units, 64 fused
// multiply-adds a clock an SM on Hopper, sit idle. An exact
// integer product can be taken from two DFMAs (Emmart, Luo and Weems,
// "Optimizing modular multiplication for NVIDIA's Maxwell GPUs" and "Faster
// modular exponentiation using double precision floating point arithmetic on
// the GPU", ARITH 2016 and 2018, describe the idea for modular
// exponentiation; the code here is our own).
//
// Representation: fp64_t holds the same Montgomery form as fp_t (R = 2^384),
// as 8 limbs of 48 bits, each an exact integer in a double. For limbs
// a, b < 2^48 the product x = a·b < 2^96 splits exactly as x = H + L:
//
//   hi = fma(a, b, 2^100)             x + 2^100 rounded to a multiple of 2^48
//                                     (the ulp at 2^100): hi = 2^100 + H
//   t  = (2^100 + 3·2^51) − hi        = 3·2^51 − H, exact (multiples of 2^48)
//   lo = fma(a, b, t)                 = L + 3·2^51 with L = x − H, |L| ≤ 2^47:
//                                     exact (in [2^52, 2^53), ulp 1)
//
// The bit patterns then carry the integers: bits(hi) − bits(2^100) = H/2^48
// and bits(lo) − bits(3·2^51) = L, so column k of the product (weight
// 2^(48k)) sums them as 64-bit integers (mod 2^64; a column's true value
// stays below 2^53 in magnitude). Three FP64 operations and two 64-bit
// integer additions a limb product, against one IMAD.WIDE (four cycles of
// the fmaheavy pipe a warp) for each of the 32-bit limb products of fp_t,
// whose Fp product has 2.25 times as many of them (288 against 128).
//
// The reduction is Montgomery's, limb by limb over the columns: for column
// i = 0..7, q = (c_i mod 2^48)·(−p⁻¹) mod 2^48, c += q·p·2^(48i) (the same
// split products), which zeroes c_i mod 2^48, and c_(i+1) += c_i >> 48
// (arithmetic: columns may be negative). Columns 8..15 are then the result,
// normalised to 48-bit limbs. For a, b < 2p the result is below 2p (4p <
// 2^384), so products chain without a final subtraction; to_fp() reduces
// fully.
#pragma once
#include <cmath>
#include <cstring>

#include "field.cuh"

namespace g16 {

namespace f64 {

G16_HD double fma_rn(double a, double b, double c) {
#ifdef __CUDA_ARCH__
	return __fma_rn(a, b, c);
#else
	return std::fma(a, b, c);
#endif
}

G16_HD double add_rn(double a, double b) {
#ifdef __CUDA_ARCH__
	return __dadd_rn(a, b);
#else
	return a + b;
#endif
}

G16_HD uint64_t bits(double x) {
#ifdef __CUDA_ARCH__
	return (uint64_t)__double_as_longlong(x);
#else
	uint64_t u;
	std::memcpy(&u, &x, sizeof u);
	return u;
#endif
}

G16_HD double from_bits(uint64_t u) {
#ifdef __CUDA_ARCH__
	return __longlong_as_double((long long)u);
#else
	double x;
	std::memcpy(&x, &u, sizeof x);
	return x;
#endif
}

const uint64_t MASK = (1ull << 48) - 1;
const uint64_t BITS_2P52 = 0x4330000000000000ull;  // bits(2^52)
const uint64_t BITS_C1 = 0x4630000000000000ull;    // bits(2^100)
const uint64_t BITS_C3 = 0x4338000000000000ull;    // bits(3·2^51)
const uint64_t M0 = 0xfffcfffcfffdull;             // −p⁻¹ mod 2^48

// u48 is u < 2^52 as a double, exactly: 2^52 + u has u in its mantissa.
G16_HD double u48(uint64_t u) { return add_rn(from_bits(u | BITS_2P52), -4503599627370496.0); }

// p's limbs (called with compile-time indices only).
G16_HD double mod(int j) {
	const double m[8] = {281474976688811.0, 194974335351294.0, 270634993844222.0, 113459389855408.0,
	                     83034393350847.0,  73992301405303.0,  253550359455670.0, 28591897852287.0};
	return m[j];
}

// split adds a·b (limbs below 2^50) into columns k and k + 1.
G16_HD void split(uint64_t (&c)[16], int k, double a, double b) {
	const double C1 = 1267650600228229401496703205376.0;  // 2^100
	const double C13 = 1267650600228236156896144261120.0; // 2^100 + 3·2^51
	double hi = fma_rn(a, b, C1);
	double lo = fma_rn(a, b, add_rn(C13, -hi));
	c[k] += bits(lo) - BITS_C3;
	if (k + 1 < 16) c[k + 1] += bits(hi) - BITS_C1;
}

} // namespace f64

struct fp64_t {
	static const int N = 8;
	double v[N];

	// from_fp regroups fp_t's twelve 32-bit limbs into eight of 48 bits.
	G16_HD static fp64_t from_fp(const fp_t& a) {
		fp64_t r;
#pragma unroll
		for (int k = 0; k < N; k++) {
			int w = (48 * k) >> 5, sh = (48 * k) & 31;
			uint64_t two = (uint64_t)a.v[w] | ((uint64_t)a.v[w + 1] << 32);
			r.v[k] = f64::u48((two >> sh) & f64::MASK);
		}
		return r;
	}

	// to_fp is the element as fp_t, fully reduced (this is below 2p).
	G16_HD fp_t to_fp() const {
		uint64_t l[N];
#pragma unroll
		for (int k = 0; k < N; k++) l[k] = f64::bits(f64::add_rn(v[k], 4503599627370496.0)) & f64::MASK;
		uint32_t t[fp_t::N];
#pragma unroll
		for (int w = 0; w < fp_t::N; w++) {
			int k = (32 * w) / 48, sh = (32 * w) % 48;
			uint64_t x = l[k] >> sh;
			if (sh > 16 && k + 1 < N) x |= l[k + 1] << (48 - sh);
			t[w] = (uint32_t)x;
		}
		return fp_t::reduce_once(t, 0);
	}

	// a·b·2^-384 mod p, below 2p, for a, b below 2p.
	G16_HD friend fp64_t operator*(const fp64_t& a, const fp64_t& b) {
		uint64_t c[16];
#pragma unroll
		for (int k = 0; k < 16; k++) c[k] = 0;
#pragma unroll
		for (int i = 0; i < N; i++)
#pragma unroll
			for (int j = 0; j < N; j++) f64::split(c, i + j, a.v[i], b.v[j]);
#pragma unroll
		for (int i = 0; i < N; i++) {
			uint64_t q = ((c[i] & f64::MASK) * f64::M0) & f64::MASK;
			double qd = f64::u48(q);
#pragma unroll
			for (int j = 0; j < N; j++) f64::split(c, i + j, qd, f64::mod(j));
			c[i + 1] += (uint64_t)((int64_t)c[i] >> 48);
		}
		fp64_t r;
#pragma unroll
		for (int k = N; k < 2 * N; k++) {
			if (k + 1 < 2 * N) c[k + 1] += (uint64_t)((int64_t)c[k] >> 48);
			r.v[k - N] = f64::u48(c[k] & f64::MASK);
		}
		return r;
	}
};

} // namespace g16
