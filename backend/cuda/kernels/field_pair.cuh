// Two independent Montgomery products (or squarings) computed together, row
// by row, for the instruction-level parallelism of a latency-bound kernel.
//
// mont_t's product (field.cuh) is a chain of rows, each row's reduction
// depending on the row before: within one product ptxas finds two carry
// chains to overlap (the even and odd accumulators). mul2 and sqr2 emit the
// rows of two unrelated products one after the other (row i of the first,
// row i of the second, then both reductions), so that ptxas, which turns the
// carry flag into predicate registers, can schedule four chains at once.
// Each chain stays whole in the PTX: the carry flag is one register, and a
// chain of the second product never starts inside one of the first.
//
// The arithmetic is field.cuh's, step for step (the same bounds hold):
// mul_begin/mul_step/mul_end are the rows of mont_t::operator*, and
// redc_begin/redc_step/redc_end those of mont_t::redc.
#pragma once
#include "field.cuh"

namespace g16 {

template <class P>
struct mont_pair {
	typedef mont_t<P> F;
	static const int N = P::N;
	static const int W = 2 * N;
	typedef uint32_t acc_t[N];

	// Row 0 of a·b: the plain products a_j·b_0 (disjoint pairs, no carries),
	// then its reduction.
	G16_HD static void mul_begin(acc_t& x, acc_t& y, const F& a, uint32_t b0) {
#pragma unroll
		for (int j = 0; j < N; j += 2) {
			uint64_t pe = (uint64_t)a.v[j] * b0;
			uint64_t po = (uint64_t)a.v[j + 1] * b0;
			x[j] = (uint32_t)pe;
			x[j + 1] = (uint32_t)(pe >> 32);
			y[j] = (uint32_t)po;
			y[j + 1] = (uint32_t)(po >> 32);
		}
	}

	// Row i ≥ 1 of a·b without its reduction: T = T/2^32 + a·b_i on the
	// accumulators x, y (mont_t::operator*'s loop body, before redc_row).
	G16_HD static void mul_step(acc_t& x, acc_t& y, const F& a, uint32_t bi) {
		uint32_t nx[N], ny[N];
		nx[0] = add_cc(y[0], x[1]);
#pragma unroll
		for (int j = 1; j < N; j += 2) {
			ny[j - 1] = madc_lo_cc(a.v[j], bi, j + 1 < N ? x[j + 1] : 0);
			ny[j] = madc_hi_cc(a.v[j], bi, j + 2 < N ? x[j + 2] : 0);
		}
		nx[0] = mad_lo_cc(a.v[0], bi, nx[0]);
		nx[1] = madc_hi_cc(a.v[0], bi, y[1]);
#pragma unroll
		for (int j = 2; j < N; j += 2) {
			nx[j] = madc_lo_cc(a.v[j], bi, y[j]);
			nx[j + 1] = madc_hi_cc(a.v[j], bi, y[j + 1]);
		}
		ny[N - 1] = addc(ny[N - 1], 0);
#pragma unroll
		for (int j = 0; j < N; j++) {
			x[j] = nx[j];
			y[j] = ny[j];
		}
	}

	// T/2^32 = y + (x >> 32) < 2m, reduced once.
	G16_HD static F mul_end(const acc_t& x, const acc_t& y) {
		uint32_t t[N];
		t[0] = add_cc(y[0], x[1]);
#pragma unroll
		for (int j = 1; j < N - 1; j++) t[j] = addc_cc(y[j], x[j + 1]);
		t[N - 1] = addc(y[N - 1], 0);
		return F::reduce_once(t, 0);
	}

	// (r, s) = (a·b, c·d), the rows interleaved.
	G16_HD static void mul2(F& r, F& s, const F& a, const F& b, const F& c, const F& d) {
		uint32_t x1[N], y1[N], x2[N], y2[N];
		mul_begin(x1, y1, a, b.v[0]);
		mul_begin(x2, y2, c, d.v[0]);
		F::redc_row(x1, y1);
		F::redc_row(x2, y2);
#pragma unroll
		for (int i = 1; i < N; i++) {
			mul_step(x1, y1, a, b.v[i]);
			mul_step(x2, y2, c, d.v[i]);
			F::redc_row(x1, y1);
			F::redc_row(x2, y2);
		}
		r = mul_end(x1, y1);
		s = mul_end(x2, y2);
	}

	// The reduction of a double-width w (mont_t::redc): T = w_lo, then one
	// row per limb; redc_begin is row 0, redc_step row i ≥ 1.
	G16_HD static void redc_begin(acc_t& x, acc_t& y, const uint32_t (&w)[W]) {
#pragma unroll
		for (int j = 0; j < N; j++) {
			x[j] = w[j];
			y[j] = 0;
		}
		F::redc_row(x, y);
	}

