// BW6-761's two prime fields, as parameters of field.cuh's mont_t: Fp, the
// base field (761 bits, 24 limbs of 32 bits), and Fr, the scalar field (377
// bits, 12 limbs: BLS12-377's Fp), in gnark-crypto's Montgomery form
// (R = 2^768 and 2^384). Both G1 and G2 are curves y² = x³ + b over Fp
// (a = 0; G2 is the twist, over Fp itself), so fp_t is the coordinate
// field of both groups and there is no Fp2. The constants were computed
// from the moduli (m0 = −m⁻¹ mod 2^32, one = R mod m, half = (r − 1)/2);
// the host tests check them against gnark-crypto's ecc/bw6-761.
#pragma once
#include "field.cuh"

namespace g16 {
namespace bw6_761 {

// Fr's m0 (−1: r is 1 mod 2^32), read from constant memory on the device
// for the reason bls12_381.cuh gives for its Fr.
static __constant__ uint32_t fr_m0_dev = 0xffffffff;

struct fr_params;

struct fp_params {
	static const int N = 24;
	typedef fr_params scalar; // the curve's scalar field
	// p = 0x122e824fb83ce0ad187c94004faff3eb926186a81d14688528275ef8087be41707ba638e584e91903cebaff25b423048689c8ed12f9fd9071dcd3dc73ebff2e98a116c25667a8f8160cf8aeeaf0a437e6913e6870000082f49d00000000008b
	G16_HD static uint32_t mod(int i) {
		const uint32_t m[N] = {0x0000008b, 0xf49d0000, 0x70000082, 0xe6913e68, 0xeaf0a437, 0x160cf8ae,
		                       0x5667a8f8, 0x98a116c2, 0x73ebff2e, 0x71dcd3dc, 0x12f9fd90, 0x8689c8ed,
		                       0x25b42304, 0x03cebaff, 0xe584e919, 0x707ba638, 0x8087be41, 0x528275ef,
		                       0x81d14688, 0xb926186a, 0x04faff3e, 0xd187c940, 0xfb83ce0a, 0x0122e824};
		return m[i];
	}
	G16_HD static uint32_t one(int i) {
		const uint32_t o[N] = {0xffff85d5, 0x0202ffff, 0x8fff8ce7, 0x5a582635, 0x827faade, 0x9e996e43,
		                       0x0ee47df4, 0xda6aff32, 0x1d94b80b, 0xece9cb3e, 0x5248240b, 0xc0e667a2,
		                       0xdcad3905, 0xa74da5bf, 0x462f2103, 0x2352e7fe, 0x08b1c87c, 0x7b565880,
		                       0xe711022f, 0x45848a63, 0x9f65a9df, 0xd7a81ebb, 0xf127e87d, 0x0051f77e};
		return o[i];
	}
	static const uint32_t m0 = 0x8fa798dd;
	// m0 as the multiplication's reduction reads it (an immediate here).
	G16_HD static uint32_t redc_m0() { return m0; }
};

struct fr_params {
	static const int N = 12;
	// The bits the MSM's windows cover: r's bit length.
	static const int BITS = 377;
	// r = 0x01ae3a4617c510eac63b05c06ca1493b1a22d9f300f5138f1ef3622fba094800170b5d44300000008508c00000000001
	G16_HD static uint32_t mod(int i) {
		const uint32_t m[N] = {0x00000001, 0x8508c000, 0x30000000, 0x170b5d44, 0xba094800, 0x1ef3622f,
		                       0x00f5138f, 0x1a22d9f3, 0x6ca1493b, 0xc63b05c0, 0x17c510ea, 0x01ae3a46};
		return m[i];
	}
	// (r−1)/2: scalars above it are negated before windowing.
	G16_HD static uint32_t half(int i) {
		const uint32_t h[N] = {0x00000000, 0x42846000, 0x18000000, 0x0b85aea2, 0xdd04a400, 0x8f79b117,
		                       0x807a89c7, 0x8d116cf9, 0x3650a49d, 0x631d82e0, 0x0be28875, 0x00d71d23};
		return h[i];
	}
	G16_HD static uint32_t one(int i) {
		const uint32_t o[N] = {0xffffff68, 0x02cdffff, 0x7fffffb1, 0x51409f83, 0x8a7d3ff2, 0x9f7db3a9,
		                       0x6e7c6305, 0x7b4e97b7, 0x803c84e8, 0x4cf495bf, 0xe2fdf49a, 0x008d6661};
		return o[i];
	}
	static const uint32_t m0 = 0xffffffff;
	G16_HD static uint32_t redc_m0() {
#ifdef __CUDA_ARCH__
		return fr_m0_dev;
#else
		return m0;
#endif
	}
};

typedef mont_t<fp_params> fp_t;
typedef mont_t<fr_params> fr_t;

} // namespace bw6_761
} // namespace g16
