// Karatsuba double-width products on n 32-bit limbs, L levels deep, and
// the Fp operations built on them (G16_MSM_FP_KARATSUBA, _KARATSUBA2).
//
// One level splits a = a1·2^(32h) + a0, b = b1·2^(32h) + b0 (h = n/2):
//
//   a·b = z2·2^(64h) + M·2^(32h) + z0,
//   z0 = a0·b0,  z2 = a1·b1,  M = (a0 + a1)(b0 + b1) − z0 − z2 = a0·b1 + a1·b0,
//
// three products of h limbs instead of four. On Fp's 12 limbs one level is
// 3·36 = 108 limb products instead of mont_t::mul_wide's 144, two levels
// (each 6-limb product split again into 3 + 3) 9·9 = 81. A square needs
// three squares of h limbs, (a0 + a1)² − a0² − a1² = 2·a0·a1: 3·21 = 63
// limb products at one level, 9·6 = 54 at two, against sqr_wide's 78.
//
// The operands may be any integers below 2^(32n) (the schoolbook product
// at the bottom takes its full range, see mul_sb), so every caller's bound
// (elements below p, sums of two below 2p < 2^382) holds at every level.
// The half sums carry: a0 + a1 = sa + ca·2^(32h) with ca ∈ {0, 1}, and
//
//   (a0 + a1)(b0 + b1) = sa·sb + (ca·sb + cb·sa)·2^(32h) + ca·cb·2^(64h),
//
// added branch-free with masks (−ca & sb). Before the subtractions this is
// below 2^(64h+2), and M ≥ 0 is below 2^(64h+1): both fit n + 1 limbs, the
// chains computing them mod 2^(32(n+1)). w = a·b < 2^(64n), so the final
// sum into w does not carry out.
#pragma once
#include <type_traits>

#include "field.cuh"

