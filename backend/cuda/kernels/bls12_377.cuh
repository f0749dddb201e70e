// BLS12-377's two prime fields, as parameters of field.cuh's mont_t: Fp,
// the base field (377 bits, 12 limbs of 32 bits), and Fr, the scalar field
// (253 bits, 8 limbs), in gnark-crypto's Montgomery form (R = 2^384 and
// 2^256), and Fp2 = Fp[u]/(u² + 5) (fp2.cuh; p ≡ 1 mod 4, so −1 is a
// square and −5 is not): fp_t, fr_t and fp2_t are the types the kernels
// use. The constants were computed from the moduli (m0 = −m⁻¹ mod 2^32,
// one = R mod m, half = (r − 1)/2, bias = p·2^381); the host tests check
// them against gnark-crypto's ecc/bls12-377.
#pragma once
#include "fp2.cuh"

namespace g16 {
namespace bls12_377 {

// Both moduli are 1 mod 2^32, so m0 = −1 for both, read from constant
// memory on the device for the reason bls12_381.cuh gives for its Fr.
static __constant__ uint32_t m0_dev = 0xffffffff;

struct fr_params;

struct fp_params {
	static const int N = 12;
	typedef fr_params scalar;             // the curve's scalar field
	static const uint32_t NONRESIDUE = 5; // Fp2 = Fp[u]/(u² + 5)
	// p = 0x01ae3a4617c510eac63b05c06ca1493b1a22d9f300f5138f1ef3622fba094800170b5d44300000008508c00000000001
	G16_HD static uint32_t mod(int i) {
		const uint32_t m[N] = {0x00000001, 0x8508c000, 0x30000000, 0x170b5d44, 0xba094800, 0x1ef3622f,
		                       0x00f5138f, 0x1a22d9f3, 0x6ca1493b, 0xc63b05c0, 0x17c510ea, 0x01ae3a46};
		return m[i];
	}
	G16_HD static uint32_t one(int i) {
		const uint32_t o[N] = {0xffffff68, 0x02cdffff, 0x7fffffb1, 0x51409f83, 0x8a7d3ff2, 0x9f7db3a9,
		                       0x6e7c6305, 0x7b4e97b7, 0x803c84e8, 0x4cf495bf, 0xe2fdf49a, 0x008d6661};
		return o[i];
	}
	static const uint32_t m0 = 0xffffffff;
	G16_HD static uint32_t redc_m0() {
#ifdef __CUDA_ARCH__
		return m0_dev;
#else
		return m0;
#endif
	}
	// p·2^381 from limb BIAS_LO up (the limbs below are 0): Fp2's bias
	// (fp2.cuh; 6p² < p·2^381 and p·2^381 + 6p² < p·2^384).
	static const int BIAS_LO = 11;
	G16_HD static uint32_t bias(int i) {
		const uint32_t c[2 * N - BIAS_LO] = {0x20000000, 0x00000000, 0x10a11800, 0x86000000, 0x02e16ba8,
		                                     0xf7412900, 0xe3de6c45, 0x601ea271, 0x63445b3e, 0x0d942927,
		                                     0x58c760b8, 0xc2f8a21d, 0x0035c748};
		return c[i - BIAS_LO];
	}
};

struct fr_params {
	static const int N = 8;
	// The bits the MSM's windows cover: 255, above r's 253, as on
	// BLS12-381, so that the curves of 8-limb scalars share their window
	// plans (backend/cuda's pickWindow and scratch model).
	static const int BITS = 255;
	// r = 0x12ab655e9a2ca55660b44d1e5c37b00159aa76fed00000010a11800000000001
	G16_HD static uint32_t mod(int i) {
		const uint32_t m[N] = {0x00000001, 0x0a118000, 0xd0000001, 0x59aa76fe,
		                       0x5c37b001, 0x60b44d1e, 0x9a2ca556, 0x12ab655e};
		return m[i];
	}
	// (r−1)/2: scalars above it are negated before windowing.
	G16_HD static uint32_t half(int i) {
		const uint32_t h[N] = {0x00000000, 0x8508c000, 0x68000000, 0xacd53b7f,
		                       0x2e1bd800, 0x305a268f, 0x4d1652ab, 0x0955b2af};
		return h[i];
	}
	G16_HD static uint32_t one(int i) {
		const uint32_t o[N] = {0xfffffff3, 0x7d1c7fff, 0x6ffffff2, 0x7257f50f,
		                       0x512c0fee, 0x16d81575, 0x2bbb9a9d, 0x0d4bda32};
		return o[i];
	}
	static const uint32_t m0 = 0xffffffff;
	G16_HD static uint32_t redc_m0() {
#ifdef __CUDA_ARCH__
		return m0_dev;
#else
		return m0;
#endif
	}
};

typedef mont_t<fp_params> fp_t;
typedef mont_t<fr_params> fr_t;
typedef fp2<fp_t> fp2_t;

} // namespace bls12_377
} // namespace g16
