// BN254's two prime fields (alt_bn128: Ethereum's pairing curve), as
// parameters of field.cuh's mont_t: Fp, the base field, and Fr, the scalar
// field, both of 254 bits in 8 limbs of 32 bits. Elements are in
// gnark-crypto's Montgomery form (R = 2^256): gnark's [4]uint64 and our
// [8]uint32 are the same bytes.
//
// Both moduli are below 2^254, so 4m < R: the two spare bits mont_t's
// product needs. The constants were computed from the moduli (m0 =
// −m⁻¹ mod 2^32, one = R mod m, half = (m − 1)/2); the host tests check
// every operation against gnark-crypto's ecc/bn254/fp and fr.
//
// Not yet for BN254 (BLS12-381's assumptions, kept where they are): Fp2's
// lazy products (fp2.cuh) add a bias p·2^382 and use the top bit of limb 11
// as a free bit (p < 2^381), and they pass sums a0 + a1 < 2p to
// mont_t::mul_wide, whose bound is 2^(32N−2): 2^382 holds for BLS12-381's
// 2p, but BN254's 2p (about 2^254.6) exceeds 2^254, so BN254's Fp2 (also
// Fp[u]/(u² + 1)) needs reduced sums or a wider bound there; the split of
// ±1 scalars (msm_split.cuh) compares against
// BLS12-381's Montgomery one and r − 1; the MSM's windows (msm.cu's
// pick_window, the ⌈255/w⌉ windows there and in tablemodel.go, scratch.go)
// count 255-bit scalars, and the cost constants of pick_window and
// tablemodel.go were measured on BLS12-381's 12-limb Fp.
#pragma once
#include "field.cuh"

namespace g16 {
namespace bn254 {

struct fp_params {
	static const int N = 8;
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
};

struct fr_params {
	static const int N = 8;
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

} // namespace bn254
} // namespace g16
