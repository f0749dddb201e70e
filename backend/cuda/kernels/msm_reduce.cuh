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
// Segments of 16 keep the first levels' work low where buckets are many;
// once few remain, pairs keep each level two operations deep (the tail is
// latency, not work).
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

// plan_level picks the next level's shape for windows·T pairs: segments
// of m = 16, 8 or 4 while windows·⌈T/m⌉ still gives `wide` threads (the
// work of a segment, about 3m additions, is then spread over enough of
// them), else pairs (m = 2, two threads an output, two additions deep).
inline red_level plan_level(uint32_t T, size_t windows, bool same, size_t wide) {
	red_level lv{T, 0, 2, 1, same, true, false};
	for (int lg = 4; lg >= 2; lg--) {
		uint32_t m = 1u << lg, Tn = (T + m - 1) / m;
		if (windows * Tn >= wide) {
			lv.m = m;
			lv.lgm = lg;
			lv.pair = false;
			break;
		}
	}
	lv.Tn = (T + lv.m - 1) / lv.m;
	lv.last = lv.Tn == 1;
	return lv;
}

} // namespace g16
