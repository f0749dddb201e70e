// Pippenger multi-scalar multiplication on G1 and G2.
//
// Written once over a coordinate field F (a curve's Fp for G1, its Fp2
// for G2, BW6-761's Fp for both; curves.cuh instantiates it for each curve)
// and the curve's scalar field fr_of<F>. For n points P_i and scalars k_i,
// with window w and nw = ⌈BITS/w⌉ windows (BITS = fr_of<F>::params::BITS,
// the bits the windows cover: 255 on the curves of 8-limb scalars, 377 on
// BW6-761):
//
//  0. split (msm_split.cuh; G16_MSM_NO_SPLIT skips it): zero scalars are
//     dropped, the points with scalar ±1 form one more run of step 3 (their
//     refs after the sorted ones, their sum in a slot past the buckets,
//     added to the result at the end), and steps 1–4 run on the compacted
//     indices of the other points only, with the window chosen for their
//     number.
//  1. digits: k_i leaves Montgomery form; if k_i > (r−1)/2 it is replaced by
//     r − k_i and P_i by −P_i, so k_i < 2^(BITS−1). Its signed (Booth) digits
//     d_ij ∈ [−2^(w−1), 2^(w−1)] satisfy k_i = Σ_j d_ij·2^(wj), so each window
//     needs only B = 2^(w−1) buckets. Each nonzero digit gives the pair
//     (key = j·B + |d_ij| − 1, value = i | sign<<31); a zero digit, and so a
//     zero scalar, gives a key past every bucket, which sorts last and is
//     dropped.
//     With a table of c copies of the bases (msm_table.h: copy q holds
//     2^(wq)·P_i at q·stride + i), window j reads copy j mod c and its key
//     is ⌊j/c⌋·B + |d_ij| − 1: windows j and j + c share bucket set ⌊j/c⌋,
//     and ⌈nw/c⌉ sets are reduced instead of nw (c = 1: the bases alone).
//  2. sort: radix sort of the pairs by key (CUB), so each bucket's points
//     are contiguous.
//  3. accumulate: each bucket is cut into tasks of at most L points, one
//     thread per task summing its points with mixed XYZZ additions; while
//     any bucket has more than one partial sum, its partial sums are summed
//     in tasks of accum_fanin (msm_tasks.cuh: the levels after the first run
//     on task bounds, with no host round trip). This balances the load when
//     one bucket is huge, as the bucket of a small digit is for witness
//     vectors.
//     Two families of kernels do steps 3 and 4: the register kernels here
//     (G1's: the sum in registers, the addition inlined) and the slot
//     kernels of msm_slots.h (G2's: sums in shared memory, products one at
//     a time, so that a G2 kernel fits its registers with no stack frame).
//  4. reduce: per window, Σ_b (b+1)·S_b over the bucket sums S_b, in levels
//     of pairs (A_s, R_s) standing for Σ A_s + Σ s·R_s (msm_reduce.cuh):
//     segments of 16, 8 or 4 while the buckets are many, then pairs, two
//     operations deep a level; the last leaves one A per window
//     (G16_MSM_HOST_TAIL: the device stops at G16_MSM_TAIL_PAIRS pairs in
//     all, and the host sums them, in Go: msm.go's windowSum).
//  5. The host combines the windows: Σ_j 2^(wj)·W_j (in Go, msm.go); with
//     a table, the sets: Σ_s 2^(wcs)·S_s.
//
// Where the time goes (H200, CUDA events, random scalars and distinct bases;
// G1 at 2^24): 117.6 ms with field.cuh's even/odd-accumulator product (an Fp
// product is about 464 SASS instructions, 278 of them IMAD.WIDE.U32, with
// operands in registers): digits 0.9, sort 7.8, plan 1.1, accumulate 92.3,
// reduce 15.7 ms; G2 at 2^24 421 ms. Before it (about 1150 instructions an
// Fp product, every mad.lo.cc/madc.hi.cc an IMAD plus an IADD3.X): 184.6 ms,
// accumulate 147.4, reduce 25.5; G2 667 ms. Measured on the way there:
// running tasks longest first and inlining G1's addition took the
// accumulation from 293 to 147 ms (either alone: 251 and 281 ms); windows of
// 18, 19, 21 bits ran 209, 197, 253 ms against 185 ms at w = 20. Inlining
// the Fp2 products into G2's accumulation (255 registers, spills) and G1's
// additions into the first reduction level (245 registers) were slower
// (G2 2^24 832 ms against 667 ms; reduce 31 ms against 25 ms).
// What would close the gap to ~90 ms: a dedicated squaring, fewer registers
// in the accumulation kernel (134 now: 12 warps an SM), and a cheaper
// reduction (it grows with the 2^(w−1) buckets a window).
//
// The templates are here; each curve's file (msm_bls12_381.cu, msm_bn254.cu,
// msm_bls12_377.cu, msm_bw6_761.cu) instantiates them for its G1 and G2
// (G16_MSM_INSTANCES; once for BW6-761, whose groups share F),
// so that the curves compile in parallel, and msm.cu holds the C entry points.
#pragma once
#include "curves.cuh"
#include "exec.cuh"
#include "msm_reduce.cuh"
#include "msm_slots.h"
#include "msm_split.cuh"
#include "msm_tasks.cuh"
#include "msm_table.h"

