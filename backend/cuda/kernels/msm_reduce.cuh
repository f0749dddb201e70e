// The levels of the bucket reduction (msm.cu, step 4): their shape, shared
// by the register kernel (reduce_k) and the slot kernel (reduce_s).
//
// A level holds, per window, pairs (A_s, R_s), s < T, standing for
//
//   V = Σ_s A_s + Σ_s s·R_s.
//
// The first level has A_s = R_s = S_s, the bucket sums, so V = Σ_b (b+1)·S_b,
// the window's sum. Cutting s into segments of m, s = t·m + u (u < m),
//
//   V = Σ_t [ Σ_u A_tm+u + Σ_u u·R_tm+u ] + Σ_t t·(m·Σ_u R_tm+u),
//
// so the pairs t < ⌈T/m⌉ with
//
//   A'_t = Σ_u A_tm+u + Σ_u u·R_tm+u,   R'_t = m·Σ_u R_tm+u
//
// stand for the same V. A segment's inner sum is a running sum from the
// top (acc += running before running += R_s), about 3m additions and lg m
// doublings in one thread. For m = 2 it is
//
//   A'_t = A_2t + A_2t+1 + R_2t+1,   R'_t = 2·(R_2t + R_2t+1):
//
// two additions for A' and an addition and a doubling for R', which two
// threads compute side by side. The last level (T ≤ m) leaves A'_0 = V.
// Which m each level takes is a trade of work against depth: a segment of
// 16 does about 3 additions an input, pairs about 2 but leave half the
// inputs where a segment leaves a sixteenth, and a segment's thread runs
// about 3m additions one after another where a pair's runs 2. The planner
// (plan_level) prices each shape by the device's resident threads: a
// level of more threads than fit runs in waves, so where pairs are many
// the work decides, and where they are few the depth does (BW6-761's
// additions take tens of microseconds each on one thread).
#pragma once
#include <cstddef>
#include <cstdint>

namespace g16 {

// red_level is one level of the bucket reduction (see the top of the
// file): per window, the pairs s < T become the pairs t < Tn = ⌈T/m⌉.
// pair (m = 2): two threads an output, one computing A'_t, the other R'_t;
// else one thread an output. last: Tn = 1, so R' is not needed.
struct red_level {
	uint32_t T, Tn, m;
	int lgm;
	bool same, pair, last;
};

// red_shapes is the number of shapes plan_level chooses among: m = 2
// (pairs), 4, 8 and 16.
const int red_shapes = 4;

// red_depth is the additions and doublings one thread of a level runs in
// turn, for inputs n of a segment (or a pair's 2): in a segment the first
// addition into each of running, sum and acc (and acc's second) only
// copies, so 3n − 3 (2n − 2 when same: no separate sum), and lg m
// doublings of running unless last; a pair's threads two each.
inline double red_depth(uint32_t n, int lgm, bool same, bool last) {
	if (lgm == 1) return 2;
	double adds = same ? 2.0 * n - 2 : 3.0 * n - 3;
	return (adds > 0 ? adds : 0) + (last ? 0 : lgm);
}

// red_first_segment is the bucket count (windows·T) from which the first
// level is a segment of 16, whatever the cost: the scratch model
// (scratch.go) holds 1.2 bucket arrays for the reduction from 2^20 buckets.
const size_t red_first_segment = size_t(1) << 20;

// plan_level picks the shape of the next level for windows·T pairs, the
// first when same, on a device that holds cap threads at once, where a
// level costs fixed additions beside its own (the launch, the loads, the
// first instructions' fetch: msm.cuh's reduce_fixed): of the plans that
// run levels until one pair a window is left, or windows·T ≤ stop, the one
// of least modelled time, Σ over levels of ⌈threads/cap⌉ · red_depth +
// fixed, and returns its first level. The pair counts the levels reach
// are ⌈T/2^k⌉, so the search is over k ≤ 32.
inline red_level plan_level(uint32_t T, size_t windows, bool same, size_t cap, double fixed, size_t stop = 1) {
	const int K = 33;
	double cost[K];
	int pick[K];
	uint32_t Tk[K];
	int top = K - 1; // Tk[top] = 1, the first such k
	for (int k = K - 1; k >= 0; k--) {
		Tk[k] = (uint32_t)(((uint64_t)T + (uint64_t(1) << k) - 1) >> k);
		if (Tk[k] == 1) top = k;
	}
	if (cap < 1) cap = 1;
	for (int k = top; k >= 0; k--) {
		cost[k] = 0;
		pick[k] = 0;
		if (Tk[k] <= 1 || (size_t)Tk[k] * windows <= stop) continue;
		bool first = same && k == 0;
		cost[k] = 1e300;
		for (int lg = 1; lg <= red_shapes; lg++) {
			if (first && (size_t)T * windows >= red_first_segment && lg != red_shapes) continue;
			int next = k + lg < top ? k + lg : top;
			uint32_t m = 1u << lg, Tn = Tk[next];
			bool last = Tn == 1;
			size_t threads = windows * Tn * (lg == 1 && !last ? 2 : 1);
			double waves = (double)((threads + cap - 1) / cap);
			double c = waves * red_depth(m < Tk[k] ? m : Tk[k], lg, first, last) + fixed + cost[next];
			if (c < cost[k]) {
				cost[k] = c;
				pick[k] = lg;
			}
		}
	}
	int lg = pick[0] > 0 ? pick[0] : 1;
	uint32_t m = 1u << lg;
	red_level lv{T, (T + m - 1) / m, m, lg, same, lg == 1, false};
	lv.last = lv.Tn == 1;
	return lv;
}

// red_plan is the levels of one reduction, in order: at most 32, as T ≤
// 2^32 and each level at least halves it (g16cuda.h's G16_REDUCE_LEVELS).
struct red_plan {
	red_level lv[32];
	int n = 0;
};

// plan_levels plans the levels that reduce windows sets of T pairs until
// one pair a set is left or windows·T ≤ stop, each by plan_level.
inline red_plan plan_levels(uint32_t T, size_t windows, size_t cap, double fixed, size_t stop = 1) {
	red_plan p;
	for (bool same = true; T > 1 && (size_t)T * windows > stop && p.n < 32; same = false) {
		p.lv[p.n] = plan_level(T, windows, same, cap, fixed, stop);
		T = p.lv[p.n++].Tn;
	}
	return p;
}

} // namespace g16
