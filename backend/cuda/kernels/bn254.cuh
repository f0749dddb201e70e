// BN254's two prime fields (alt_bn128: Ethereum's pairing curve), as
// parameters of field.cuh's mont_t: Fp, the base field, and Fr, the scalar
// field, both of 254 bits in 8 limbs of 32 bits, and Fp2 = Fp[u]/(u² + 1)
// (fp2.cuh), G2's coordinates. Elements are in gnark-crypto's Montgomery
// form (R = 2^256): gnark's [4]uint64 and our [8]uint32 are the same bytes.
//
// Both moduli are below 2^254, so 4m < R: the two spare bits mont_t's
// product needs. The constants were computed from the moduli (m0 =
// −m⁻¹ mod 2^32, one = R mod m, half = (r − 1)/2, bias = p·2^255); the
// host tests check every operation against gnark-crypto's ecc/bn254/fp, fr
// and E2.
#pragma once
#include "fp2.cuh"

namespace g16 {
namespace bn254 {

struct fr_params;

struct fp_params {
	static const int N = 8;
	typedef fr_params scalar; // the curve's scalar field
	static const uint32_t NONRESIDUE = 1; // Fp2 = Fp[u]/(u² + 1)
	// p = 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47
	G16_HD static uint32_t mod(int i) {
		const uint32_t m[N] = {0xd87cfd47, 0x3c208c16, 0x6871ca8d, 0x97816a91,
		                       0x8181585d, 0xb85045b6, 0xe131a029, 0x30644e72};
		return m[i];
	}
	G16_HD static uint32_t one(int i) {
		const uint32_t o[N] = {0xc58f0d9d, 0xd35d438d, 0xf5c70b3d, 0x0a78eb28,
		                       0x7879462c, 0x666ea36f, 0x9a07df2f, 0x0e0a77c1};
		return o[i];
	}
	static const uint32_t m0 = 0xe4866389;
	G16_HD static uint32_t redc_m0() { return m0; }
	// p·2^255 from limb BIAS_LO up (the limbs below are 0): Fp2's bias
	// (fp2.cuh; 2p² < p·2^255 and p·2^255 + 2p² < p·2^256).
	static const int BIAS_LO = 7;
	G16_HD static uint32_t bias(int i) {
		const uint32_t c[2 * N - BIAS_LO] = {0x80000000, 0x6c3e7ea3, 0x9e10460b, 0xb438e546, 0xcbc0b548,
		                                     0x40c0ac2e, 0xdc2822db, 0x7098d014, 0x18322739};
		return c[i - BIAS_LO];
	}
};

struct fr_params {
	static const int N = 8;
	// The bits the MSM's windows cover: 255, one above r's bit length,
	// as on BLS12-381, so that the curves of 8-limb scalars share their
	// window plans (backend/cuda's pickWindow and scratch model).
	static const int BITS = 255;
	// r = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001
	G16_HD static uint32_t mod(int i) {
		const uint32_t m[N] = {0xf0000001, 0x43e1f593, 0x79b97091, 0x2833e848,
		                       0x8181585d, 0xb85045b6, 0xe131a029, 0x30644e72};
		return m[i];
	}
	G16_HD static uint32_t one(int i) {
		const uint32_t o[N] = {0x4ffffffb, 0xac96341c, 0x9f60cd29, 0x36fc7695,
		                       0x7879462e, 0x666ea36f, 0x9a07df2f, 0x0e0a77c1};
		return o[i];
	}
	// (r−1)/2: scalars above it are negated before windowing.
	G16_HD static uint32_t half(int i) {
		const uint32_t h[N] = {0xf8000000, 0xa1f0fac9, 0x3cdcb848, 0x9419f424,
		                       0x40c0ac2e, 0xdc2822db, 0x7098d014, 0x18322739};
		return h[i];
	}
	static const uint32_t m0 = 0xefffffff;
	G16_HD static uint32_t redc_m0() { return m0; }
};

typedef mont_t<fp_params> fp_t;
typedef mont_t<fr_params> fr_t;
typedef fp2<fp_t> fp2_t;

} // namespace bn254
} // namespace g16