namespace g16 {
namespace ka {

// acc += a_j·bi·2^(32(i+j)) for j = j0, j0 + 2, … < n: mont_t::mad_row on n
// limbs (its 64-bit products on disjoint limb pairs, so that ptxas fuses
// each lo/hi pair into one IMAD.WIDE.U32(.X)).
template <int n>
G16_HD void mad_row(uint32_t (&acc)[2 * n], const uint32_t (&a)[n], uint32_t bi, int i, int j0) {
	if (j0 >= n) return;
	acc[i + j0] = mad_lo_cc(a[j0], bi, acc[i + j0]);
	acc[i + j0 + 1] = madc_hi_cc(a[j0], bi, acc[i + j0 + 1]);
#pragma unroll
	for (int j = j0 + 2; j < n; j += 2) {
		acc[i + j] = madc_lo_cc(a[j], bi, acc[i + j]);
		acc[i + j + 1] = madc_hi_cc(a[j], bi, acc[i + j + 1]);
	}
	if ((n - j0) % 2 == 0) acc[i + n] = addc(acc[i + n], 0);
}

// w = e + o (o's limb 0 is 0), no carry out (e + o < 2^(64n)).
template <int n>
G16_HD void sum_eo(uint32_t (&w)[2 * n], const uint32_t (&e)[2 * n], const uint32_t (&o)[2 * n]) {
	w[0] = e[0];
	w[1] = add_cc(e[1], o[1]);
#pragma unroll
	for (int k = 2; k < 2 * n - 1; k++) w[k] = addc_cc(e[k], o[k]);
	w[2 * n - 1] = addc(e[2 * n - 1], o[2 * n - 1]);
}

// w = a·b, schoolbook, for any a, b < 2^(32n): mont_t::mul_wide on n limbs.
// After row i each accumulator holds a subset of the products of a with
// b mod 2^(32(i+1)), so it is below 2^(32(n+i+1)): no row carries out of
// limb n + i, the highest it writes.
template <int n>
G16_HD void mul_sb(uint32_t (&w)[2 * n], const uint32_t (&a)[n], const uint32_t (&b)[n]) {
	uint32_t e[2 * n], o[2 * n];
#pragma unroll
	for (int k = 0; k < 2 * n; k++) e[k] = o[k] = 0;
#pragma unroll
	for (int i = 0; i < n; i++) {
		if (i % 2 == 0) {
			mad_row<n>(e, a, b[i], i, 0);
			mad_row<n>(o, a, b[i], i, 1);
		} else {
			mad_row<n>(o, a, b[i], i, 0);
			mad_row<n>(e, a, b[i], i, 1);
		}
	}
	sum_eo<n>(w, e, o);
}

// w = a², schoolbook, for any a < 2^(32n): mont_t::sqr_wide on n limbs, the
// cross products once (a subset of a·a's, so mul_sb's bounds hold), doubled
// (2·Σ_{i<j} < a² < 2^(64n): the shift drops no bit), plus the squares.
template <int n>
G16_HD void sqr_sb(uint32_t (&w)[2 * n], const uint32_t (&a)[n]) {
	const int W = 2 * n;
	uint32_t e[W], o[W];
#pragma unroll
	for (int k = 0; k < W; k++) e[k] = o[k] = 0;
#pragma unroll
	for (int i = 0; i < n - 1; i++) {
		mad_row<n>(o, a, a[i], i, i + 1);
		mad_row<n>(e, a, a[i], i, i + 2);
	}
	uint32_t c[W];
	sum_eo<n>(c, e, o);
#pragma unroll
	for (int k = W - 1; k > 0; k--) w[k] = (c[k] << 1) | (c[k - 1] >> 31);
	w[0] = c[0] << 1;
	w[0] = mad_lo_cc(a[0], a[0], w[0]);
	w[1] = madc_hi_cc(a[0], a[0], w[1]);
#pragma unroll
	for (int i = 1; i < n - 1; i++) {
		w[2 * i] = madc_lo_cc(a[i], a[i], w[2 * i]);
		w[2 * i + 1] = madc_hi_cc(a[i], a[i], w[2 * i + 1]);
	}
	w[W - 2] = madc_lo_cc(a[n - 1], a[n - 1], w[W - 2]);
	w[W - 1] = madc_hi(a[n - 1], a[n - 1], w[W - 1]);
}

// s = lo + hi mod 2^(32h), returning the carry (0 or 1).
template <int h>
G16_HD uint32_t half_sum(uint32_t (&s)[h], const uint32_t* lo, const uint32_t* hi) {
	s[0] = add_cc(lo[0], hi[0]);
#pragma unroll
	for (int k = 1; k < h; k++) s[k] = addc_cc(lo[k], hi[k]);
	return addc(0, 0);
}

// w = z2·2^(64h) + M·2^(32h) + z0 with M = m + (ca·sb + cb·sa)·2^(32h) +
// ca·cb·2^(64h) − z0 − z2, m = sa·sb: one Karatsuba level's combination
// (see the top of the file for the bounds). m is overwritten.
template <int h>
G16_HD void combine(uint32_t (&w)[4 * h], const uint32_t (&z0)[2 * h], const uint32_t (&z2)[2 * h],
                    uint32_t (&m)[2 * h], const uint32_t (&sa)[h], uint32_t ca, const uint32_t (&sb)[h],
                    uint32_t cb) {
	const int n = 2 * h;
	uint32_t ma = 0u - ca, mb = 0u - cb;
	// m's limb n, the top of (a0 + a1)(b0 + b1): ca·cb plus the carries.
	m[h] = add_cc(m[h], sb[0] & ma);
#pragma unroll
	for (int k = 1; k < h; k++) m[h + k] = addc_cc(m[h + k], sb[k] & ma);
	uint32_t top = addc(ca & cb, 0);
	m[h] = add_cc(m[h], sa[0] & mb);
#pragma unroll
	for (int k = 1; k < h; k++) m[h + k] = addc_cc(m[h + k], sa[k] & mb);
	top = addc(top, 0);
	// − z0 − z2, on n + 1 limbs.
	m[0] = sub_cc(m[0], z0[0]);
#pragma unroll
	for (int k = 1; k < n; k++) m[k] = subc_cc(m[k], z0[k]);
	top = subc(top, 0);
	m[0] = sub_cc(m[0], z2[0]);
#pragma unroll
	for (int k = 1; k < n; k++) m[k] = subc_cc(m[k], z2[k]);
	top = subc(top, 0);
	// w = z0 + z2·2^(64h), then + M·2^(32h) from limb h.
#pragma unroll
	for (int k = 0; k < h; k++) w[k] = z0[k];
	w[h] = add_cc(z0[h], m[0]);
#pragma unroll
	for (int k = 1; k < h; k++) w[h + k] = addc_cc(z0[h + k], m[k]);
#pragma unroll
	for (int k = h; k < n; k++) w[h + k] = addc_cc(z2[k - h], m[k]);
	w[3 * h] = addc_cc(z2[h], top);
#pragma unroll
	for (int k = 1; k < h - 1; k++) w[3 * h + k] = addc_cc(z2[h + k], 0);
	w[4 * h - 1] = addc(z2[n - 1], 0);
}

// w = a·b on n limbs, L Karatsuba levels (a level splits only an even n;
// below the last one, or at an odd n, mul_sb). Any a, b < 2^(32n).
template <int n, int L>
G16_HD void mul_wide(uint32_t (&w)[2 * n], const uint32_t (&a)[n], const uint32_t (&b)[n]) {
	if constexpr (L <= 0 || n % 2 != 0 || n < 4) {
		mul_sb<n>(w, a, b);
	} else {
		const int h = n / 2;
		uint32_t a0[h], a1[h], b0[h], b1[h];
#pragma unroll
		for (int k = 0; k < h; k++) {
			a0[k] = a[k];
			a1[k] = a[h + k];
			b0[k] = b[k];
			b1[k] = b[h + k];
		}
		uint32_t z0[n], z2[n], m[n], sa[h], sb[h];
		mul_wide<h, L - 1>(z0, a0, b0);
		mul_wide<h, L - 1>(z2, a1, b1);
		uint32_t ca = half_sum<h>(sa, a0, a1);
		uint32_t cb = half_sum<h>(sb, b0, b1);
		mul_wide<h, L - 1>(m, sa, sb);
		combine<h>(w, z0, z2, m, sa, ca, sb, cb);
	}
}

// w = a² on n limbs, L Karatsuba levels, any a < 2^(32n): the three
// products of mul_wide are squares, (sa + ca·2^(32h))² having the
// correction 2·ca·sa·2^(32h) + ca·2^(64h) (combine with sb = sa, cb = ca).
template <int n, int L>
G16_HD void sqr_wide(uint32_t (&w)[2 * n], const uint32_t (&a)[n]) {
	if constexpr (L <= 0 || n % 2 != 0 || n < 4) {
		sqr_sb<n>(w, a);
	} else {
		const int h = n / 2;
		uint32_t a0[h], a1[h];
#pragma unroll
		for (int k = 0; k < h; k++) {
			a0[k] = a[k];
			a1[k] = a[h + k];
		}
		uint32_t z0[n], z2[n], m[n], sa[h];
		sqr_wide<h, L - 1>(z0, a0);
		sqr_wide<h, L - 1>(z2, a1);
		uint32_t ca = half_sum<h>(sa, a0, a1);
		sqr_wide<h, L - 1>(m, sa);
		combine<h>(w, z0, z2, m, sa, ca, sa, ca);
	}
}

} // namespace ka

// w = a·b for Fp operands: mont_t::mul_wide (L = 0) or the L-level
// Karatsuba product, for fp2.cuh's lazy products.
template <int L>
G16_HD void fp_mul_wide(uint32_t (&w)[fp_t::W], const uint32_t (&a)[fp_t::N], const uint32_t (&b)[fp_t::N]) {
	if constexpr (L <= 0)
		fp_t::mul_wide(w, a, b);
	else
		ka::mul_wide<fp_t::N, L>(w, a, b);
}

// The Montgomery operations on L-level Karatsuba products, L = 0 being
// mont_t's own (CIOS product, sqr_wide, mul_wide2). For L > 0:
//   mul:     REDC(a·b), a·b < p² < p·R;
//   sqr:     REDC(a²);
//   mul_sub: REDC(a·b + c·(p − d)), below 2p² < p·R (mont_t::mul_sub).
// Fp2 (and L = 0) use the field's own operators.
template <int L, class F>
G16_HD F ka_mul(const F& a, const F& b) {
	if constexpr (L <= 0 || !std::is_same<F, fp_t>::value) {
		return a * b;
	} else {
		uint32_t w[fp_t::W];
		ka::mul_wide<fp_t::N, L>(w, a.v, b.v);
		return fp_t::redc(w);
	}
}

template <int L, class F>
G16_HD F ka_sqr(const F& a) {
	if constexpr (L <= 0 || !std::is_same<F, fp_t>::value) {
		return a.sqr();
	} else {
		uint32_t w[fp_t::W];
		ka::sqr_wide<fp_t::N, L>(w, a.v);
		return fp_t::redc(w);
	}
}

template <int L, class F>
G16_HD F ka_mul_sub(const F& a, const F& b, const F& c, const F& d) {
	if constexpr (L <= 0 || !std::is_same<F, fp_t>::value) {
		return F::mul_sub(a, b, c, d);
	} else {
		uint32_t w[fp_t::W], t[fp_t::W];
		fp_t nd = d.neg();
		ka::mul_wide<fp_t::N, L>(w, a.v, b.v);
		ka::mul_wide<fp_t::N, L>(t, c.v, nd.v);
		fp_t::add_wide(w, w, t);
		return fp_t::redc(w);
	}
}

} // namespace g16
