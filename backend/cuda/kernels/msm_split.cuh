// The split of an MSM's scalars before Pippenger (msm.cu, step 0).
//
// A circuit's wires are mostly 0 and 1 (and some −1, which is r − 1). With
// C1 the points whose scalar is ±1 and Cr the rest of the nonzero ones,
//
//   Σ k_i·P_i = Σ_{i∈C1} ±P_i + Σ_{i∈Cr} k_i·P_i,
//
// so zeros are dropped, the ±1 points are summed as one more run of
// Pippenger's accumulation (no digits, no sort: a run beside the buckets,
// cut into tasks like them, whose sum is added to the result once), and
// Pippenger's digits and sort run on the compacted rest only. Classes are read from the Montgomery form
// directly: 0 is 0, 1 is R mod r, −1 is r − (R mod r).
//
//   classify_k  one_flag[i], rest_flag[i] ∈ {0, 1}
//   (exclusive sums of both flags give each point its place in its list)
//   compact_k   ones[pos] = i | sign<<31 (sign: the scalar is −1),
//               rest[pos] = i
#pragma once
#include "field.cuh"

namespace g16 {

// scalar_class: 0 for 0, 1 for 1, 2 for −1, 3 for any other scalar.
template <class Fr>
G16_HD int scalar_class(const Fr& k) {
	const Fr one = Fr::one(), minus_one = one.neg();
	uint32_t z = 0, d1 = 0, dm = 0;
#pragma unroll
	for (int t = 0; t < Fr::N; t++) {
		z |= k.v[t];
		d1 |= k.v[t] ^ one.v[t];
		dm |= k.v[t] ^ minus_one.v[t];
	}
	return z == 0 ? 0 : d1 == 0 ? 1 : dm == 0 ? 2 : 3;
}

template <class Fr>
struct classify_k {
	const Fr* scalars;
	uint32_t* one_flag;
	uint32_t* rest_flag;
	G16_HD void operator()(size_t i) const {
		int c = scalar_class(scalars[i]);
		one_flag[i] = (c == 1 || c == 2) ? 1 : 0;
		rest_flag[i] = c == 3 ? 1 : 0;
	}
};

// counts_k: the lengths of both lists, from the last flags and places.
struct counts_k {
	const uint32_t* one_flag;
	const uint32_t* one_pos;
	const uint32_t* rest_flag;
	const uint32_t* rest_pos;
	size_t n;
	uint32_t* out; // [ones, rest]
	G16_HD void operator()(size_t) const {
		out[0] = one_pos[n - 1] + one_flag[n - 1];
		out[1] = rest_pos[n - 1] + rest_flag[n - 1];
	}
};

template <class Fr>
struct compact_k {
	const Fr* scalars;
	const uint32_t* one_flag;
	const uint32_t* one_pos;
	const uint32_t* rest_flag;
	const uint32_t* rest_pos;
	uint32_t* ones;
	uint32_t* rest;
	G16_HD void operator()(size_t i) const {
		if (one_flag[i])
			ones[one_pos[i]] = (uint32_t)i | ((scalar_class(scalars[i]) == 2 ? 1u : 0u) << 31);
		else if (rest_flag[i])
			rest[rest_pos[i]] = (uint32_t)i;
	}
};

// ones_run_k: the ±1 list as one run of count items from item start (in
// msm.cu, the run after the buckets, its sum landing in bucket slot key;
// keys may be null).
struct ones_run_k {
	uint32_t key, count, start;
	uint32_t* keys;
	uint32_t* counts;
	uint32_t* starts;
	G16_HD void operator()(size_t) const {
		if (keys) keys[0] = key;
		counts[0] = count;
		starts[0] = start;
	}
};

// last_key_k: out[1] = the last run's key, after the run count in out[0]
// (the host reads both at once).
struct last_key_k {
	const uint32_t* keys;
	uint32_t* out;
	G16_HD void operator()(size_t) const { out[1] = out[0] ? keys[out[0] - 1] : 0; }
};

} // namespace g16