#include <memory>
#include <type_traits>

#include <cstdlib>
#include <cstring>
#include <vector>

namespace g16 {

// min_window is the smallest window that cuts scalars of bits bits into at
// most 64 windows (g16_msm's out holds 64): 4 for 255 bits, 6 for 377.
inline int min_window(int bits) { return (bits + 63) / 64; }

// pick_window minimises a cost model over the windows from min_window(bits)
// to 21: nw·(n + 3.2·B) additions, nw = ⌈bits/w⌉, the accumulation plus the
// reduction (about two full additions, ≈1.6 mixed ones each, per bucket).
inline int pick_window(size_t n, int bits) {
	int best = min_window(bits);
	double best_cost = 1e300;
	for (int w = min_window(bits); w <= 21; w++) {
		int nw = (bits + w - 1) / w;
		double cost = nw * ((double)n + 3.2 * (double)(1u << (w - 1)));
		if (cost < best_cost) {
			best_cost = cost;
			best = w;
		}
	}
	return best;
}

// digits_k: scalar i → nw (key, value) pairs at j·n + i. With a table of
// c copies of the bases (copy q at q·stride holding 2^(wq)·P), window j
// reads copy j mod c and lands in bucket set ⌊j/c⌋; c = 1 is the plain
// bases, one bucket set a window.
template <class Fr>
struct digits_k {
	const Fr* scalars;
	const uint32_t* idx; // point i is idx[i] (the split's rest), or i when null
	uint32_t n;
	int w, nw;
	uint32_t B, sentinel;
	uint32_t stride, copies;
	uint32_t* keys;
	uint32_t* vals;

	// limb i of k, selected without indexing a register array at run time.
	G16_HD static uint32_t limb(const Fr& k, int i) {
		uint32_t r = 0;
#pragma unroll
		for (int t = 0; t < Fr::N; t++) r = (t == i) ? k.v[t] : r;
		return r;
	}

	G16_HD void operator()(size_t i) const {
		uint32_t pt = idx ? idx[i] : (uint32_t)i;
		typedef typename Fr::params P;
		Fr k = scalars[pt].from_mont();
		// borrow of (r−1)/2 − k: all ones when k > (r−1)/2.
		(void)sub_cc(P::half(0), k.v[0]);
#pragma unroll
		for (int t = 1; t < Fr::N; t++) (void)subc_cc(P::half(t), k.v[t]);
		uint32_t neg = subc(0, 0) & 1;
		if (neg) {
			Fr m;
			m.v[0] = sub_cc(P::mod(0), k.v[0]);
#pragma unroll
			for (int t = 1; t < Fr::N; t++) m.v[t] = subc_cc(P::mod(t), k.v[t]);
			k = m;
		}
		uint32_t mask = (1u << w) - 1, carry = 0;
		uint32_t set = 0, copy = 0; // ⌊j/c⌋ and j mod c
		for (int j = 0; j < nw; j++) {
			int pos = j * w, li = pos >> 5, sh = pos & 31;
			uint32_t bits = limb(k, li) >> sh;
			if (sh + w > 32) bits |= limb(k, li + 1) << (32 - sh);
			bits &= mask;
			uint32_t v = bits + carry, mag, sign;
			if (v > B) {
				mag = 2 * B - v;
				sign = 1;
				carry = 1;
			} else {
				mag = v;
				sign = 0;
				carry = 0;
			}
			size_t at = (size_t)j * n + i;
			keys[at] = mag == 0 ? sentinel : set * B + mag - 1;
			vals[at] = (copy * stride + pt) | ((sign ^ neg) << 31);
			if (++copy == copies) {
				copy = 0;
				set++;
			}
		}
	}
};

// accum_points_k: task t sums its points (sign bit set: the point negated).
// Thread i takes task order[i] (the tasks sorted by size, so that the
// threads of a warp run loops of about the same length), or task i when
// order is null. The addition is inlined (xyzz_t::add_affine), so that
// the sum stays in registers.
template <class F>
struct accum_points_k {
	const affine_t<F>* bases;
	const uint32_t* refs;
	const uint32_t* task_start;
	const uint32_t* task_count;
	const uint32_t* order;
	xyzz_t<F>* out;

	G16_HD static void add(xyzz_t<F>& acc, affine_t<F> p, uint32_t ref) {
		if (ref >> 31) p.y = p.y.neg();
		acc.add_affine(p);
	}

