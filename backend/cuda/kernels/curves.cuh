// The curves the kernels compute on, and the C interface's codes for them
// (g16cuda.h: G16_CURVE_*, G16_GROUP): every kernel template is written
// over a coordinate field F (a curve's Fp for G1, its Fp2 for G2, BW6-761's
// Fp for both) or a scalar field Fr, and instantiated here for each curve.
#pragma once
#include <string>

#include "bls12_377.cuh"
#include "bls12_381.cuh"
#include "bn254.cuh"
#include "bw6_761.cuh"
#include "curve.cuh"
#include "status.cuh"

namespace g16 {

// fr_of<F>: the scalar field of the curve whose coordinates are in F.
template <class F>
using fr_of = mont_t<typename F::base::params::scalar>;

// slot_point<F>: whether the MSM over points with coordinates in F runs
// the slot kernels (msm_slots.h: the points in shared memory) instead of
// the register kernels: coordinates of more than 48 bytes (12 limbs), whose
// XYZZ point does not fit in registers beside a product. That is G2 on the
// curves with Fp2, and both groups of BW6-761, whose Fp (24 limbs) is as
// wide as BLS12-381's Fp2.
template <class F>
constexpr bool slot_point = sizeof(F) > 48;

// group_t<F, G>: group G (1 or 2) of a curve, its points' coordinates in F.
// BW6-761's G1 and G2 are both over its Fp: the tag tells them apart where
// F alone cannot; the MSM's templates take F (the same code serves both).
template <class F, int G>
struct group_t {
	typedef F field;
	static const int g = G;
};

// with_group calls fn(group_t<F, g>{}) for group, a G16_GROUP code; another
// code fails with G16_INVALID naming op.
template <class Fn>
void with_group(int group, const char* op, Fn&& fn) {
	switch (group) {
	case G16_GROUP(G16_CURVE_BLS12_381, 1): fn(group_t<bls12_381::fp_t, 1>{}); return;
	case G16_GROUP(G16_CURVE_BLS12_381, 2): fn(group_t<bls12_381::fp2_t, 2>{}); return;
	case G16_GROUP(G16_CURVE_BN254, 1): fn(group_t<bn254::fp_t, 1>{}); return;
	case G16_GROUP(G16_CURVE_BN254, 2): fn(group_t<bn254::fp2_t, 2>{}); return;
	case G16_GROUP(G16_CURVE_BLS12_377, 1): fn(group_t<bls12_377::fp_t, 1>{}); return;
	case G16_GROUP(G16_CURVE_BLS12_377, 2): fn(group_t<bls12_377::fp2_t, 2>{}); return;
	case G16_GROUP(G16_CURVE_BW6_761, 1): fn(group_t<bw6_761::fp_t, 1>{}); return;
	case G16_GROUP(G16_CURVE_BW6_761, 2): fn(group_t<bw6_761::fp_t, 2>{}); return;
	}
	fail(G16_INVALID, std::string(op) + ": group " + std::to_string(group) +
	                      " is not G16_GROUP(curve, 1 or 2) of a curve the kernels compute on (1 to 8)");
}

// with_scalars calls fn(Fr{}) with the scalar field of curve, a
// G16_CURVE_* code; another code fails with G16_INVALID naming op.
template <class Fn>
void with_scalars(int curve, const char* op, Fn&& fn) {
	switch (curve) {
	case G16_CURVE_BLS12_381: fn(bls12_381::fr_t{}); return;
	case G16_CURVE_BN254: fn(bn254::fr_t{}); return;
	case G16_CURVE_BLS12_377: fn(bls12_377::fr_t{}); return;
	case G16_CURVE_BW6_761: fn(bw6_761::fr_t{}); return;
	}
	fail(G16_INVALID, std::string(op) + ": curve " + std::to_string(curve) +
	                      " is not a G16_CURVE_* the kernels compute on (1 to 4)");
}

} // namespace g16