	G16_HD static void redc_step(acc_t& x, acc_t& y) {
		uint32_t q = (y[0] + x[1]) * P::redc_m0();
		uint32_t nx[N], ny[N];
		nx[0] = add_cc(y[0], x[1]);
#pragma unroll
		for (int j = 1; j < N; j += 2) {
			ny[j - 1] = madc_lo_cc(q, P::mod(j), j + 1 < N ? x[j + 1] : 0);
			ny[j] = madc_hi_cc(q, P::mod(j), j + 2 < N ? x[j + 2] : 0);
		}
		(void)mad_lo_cc(q, P::mod(0), nx[0]);
		nx[1] = madc_hi_cc(q, P::mod(0), y[1]);
#pragma unroll
		for (int j = 2; j < N; j += 2) {
			nx[j] = madc_lo_cc(q, P::mod(j), y[j]);
			nx[j + 1] = madc_hi_cc(q, P::mod(j), y[j + 1]);
		}
		ny[N - 1] = addc(ny[N - 1], 0);
#pragma unroll
		for (int j = 0; j < N; j++) {
			x[j] = nx[j];
			y[j] = ny[j];
		}
	}

	// T/2^32 = y + (x >> 32) ≤ m, plus w_hi, reduced once.
	G16_HD static F redc_end(const acc_t& x, const acc_t& y, const uint32_t (&w)[W]) {
		uint32_t t[N];
		t[0] = add_cc(y[0], x[1]);
#pragma unroll
		for (int j = 1; j < N - 1; j++) t[j] = addc_cc(y[j], x[j + 1]);
		t[N - 1] = addc(y[N - 1], 0);
		t[0] = add_cc(t[0], w[N]);
#pragma unroll
		for (int j = 1; j < N - 1; j++) t[j] = addc_cc(t[j], w[N + j]);
		t[N - 1] = addc(t[N - 1], w[W - 1]);
		return F::reduce_once(t, 0);
	}

	// (r, s) = (REDC(u), REDC(w)), the rows interleaved.
	G16_HD static void redc2(F& r, F& s, const uint32_t (&u)[W], const uint32_t (&w)[W]) {
		uint32_t x1[N], y1[N], x2[N], y2[N];
		redc_begin(x1, y1, u);
		redc_begin(x2, y2, w);
#pragma unroll
		for (int i = 1; i < N; i++) {
			redc_step(x1, y1);
			redc_step(x2, y2);
		}
		r = redc_end(x1, y1, u);
		s = redc_end(x2, y2, w);
	}

	// w = 2c + Σ a_i²·2^(64i) from the cross products' accumulators e, o
	// (mont_t::sqr_wide's second half).
	G16_HD static void sqr_finish(uint32_t (&w)[W], const uint32_t (&e)[W], const uint32_t (&o)[W],
	                              const uint32_t (&a)[N]) {
		uint32_t c[W];
		c[0] = 0;
		c[1] = add_cc(e[1], o[1]);
#pragma unroll
		for (int k = 2; k < W - 1; k++) c[k] = addc_cc(e[k], o[k]);
		c[W - 1] = addc(e[W - 1], o[W - 1]);
		w[0] = 0;
#pragma unroll
		for (int k = 1; k < W; k++) w[k] = (c[k] << 1) | (c[k - 1] >> 31);
		w[0] = mad_lo_cc(a[0], a[0], w[0]);
		w[1] = madc_hi_cc(a[0], a[0], w[1]);
#pragma unroll
		for (int i = 1; i < N - 1; i++) {
			w[2 * i] = madc_lo_cc(a[i], a[i], w[2 * i]);
			w[2 * i + 1] = madc_hi_cc(a[i], a[i], w[2 * i + 1]);
		}
		w[W - 2] = madc_lo_cc(a[N - 1], a[N - 1], w[W - 2]);
		w[W - 1] = madc_hi(a[N - 1], a[N - 1], w[W - 1]);
	}

	// (r, s) = (a², b²): mont_t::sqr_wide's rows of both interleaved, then redc2.
	G16_HD static void sqr2(F& r, F& s, const F& a, const F& b) {
		uint32_t ea[W], oa[W], eb[W], ob[W];
#pragma unroll
		for (int k = 0; k < W; k++) ea[k] = oa[k] = eb[k] = ob[k] = 0;
#pragma unroll
		for (int i = 0; i < N - 1; i++) {
			F::mad_row(oa, a.v, a.v[i], i, i + 1);
			F::mad_row(ea, a.v, a.v[i], i, i + 2);
			F::mad_row(ob, b.v, b.v[i], i, i + 1);
			F::mad_row(eb, b.v, b.v[i], i, i + 2);
		}
		uint32_t wa[W], wb[W];
		sqr_finish(wa, ea, oa, a.v);
		sqr_finish(wb, eb, ob, b.v);
		redc2(r, s, wa, wb);
	}
};

typedef mont_pair<fp_params> fp_pair;

} // namespace g16
