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
// The rows are field.cuh's own (mont_t::mul_row0, mul_row, redc_row,
// mul_last for the product; redc_row0, redc_next, redc_last for the
// reduction; sqr_finish for the square), so the same bounds hold.
#pragma once
#include "field.cuh"

namespace g16 {

template <class P>
struct mont_pair {
	typedef mont_t<P> F;
	static const int N = P::N;
	static const int W = 2 * N;

	// (r, s) = (a·b, c·d), the rows interleaved.
	G16_HD static void mul2(F& r, F& s, const F& a, const F& b, const F& c, const F& d) {
		uint32_t x1[N], y1[N], x2[N], y2[N];
		F::mul_row0(x1, y1, a, b.v[0]);
		F::mul_row0(x2, y2, c, d.v[0]);
		F::redc_row(x1, y1);
		F::redc_row(x2, y2);
#pragma unroll
		for (int i = 1; i < N; i++) {
			F::mul_row(x1, y1, a, b.v[i]);
			F::mul_row(x2, y2, c, d.v[i]);
			F::redc_row(x1, y1);
			F::redc_row(x2, y2);
		}
		r = F::mul_last(x1, y1);
		s = F::mul_last(x2, y2);
	}

	// (r, s) = (REDC(u), REDC(w)), the rows interleaved.
	G16_HD static void redc2(F& r, F& s, const uint32_t (&u)[W], const uint32_t (&w)[W]) {
		uint32_t x1[N], y1[N], x2[N], y2[N];
		F::redc_row0(x1, y1, u);
		F::redc_row0(x2, y2, w);
#pragma unroll
		for (int i = 1; i < N; i++) {
			F::redc_next(x1, y1);
			F::redc_next(x2, y2);
		}
		r = F::redc_last(x1, y1, u);
		s = F::redc_last(x2, y2, w);
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
		F::sqr_finish(wa, ea, oa, a.v);
		F::sqr_finish(wb, eb, ob, b.v);
		redc2(r, s, wa, wb);
	}
};

typedef mont_pair<fp_params> fp_pair;

} // namespace g16
