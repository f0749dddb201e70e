// The task bookkeeping of msm.cu's accumulate (step 3): runs of items cut
// into tasks of at most L items, one thread a task.
//
//   ntasks_k   ntasks[r] = ⌈counts[r]/L⌉ (≥ 1: no run is empty)
//   (an exclusive sum of ntasks gives each run its first task, offsets[r])
//   total_k    the number of tasks, and the largest run (from max_of)
//   emit_k     one thread a task: task q's run is the last r with
//              offsets[r] ≤ q (a binary search: offsets increase strictly),
//              its items start at starts[r] + (q − offsets[r])·L. Threads
//              past the device's total write empty tasks (count 0), so that
//              a level can be launched on an upper bound of its tasks
//              without the host reading the total back.
//   active_k, gather_active_k: the levels after the first
//              run only on the runs that still have more than one partial
//              sum (at most total − runs of them), listed once.
#pragma once
#include <cstddef>
#include <cstdint>

#include "field.cuh"

namespace g16 {

struct ntasks_k {
	const uint32_t* counts;
	uint32_t L;
	uint32_t* ntasks;
	G16_HD void operator()(size_t r) const { ntasks[r] = (counts[r] + L - 1) / L; }
};

// total_k: out[0] = the number of tasks, from the last run's offset and
// count.
struct total_k {
	const uint32_t* ntasks;
	const uint32_t* offsets;
	size_t runs;
	uint32_t* out;
	G16_HD void operator()(size_t) const { out[0] = offsets[runs - 1] + ntasks[runs - 1]; }
};

struct emit_k {
	const uint32_t* starts;
	const uint32_t* counts;
	const uint32_t* offsets;
	uint32_t runs, L;
	const uint32_t* total;
	uint32_t* task_start;
	uint32_t* task_count;
	G16_HD void operator()(size_t i) const {
		uint32_t q = (uint32_t)i;
		if (q >= *total) {
			task_start[q] = 0;
			task_count[q] = 0;
			return;
		}
		uint32_t lo = 0, hi = runs; // offsets[lo] ≤ q < offsets[hi] (offsets[runs] = total)
		while (hi - lo > 1) {
			uint32_t mid = lo + (hi - lo) / 2;
			if (offsets[mid] <= q)
				lo = mid;
			else
				hi = mid;
		}
		uint32_t k = (q - offsets[lo]) * L, c = counts[lo];
		task_start[q] = starts[lo] + k;
		task_count[q] = c - k < L ? c - k : L;
	}
};

// iota_k: v[i] = i.
struct iota_k {
	uint32_t* v;
	G16_HD void operator()(size_t i) const { v[i] = (uint32_t)i; }
};

// active_k: flag[r] = 1 when run r still has more than one partial sum
// after the first level (cnt[r] > 1).
struct active_k {
	const uint32_t* cnt;
	uint32_t* flag;
	G16_HD void operator()(size_t r) const { flag[r] = cnt[r] > 1 ? 1 : 0; }
};

// gather_active_k: the active runs as the runs of the later levels. Run r
// with flag[r] set is active run pos[r]: it lists r, its partial sums'
// count and first place; thread 0 writes the number of active runs to
// *count.
struct gather_active_k {
	const uint32_t* flag;
	const uint32_t* pos;
	const uint32_t* cnt;
	const uint32_t* off;
	size_t runs;
	uint32_t* act;
	uint32_t* act_cnt;
	uint32_t* act_off;
	uint32_t* count;
	G16_HD void operator()(size_t r) const {
		if (r == 0) *count = pos[runs - 1] + flag[runs - 1];
		if (!flag[r]) return;
		uint32_t a = pos[r];
		act[a] = (uint32_t)r;
		act_cnt[a] = cnt[r];
		act_off[a] = off[r];
	}
};

// task_plan is the host's plan of accumulate's levels after the first:
// runs runs (the active ones) holding at most parts0 = ⌈max_count/L⌉
// partial sums each and at most sum0 in all; every level sums at most
// fanin partial sums a task, so the levels' task counts are bounded
// without reading them: a level over runs runs of c_r partial sums
// (Σ c_r ≤ U) has Σ ⌈c_r/f⌉ ≤ (U + runs·(f − 1))/f tasks.
struct task_plan {
	size_t runs;
	uint32_t fanin;
	uint64_t bound;  // the current level's task bound
	uint32_t parts;  // the most partial sums a run has after the current level
	task_plan(size_t r, uint32_t L, uint32_t f, uint32_t sum0, uint32_t max_count)
	    : runs(r), fanin(f), bound(sum0), parts((max_count + L - 1) / L) {}
	bool done() const { return parts <= 1; }
	// next moves to the next level.
	void next() {
		uint64_t b = (bound + (uint64_t)runs * (fanin - 1)) / fanin;
		bound = b < bound ? b : bound;
		parts = (parts + fanin - 1) / fanin;
	}
};

} // namespace g16