	G16_HD void operator()(size_t i) const {
		size_t t = order ? order[i] : i;
		xyzz_t<F> acc = xyzz_t<F>::inf();
		uint32_t s = task_start[t], e = s + task_count[t];
		for (uint32_t q = s; q < e; q++) {
			uint32_t ref = refs[q];
			add(acc, bases[ref & 0x7fffffffu], ref);
		}
		out[t] = acc;
	}
};

// accum_sums_k: task t sums its partial sums (order as in accum_points_k).
template <class F>
struct accum_sums_k {
	const xyzz_t<F>* in;
	const uint32_t* task_start;
	const uint32_t* task_count;
	const uint32_t* order;
	xyzz_t<F>* out;
	G16_HD void operator()(size_t i) const {
		size_t t = order ? order[i] : i;
		uint32_t s = task_start[t], e = s + task_count[t];
		xyzz_t<F> acc = in[s];
		for (uint32_t q = s + 1; q < e; q++) acc.add(in[q]);
		out[t] = acc;
	}
};

// scatter_k: run r's sum (sums[at[r]]) into its bucket.
template <class F>
struct scatter_k {
	const uint32_t* keys;
	const xyzz_t<F>* sums;
	const uint32_t* at;
	xyzz_t<F>* buckets;
	G16_HD void operator()(size_t r) const { buckets[keys[r]] = sums[at[r]]; }
};

// write_back_k: active run a's final sum (fin[a]) to its run's place in
// the first level's sums, for the *count active runs (a < *count always
// when launched on exactly them).
template <class F>
struct write_back_k {
	const xyzz_t<F>* fin;
	const uint32_t* act;
	const uint32_t* at;
	const uint32_t* count;
	xyzz_t<F>* sums;
	G16_HD void operator()(size_t a) const {
		if (a < *count) sums[at[act[a]]] = fin[a];
	}
};

// reduce_k: one level of the bucket reduction.
template <class F>
struct reduce_k {
	const xyzz_t<F>* A;
	const xyzz_t<F>* R;
	red_level lv;
	xyzz_t<F>* A_out;
	xyzz_t<F>* R_out;
	G16_HD void operator()(size_t i) const {
		size_t o = lv.pair ? i >> 1 : i;
		size_t win = o / lv.Tn;
		uint32_t t = (uint32_t)(o % lv.Tn);
		uint32_t lo = t * lv.m, hi = lo + lv.m < lv.T ? lo + lv.m : lv.T;
		const xyzz_t<F>* a = A + win * lv.T;
		const xyzz_t<F>* r = R + win * lv.T;
		if (lv.pair) {
			xyzz_t<F> v;
			if ((i & 1) == 0) { // A'_t = A_lo + A_lo+1 + R_lo+1
				v = a[lo];
				if (hi > lo + 1) {
					v.add(a[lo + 1]);
					v.add(r[lo + 1]);
				}
				A_out[o] = v;
			} else if (!lv.last) { // R'_t = 2(R_lo + R_lo+1)
				v = r[lo];
				if (hi > lo + 1) v.add(r[lo + 1]);
				v.dbl();
				R_out[o] = v;
			}
			return;
		}
		xyzz_t<F> running = xyzz_t<F>::inf(), acc = xyzz_t<F>::inf(), sum = xyzz_t<F>::inf();
		for (uint32_t s = hi; s-- > lo;) {
			acc.add(running); // acc = Σ (s − lo)·R_s once the loop ends
			running.add(r[s]);
			if (!lv.same) sum.add(a[s]);
		}
		acc.add(lv.same ? running : sum);
		A_out[o] = acc;
		if (lv.last) return;
		for (int k = 0; k < lv.lgm; k++) running.dbl();
		R_out[o] = running;
	}
};

// stage_timer records CUDA events between stages (device mode, when asked).
struct stage_timer {
	exec_t& ex;
	g16_msm_timing* out;
	cudaEvent_t ev[7] = {};
	int marked = 0;
	stage_timer(exec_t& e, g16_msm_timing* o) : ex(e), out(ex.host() ? nullptr : o) {
		if (!out) return;
		for (auto& x : ev) G16_CK(ex.ord(), cudaEventCreate(&x));
	}
	~stage_timer() {
		for (auto& x : ev)
			if (x) cudaEventDestroy(x);
	}
	void mark(int stage) {
		if (!out) return;
		G16_CK(ex.ord(), cudaEventRecord(ev[stage], ex.st));
		marked = stage;
	}
	void finish() {
		if (!out) return;
		G16_CK(ex.ord(), cudaEventSynchronize(ev[marked]));
		float* f[6] = {&out->split, &out->digits, &out->sort, &out->plan, &out->accumulate, &out->reduce};
		int64_t ones = out->ones, rest = out->rest;
		*out = g16_msm_timing{};
		out->ones = ones;
		out->rest = rest;
		for (int s = 1; s <= marked; s++) G16_CK(ex.ord(), cudaEventElapsedTime(f[s - 1], ev[s - 1], ev[s]));
		G16_CK(ex.ord(), cudaEventElapsedTime(&out->total, ev[0], ev[marked]));
	}
};

// accum_level runs one level of accumulate: the points of each task at
// level 0, the partial sums in (the previous level's) after it. G1 runs
// the register kernels here, G2 and BW6-761 the slot kernels
// (msm_slots.h; curves.cuh's slot_point).
template <class F>
void accum_level(exec_t& ex, int level, size_t total, const affine_t<F>* bases, const uint32_t* refs,
                 const xyzz_t<F>* in, const uint32_t* task_start, const uint32_t* task_count, const uint32_t* ord,
                 xyzz_t<F>* out) {
	if constexpr (slot_point<F>) {
		if (level > 0)
			slot_accum_sums(ex, total, in, task_start, task_count, ord, out);
		else
			slot_accum_points(ex, total, bases, refs, task_start, task_count, ord, out);
	} else if (level > 0) {
		ex.launch(total, accum_sums_k<F>{in, task_start, task_count, ord, out}, 128);
	} else {
		ex.launch(total, accum_points_k<F>{bases, refs, task_start, task_count, ord, out}, 128);
	}
}

// reduce_level runs one level of the bucket reduction on n threads (the
// register kernel, or the slot kernel for slot_point<F>).
template <class F>
void reduce_level(exec_t& ex, size_t n, const xyzz_t<F>* A, const xyzz_t<F>* R, const red_level& lv,
                  xyzz_t<F>* A_out, xyzz_t<F>* R_out) {
	if constexpr (slot_point<F>)
		slot_reduce(ex, n, A, R, lv, A_out, R_out);
	else
		ex.launch(n, reduce_k<F>{A, R, lv, A_out, R_out}, 128);
}

// reduce_host_cap is the resident threads plan_level assumes in the host
// mode (the tests pass others to g16_host_reduce).
const size_t reduce_host_cap = 1u << 12;

// reduce_fixed is what a level of the reduction costs beside its own
// additions, in additions on one thread: plan_level's fixed. Swept on the
// H100 (BENCHMARKS.md, run 37): from 0.5 to 4 the plans of BW6-761's slot
// kernels at 2^15 and 2^16 reduce alike, from 8 up they slow; BLS12-381's
// register kernels at 2^20 reduce fastest at 2 (0.99 ms, 1.34 at 16).
const double reduce_fixed = 2;

// reduce_cap is the number of threads of reduce_level's kernel for F that
// the device holds at once (its SMs times the blocks an SM takes, from the
// kernel's registers and shared memory), plan_level's cap.
template <class F>
size_t reduce_cap(exec_t& ex) {
	if (ex.host()) return reduce_host_cap;
	if constexpr (slot_point<F>) return slot_reduce_cap<F>(ex);
	return resident_threads(ex, (const void*)kernel_of<reduce_k<F>>, 128);
}

// red_out is what reduce_buckets leaves: per window, T pairs (A_s, R_s)
// standing for Σ_s A_s + Σ_s s·R_s (window j's at j·T); T = 1: A holds the
// windows' sums. A and R may point into the buckets (no level ran).
template <class F>
struct red_out {
	std::unique_ptr<buf<xyzz_t<F>>> a_hold, r_hold;
	const xyzz_t<F>* A = nullptr;
	const xyzz_t<F>* R = nullptr;
	uint32_t T = 1;
};

// reduce_buckets runs the levels of the reduction over windows sets of T
// bucket sums (set j at j·T) until one pair a window is left, or until
// windows·T ≤ stop (the host sums the pairs left: G16_MSM_HOST_TAIL); cap
// and fixed are plan_levels' (reduce_cap and reduce_fixed; the tests vary
// them to run every shape).
template <class F>
red_out<F> reduce_buckets(exec_t& ex, const xyzz_t<F>* buckets, uint32_t T, size_t windows,
                          size_t cap, double fixed, size_t stop = 1) {
	typedef xyzz_t<F> P;
	red_out<F> res;
	std::unique_ptr<buf<P>>& a_hold = res.a_hold;
	std::unique_ptr<buf<P>>& r_hold = res.r_hold;
	const P* A = buckets;
	const P* R = buckets;
	red_plan plan = plan_levels(T, windows, cap, fixed, stop);
	for (int l = 0; l < plan.n; l++) {
		const red_level& lv = plan.lv[l];
		size_t outs = windows * lv.Tn;
		std::unique_ptr<buf<P>> a_next(new buf<P>(ex, outs)), r_next;
		if (!lv.last) r_next.reset(new buf<P>(ex, outs));
		reduce_level<F>(ex, lv.pair ? 2 * outs : outs, A, R, lv, a_next->p, r_next ? r_next->p : nullptr);
		a_hold = std::move(a_next);
		r_hold = std::move(r_next);
		A = a_hold->p;
		R = r_hold ? r_hold->p : nullptr;
		T = lv.Tn;
	}
	res.A = A;
	res.R = T > 1 ? R : nullptr;
	res.T = T;
	return res;
}

// accum_fanin is the number of partial sums a task adds at the levels of
// accumulate after the first (G16_MSM_FANIN8: 8): such a level is latency (the additions of its
// longest task, one after another), so its tasks are short; G2's additions
// take about three times G1's, so G2 sums pairs, and so do BW6-761's
// groups (an Fp product of 24 limbs costs about four of 12): the points of
// the slot kernels.
template <class F>
uint32_t accum_fanin() {
	return slot_point<F> ? 2 : 4;
}

// accum_out is accumulate's result: run r's sum is sums[at[r]].
template <class F>
struct accum_out {
	std::unique_ptr<buf<xyzz_t<F>>> sums;
	std::unique_ptr<buf<uint32_t>> at;
};

// accumulate sums each of runs runs of points (run r: refs[starts[r] ..
// starts[r] + counts[r]), a ref being a base index with the sign bit of
// the point's negation; counts[r] ≥ 1), cutting the runs into tasks of at
// most L items at the first level and of accum_fanin partial sums at the
// later ones, until each run is one sum. The later levels run only on the
// runs that the first left with more than one partial sum (listed once;
// at most total − runs of them), on task bounds (task_plan); their sums go
// back to the first level's place of their run. The host reads back the
// first level's task count and the largest run, and the number of active
// runs when there are later levels.
template <class F>
accum_out<F> accumulate(exec_t& ex, const affine_t<F>* bases, const uint32_t* refs, const uint32_t* run_counts,
                        const uint32_t* run_starts, size_t runs, uint32_t L, int flags) {
	typedef xyzz_t<F> P;
	accum_out<F> res;
	buf<uint32_t> one(ex, 2);
	buf<uint32_t> cnt0(ex, runs);
	res.at.reset(new buf<uint32_t>(ex, runs));
	uint32_t* off0 = res.at->p;

	// Level 0: tasks of L points, longest first.
	ex.launch(runs, ntasks_k{run_counts, L, cnt0.p});
	ex.exclusive_sum(cnt0.p, off0, runs);
	ex.launch(1, total_k{cnt0.p, off0, runs, one.p});
	ex.max_of(run_counts, one.p + 1, runs);
	uint32_t hc[2];
	ex.to_host(hc, one.p, sizeof hc);
	uint32_t total = hc[0];
	{
		buf<uint32_t> task_start(ex, total), task_count(ex, total);
		ex.launch(total, emit_k{run_starts, run_counts, off0, (uint32_t)runs, L, one.p, task_start.p,
		                        task_count.p});
		std::unique_ptr<buf<uint32_t>> order;
		if (total > 1) {
			buf<uint32_t> ids(ex, total), sorted_counts(ex, total);
			order.reset(new buf<uint32_t>(ex, total));
			ex.launch(total, iota_k{ids.p});
			int cbits = 0;
			while ((L >> cbits) != 0) cbits++;
			ex.sort_pairs(task_count.p, sorted_counts.p, ids.p, order->p, total, cbits, true);
		}
		res.sums.reset(new buf<P>(ex, total));
		accum_level<F>(ex, 0, total, bases, refs, nullptr, task_start.p, task_count.p,
		               order ? order->p : nullptr, res.sums->p);
	}
	uint32_t parts = (hc[1] + L - 1) / L; // the most partial sums a run has
	if (parts <= 1) return res;

	// The active runs: those of more than one task (each has at least two,
	// so there are at most total − runs). Their number is read back once:
	// the later levels run on exactly them.
	size_t ab = std::min<size_t>(runs, (size_t)total - runs);
	buf<uint32_t> act(ex, ab), cnt_a(ex, ab), off_a(ex, ab), cnt_b(ex, ab), off_b(ex, ab);
	{
		buf<uint32_t> flag(ex, runs), pos(ex, runs);
		ex.launch(runs, active_k{cnt0.p, flag.p});
		ex.exclusive_sum(flag.p, pos.p, runs);
		ex.launch(runs, gather_active_k{flag.p, pos.p, cnt0.p, off0, runs, act.p, cnt_a.p, off_a.p, one.p + 1});
	}
	uint32_t na = 0;
	ex.to_host(&na, one.p + 1, sizeof na);
	// Later levels: active run a's partial sums are cur[off[a] ..] (cnt[a]
	// of them, Σ = total − runs + na); tasks of at most fanin, in run
	// order, on the bound of their number. The first level's sums stay
	// (they hold the finished runs'), and a level's sums with its input's
	// stay within twice the first level's (the scratch model's two levels
	// of sums): cur_n + bound ≤ total. A level reads its exact task count
	// instead of its bound when the bound would pass that, or when a level
	// follows and twice the bound passes total: the next level's count is
	// at most this one's, so that keeps it within total beside this
	// level's bound whatever it is. Exact counts always fit: from the
	// second level on, a run's counts c, ⌈c/f⌉, ⌈⌈c/f⌉/f⌉, … (c ≥ 2,
	// f ≥ 2) have each two consecutive ones after c summing to at most c,
	// so two consecutive levels' exact counts sum to at most Σ c ≤ total.
	uint32_t fanin = (flags & G16_MSM_FANIN8) ? 8 : accum_fanin<F>();
	task_plan plan(na, L, std::min(L, fanin), (uint32_t)((size_t)total - runs + na), hc[1]);
	uint32_t *cnt_in = cnt_a.p, *off_in = off_a.p, *cnt_out = cnt_b.p, *off_out = off_b.p;
	std::unique_ptr<buf<P>> cur;
	size_t cur_n = 0;
	for (int level = 1; !plan.done(); level++) {
		plan.next();
		uint32_t f = plan.fanin;
		ex.launch(na, ntasks_k{cnt_in, f, cnt_out});
		ex.exclusive_sum(cnt_out, off_out, na);
		ex.launch(1, total_k{cnt_out, off_out, na, one.p});
		if (cur_n + plan.bound > total || (!plan.done() && 2 * plan.bound > total)) {
			uint32_t exact = 0;
			ex.to_host(&exact, one.p, sizeof exact);
			plan.bound = exact;
		}
		if (cur_n + plan.bound > total) fail(G16_INTERNAL, "msm: accumulate: a level's sums pass the scratch model's");
		size_t bound = (size_t)plan.bound;
		buf<uint32_t> task_start(ex, bound), task_count(ex, bound);
		ex.launch(bound, emit_k{off_in, cnt_in, off_out, na, f, one.p, task_start.p, task_count.p});
		std::unique_ptr<buf<P>> next(new buf<P>(ex, bound));
		accum_level<F>(ex, level, bound, bases, refs, cur ? cur->p : res.sums->p, task_start.p,
		               task_count.p, nullptr, next->p);
		cur = std::move(next);
		cur_n = bound;
		std::swap(cnt_in, cnt_out);
		std::swap(off_in, off_out);
	}
	// Each active run is one sum now, at its own index.
	ex.launch(na, write_back_k<F>{cur->p, act.p, off0, one.p + 1, res.sums->p});
	return res;
}

// split_t is step 0 (msm_split.cuh): the compacted lists of the ±1
// points (index | sign<<31) and of the other nonzero scalars' indices.
struct split_t {
	uint32_t ones = 0, rest = 0;
	std::unique_ptr<buf<uint32_t>> ones_idx;
	std::unique_ptr<buf<uint32_t>> rest_idx; // null: every scalar is in the rest, in order
};

template <class Fr>
split_t split_scalars(exec_t& ex, const Fr* scalars, size_t n) {
	split_t sp;
	buf<uint32_t> counts(ex, 2);
	buf<uint32_t> one_flag(ex, n), rest_flag(ex, n), one_pos(ex, n), rest_pos(ex, n);
	ex.launch(n, classify_k<Fr>{scalars, one_flag.p, rest_flag.p});
	ex.exclusive_sum(one_flag.p, one_pos.p, n);
	ex.exclusive_sum(rest_flag.p, rest_pos.p, n);
	ex.launch(1, counts_k{one_flag.p, one_pos.p, rest_flag.p, rest_pos.p, n, counts.p});
	uint32_t c[2];
	ex.to_host(c, counts.p, sizeof c);
	sp.ones = c[0];
	sp.rest = c[1];
	if (sp.rest == n) return sp;
	sp.ones_idx.reset(new buf<uint32_t>(ex, sp.ones));
	sp.rest_idx.reset(new buf<uint32_t>(ex, sp.rest));
	ex.launch(n, compact_k<Fr>{scalars, one_flag.p, one_pos.p, rest_flag.p, rest_pos.p, sp.ones_idx->p,
	                       sp.rest_idx->p});
	return sp;
}

// ones_only is the MSM when every nonzero scalar is ±1: the ±1 list as one
// run, summed by accumulate.
template <class F>
void ones_only(exec_t& ex, const affine_t<F>* bases, const split_t& sp, uint32_t L, int flags,
               xyzz_t<F>* out) {
	typedef xyzz_t<F> P;
	P sum = P::inf();
	if (sp.ones > 0) {
		buf<uint32_t> run(ex, 2);
		ex.launch(1, ones_run_k{0, sp.ones, 0, nullptr, run.p, run.p + 1});
		auto acc = accumulate<F>(ex, bases, sp.ones_idx->p, run.p, run.p + 1, 1, L, flags);
		ex.to_host(&sum, acc.sums->p, sizeof(P)); // the one run's place is 0
	}
	std::memcpy(out, &sum, sizeof(P));
}

// msm_run is the MSM over n points. bases holds copies tables of stride
// points each, copy q holding 2^(window·q)·P_i at q·stride + i (copies = 1:
// the plain bases, any window). It writes the bucket sets' sums S_s to out,
// their number to *nw_out, the window to *w_out and the shift to *shift_out:
// the result is Σ_s 2^(shift·s)·S_s. With G16_MSM_HOST_TAIL, *pairs_out = T
// > 1 says that out holds T pairs a set instead (g16cuda.h's g16_msm).
template <class F>
void msm_run(exec_t& ex, const affine_t<F>* bases, size_t stride, int copies, const fr_of<F>* scalars, size_t n,
             int window, int max_task, int flags, xyzz_t<F>* out, int* nw_out, int* pairs_out, int* w_out,
             int* shift_out, g16_msm_timing* timing) {
	typedef xyzz_t<F> P;
	if (n == 0 || n >= (1u << 31)) fail(G16_INVALID, "msm: n must be in [1, 2^31)");
	if (flags & ~G16_MSM_FLAGS) fail(G16_INVALID, "msm: unknown flags (g16cuda.h's G16_MSM_FLAGS lists them)");
	if (window && (window < 4 || window > 24)) fail(G16_INVALID, "msm: window must be in [4, 24]");
	if (copies < 1 || copies > 64) fail(G16_INVALID, "msm: copies must be in [1, 64]");
	if (copies > 1 && !window) fail(G16_INVALID, "msm: a table of copies needs its window");
	if (stride < n) fail(G16_INVALID, "msm: the table's stride is below n");
	if ((uint64_t)copies * stride >= (1u << 31))
		fail(G16_INVALID, "msm: copies·stride must be below 2^31 (a point index has 31 bits)");

	*pairs_out = 1;
	stage_timer tm(ex, timing);
	tm.mark(0);
	split_t sp;
	if (flags & G16_MSM_NO_SPLIT)
		sp.rest = (uint32_t)n;
	else
		sp = split_scalars(ex, scalars, n);
	const uint32_t* idx = sp.rest_idx ? sp.rest_idx->p : nullptr;
	if (timing) {
		timing->ones = sp.ones;
		timing->rest = sp.rest;
	}
	tm.mark(1);

	size_t nr = sp.rest; // Pippenger's points
	const int scalar_bits = fr_of<F>::params::BITS;
	int w = window ? window : pick_window(nr ? nr : n, scalar_bits);
	int nw = (scalar_bits + w - 1) / w;
	if (nw > 64) fail(G16_INVALID, "msm: more than 64 windows");
	// c copies: windows j and j + c share a bucket set, nsets sets in all.
	int c = std::min(copies, nw), nsets = (nw + c - 1) / c;
	*w_out = w;
	*shift_out = w * c;
	uint32_t B = 1u << (w - 1), sentinel = (uint32_t)nsets * B;
	size_t N = nr * (size_t)nw;
	if (N >= (1u << 31)) fail(G16_INVALID, "msm: n·windows must be below 2^31 (split the MSM)");
	// The task cap: avg is a bucket's mean number of points (nr/B a window,
	// c times that with a table of c copies). L ≥ 2, or the split would
	// never shrink a run.
	uint32_t avg = (uint32_t)((N + (size_t)nsets * B - 1) / ((size_t)nsets * B));
	uint32_t L = max_task > 0 ? std::max<uint32_t>(2, (uint32_t)max_task) : std::max<uint32_t>(32, 2 * avg);
	if (nr == 0) { // every scalar is 0 or ±1
		*nw_out = 1;
		ones_only<F>(ex, bases, sp, L, flags, out);
		tm.finish();
		return;
	}
	*nw_out = nsets;
	int bits = 0;
	while ((sentinel >> bits) != 0) bits++;

	// keys and refs hold the run keys and counts after the sort: one more
	// run, the ±1 list's, whose refs follow the sorted ones in srefs.
	buf<uint32_t> keys(ex, N + 1), refs(ex, N + 1), skeys(ex, N), srefs(ex, N + sp.ones);
	ex.launch(nr, digits_k<fr_of<F>>{scalars, idx, (uint32_t)nr, w, nw, B, sentinel, (uint32_t)stride, (uint32_t)c, keys.p,
	                       refs.p});
	tm.mark(2);
	ex.sort_pairs(keys.p, skeys.p, refs.p, srefs.p, N, bits);
	if (sp.ones) ex.copy(srefs.p + N, sp.ones_idx->p, sp.ones * sizeof(uint32_t));
	sp.ones_idx.reset();
	tm.mark(3);

	// Runs of equal keys are the nonempty buckets; the sentinel's run, if
	// any (the zero digits), is last and dropped.
	buf<uint32_t> scratch(ex, 2);
	uint32_t* run_keys = keys.p;
	uint32_t* run_counts = refs.p;
	ex.rle_async(skeys.p, run_keys, run_counts, N, scratch.p);
	ex.launch(1, last_key_k{run_keys, scratch.p});
	uint32_t rl[2];
	ex.to_host(rl, scratch.p, sizeof rl);
	size_t runs = rl[0];
	if (runs > 0 && rl[1] == sentinel) runs--;
	size_t all_runs = runs + (sp.ones ? 1 : 0);
	if (all_runs == 0) { // every scalar is zero (G16_MSM_NO_SPLIT)
		std::vector<P> inf(nsets, P::inf());
		std::memcpy(out, inf.data(), nsets * sizeof(P));
		tm.mark(4);
		tm.finish();
		return;
	}
	buf<uint32_t> run_starts(ex, all_runs);
	ex.exclusive_sum(run_counts, run_starts.p, runs);
	// The ±1 run: its sum goes to slot nsets·B, past the buckets.
	if (sp.ones)
		ex.launch(1, ones_run_k{sentinel, sp.ones, (uint32_t)N, run_keys + runs, run_counts + runs,
		                        run_starts.p + runs});
	tm.mark(4);

	accum_out<F> sums = accumulate<F>(ex, bases, srefs.p, run_counts, run_starts.p, all_runs, L, flags);
	tm.mark(5);

	buf<P> buckets(ex, (size_t)nsets * B + 1);
	ex.zero(buckets.p, ((size_t)nsets * B + 1) * sizeof(P));
	ex.launch(all_runs, scatter_k<F>{run_keys, sums.sums->p, sums.at->p, buckets.p});
	sums.sums.reset();
	sums.at.reset();

	size_t stop = (flags & G16_MSM_HOST_TAIL) ? (size_t)G16_MSM_TAIL_PAIRS : 1;
	red_out<F> red = reduce_buckets<F>(ex, buckets.p, B, (size_t)nsets, reduce_cap<F>(ex), reduce_fixed, stop);
	// out may be less aligned than P (Go memory): copies, not a P in place.
	// Window 0's first A (its sum when T = 1) takes the ±1 run's sum.
	size_t np = (size_t)nsets * red.T;
	P ones_sum;
	ex.to_host_async(out, red.A, np * sizeof(P));
	if (red.T > 1) ex.to_host_async(out + np, red.R, np * sizeof(P));
	ex.to_host_async(&ones_sum, buckets.p + (size_t)nsets * B, sizeof(P));
	ex.wait();
	*pairs_out = (int)red.T;
	tm.mark(6);
	tm.finish();
	P w0;
	std::memcpy(&w0, out, sizeof(P));
	w0.add(ones_sum);
	std::memcpy(out, &w0, sizeof(P));
}
// host_copy is an aligned host copy of Go memory (which may be only 8-byte
// aligned), for the host mode.
struct host_copy {
	void* p = nullptr;
	host_copy(const void* src, size_t bytes) {
		p = std::aligned_alloc(64, (bytes + 63) / 64 * 64 + 64);
		if (!p) throw std::bad_alloc();
		if (src) std::memcpy(p, src, bytes);
	}
	~host_copy() { std::free(p); }
};

template <class F>
void msm_host(const void* bases, size_t stride, int copies, const void* scalars, size_t n, int window, int max_task,
              int flags, void* out, int* nw, int* pairs, int* w, int* shift, int64_t* peak) {
	if (copies < 1 || copies > 64) fail(G16_INVALID, "msm: copies must be in [1, 64]");
	if ((uint64_t)copies * stride >= (1u << 31))
		fail(G16_INVALID, "msm: copies·stride must be below 2^31 (a point index has 31 bits)");
	typedef fr_of<F> Fr;
	host_copy hb(bases, (size_t)copies * stride * sizeof(affine_t<F>)), hs(scalars, n * sizeof(Fr)),
	    ho(nullptr, G16_MSM_OUT_POINTS * sizeof(xyzz_t<F>));
	exec_t ex;
	msm_run<F>(ex, (const affine_t<F>*)hb.p, stride, copies, (const Fr*)hs.p, n, window, max_task, flags,
	           (xyzz_t<F>*)ho.p, nw, pairs, w, shift, nullptr);
	std::memcpy(out, ho.p, (size_t)*nw * (*pairs > 1 ? 2 * *pairs : 1) * sizeof(xyzz_t<F>));
	if (peak) *peak = (int64_t)ex.peak;
}

// G16_MSM_INSTANCES(X, F) declares (X extern) or defines (X empty) the
// instances of the MSM over coordinate field F that msm.cu's entry points
// call.
#define G16_MSM_INSTANCES(X, F)                                                                                   \
	X template void msm_run<F>(exec_t&, const affine_t<F>*, size_t, int, const fr_of<F>*, size_t, int, int, int,   \
	                           xyzz_t<F>*, int*, int*, int*, int*, g16_msm_timing*);                              \
	X template void msm_host<F>(const void*, size_t, int, const void*, size_t, int, int, int, void*, int*, int*, int*, \
	                            int*, int64_t*);                                                                  \
	X template red_out<F> reduce_buckets<F>(exec_t&, const xyzz_t<F>*, uint32_t, size_t, size_t, double, size_t);

#define G16_MSM_EXTERN extern
#define G16_MSM_DEFINE

} // namespace g16
