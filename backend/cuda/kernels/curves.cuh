// The curves the kernels compute on, and the C interface's codes for them
// (g16cuda.h: G16_CURVE_*, G16_GROUP): every kernel template is written
// over a coordinate field F (a curve's Fp for G1, its Fp2 for G2) or a
// scalar field Fr, and instantiated here for each curve.
#pragma once
#include <string>

#include "bls12_377.cuh"
#include "bls12_381.cuh"
#include "bn254.cuh"
#include "curve.cuh"
#include "status.cuh"

namespace g16 {

// fr_of<F>: the scalar field of the curve whose coordinates are in F.
template <class F>
using fr_of = mont_t<typename F::base::params::scalar>;

// is_ext<F>: whether F is an extension field (G2's coordinates).
template <class F>
constexpr bool is_ext = F::DEGREE == 2;

// with_group calls fn(F{}) with the coordinate field F of group, a
// G16_GROUP code; another code fails with G16_INVALID naming op.
template <class Fn>
void with_group(int group, const char* op, Fn&& fn) {
	switch (group) {
	case G16_GROUP(G16_CURVE_BLS12_381, 1): fn(bls12_381::fp_t{}); return;
	case G16_GROUP(G16_CURVE_BLS12_381, 2): fn(bls12_381::fp2_t{}); return;
	case G16_GROUP(G16_CURVE_BN254, 1): fn(bn254::fp_t{}); return;
	case G16_GROUP(G16_CURVE_BN254, 2): fn(bn254::fp2_t{}); return;
	case G16_GROUP(G16_CURVE_BLS12_377, 1): fn(bls12_377::fp_t{}); return;
	case G16_GROUP(G16_CURVE_BLS12_377, 2): fn(bls12_377::fp2_t{}); return;
	}
	fail(G16_INVALID, std::string(op) + ": group " + std::to_string(group) +
	                      " is not G16_GROUP(curve, 1 or 2) of a curve the kernels compute on (1 to 6)");
}

// with_scalars calls fn(Fr{}) with the scalar field of curve, a
// G16_CURVE_* code; another code fails with G16_INVALID naming op.
template <class Fn>
void with_scalars(int curve, const char* op, Fn&& fn) {
	switch (curve) {
	case G16_CURVE_BLS12_381: fn(bls12_381::fr_t{}); return;
	case G16_CURVE_BN254: fn(bn254::fr_t{}); return;
	case G16_CURVE_BLS12_377: fn(bls12_377::fr_t{}); return;
	}
	fail(G16_INVALID, std::string(op) + ": curve " + std::to_string(curve) +
	                      " is not a G16_CURVE_* the kernels compute on (1 to 3)");
}

} // namespace g16
