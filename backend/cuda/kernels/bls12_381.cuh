// BLS12-381's two prime fields, as parameters of field.cuh's mont_t: Fp,
// the base field (381 bits, 12 limbs of 32 bits), and Fr, the scalar field
// (255 bits, 8 limbs), in gnark-crypto's Montgomery form (R = 2^384 and
// 2^256), and Fp2 = Fp[u]/(u² + 1) (fp2.cuh): fp_t, fr_t and fp2_t are
// the types the kernels use.
#pragma once
#include "fp2.cuh"

namespace g16 {
namespace bls12_381 {

struct fr_params;

struct fp_params {
	static const int N = 12;
	typedef fr_params scalar; // the curve's scalar field
	static const uint32_t NONRESIDUE = 1; // Fp2 = Fp[u]/(u² + 1)
	// p = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
	G16_HD static uint32_t mod(int i) {
		const uint32_t m[N] = {0xffffaaab, 0xb9feffff, 0xb153ffff, 0x1eabfffe, 0xf6b0f624, 0x6730d2a0,
		                       0xf38512bf, 0x64774b84, 0x434bacd7, 0x4b1ba7b6, 0x397fe69a, 0x1a0111ea};
		return m[i];
	}
	G16_HD static uint32_t one(int i) {
		const uint32_t o[N] = {0x0002fffd, 0x76090000, 0xc40c0002, 0xebf4000b, 0x53c758ba, 0x5f489857,
		                       0x70525745, 0x77ce5853, 0xa256ec6d, 0x5c071a97, 0xfa80e493, 0x15f65ec3};
		return o[i];
	}
	static const uint32_t m0 = 0xfffcfffd;
	// m0 as the multiplication's reduction reads it (an immediate here).
	G16_HD static uint32_t redc_m0() { return m0; }
	// p·2^382, limb by limb from limb BIAS_LO (the limbs below are 0): the
	// multiple of p that Fp2's lazy products (fp2.cuh) add to a difference
	// of double-width products to keep it non-negative (2p² < p·2^382 and
	// p·2^382 + 2p² < p·2^384).
	static const int BIAS_LO = 11;
	G16_HD static uint32_t bias(int i) {
		const uint32_t c[2 * N - BIAS_LO] = {0xc0000000, 0xffffeaaa, 0xee7fbfff, 0xac54ffff, 0x07aaffff,
		                                     0x3dac3d89, 0xd9cc34a8, 0x3ce144af, 0xd91dd2e1, 0x90d2eb35,
		                                     0x92c6e9ed, 0x8e5ff9a6, 0x0680447a};
		return c[i - BIAS_LO];
	}
};

// Fr's m0 (−1), read from constant memory by the multiplication's
// reduction on the device: when ptxas sees the immediate it knows q = −t_0
// and splits the reduction's fused multiply-adds (IMAD.WIDE.U32.X) into
// IMAD.X/IMAD.HI.U32.X pairs, about 50 more instructions per Fr product.
static __constant__ uint32_t fr_m0_dev = 0xffffffff;

struct fr_params {
	static const int N = 8;
	// The bits the MSM's windows cover: r's bit length.
	static const int BITS = 255;
	// r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
	G16_HD static uint32_t mod(int i) {
		const uint32_t m[N] = {0x00000001, 0xffffffff, 0xfffe5bfe, 0x53bda402,
		                       0x09a1d805, 0x3339d808, 0x299d7d48, 0x73eda753};
		return m[i];
	}
	// (r−1)/2: scalars above it are negated before windowing.
	G16_HD static uint32_t half(int i) {
		const uint32_t h[N] = {0x80000000, 0x7fffffff, 0x7fff2dff, 0xa9ded201,
		                       0x04d0ec02, 0x199cec04, 0x94cebea4, 0x39f6d3a9};
		return h[i];
	}
	G16_HD static uint32_t one(int i) {
		const uint32_t o[N] = {0xfffffffe, 0x00000001, 0x00034802, 0x5884b7fa,
		                       0xecbc4ff5, 0x998c4fef, 0xacc5056f, 0x1824b159};
		return o[i];
	}
	static const uint32_t m0 = 0xffffffff;
	// m0 as the multiplication's reduction reads it (see fr_m0_dev).
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
typedef fp2<fp_t> fp2_t;

} // namespace bls12_381
} // namespace g16
