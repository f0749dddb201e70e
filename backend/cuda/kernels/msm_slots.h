// The slot kernels of the MSM: accum_points_k, accum_sums_k and reduce_k
// (msm.cu) with their points in shared memory and their products in program
// order (slots.cuh). They are G2's kernels, whose points do not fit in
// registers beside the products, and, with G16_MSM_G1_SLOTS, G1's. Each
// curve's are compiled in a file of their own (msm_slots_g1.cu,
// msm_slots_g2_lazy.cu; G2's with G16_MSM_G2_KARATSUBA in msm_slots_g2.cu;
// G2's first level with G16_MSM_FP_KARATSUBA in msm_slots_g2_ka.cu), in
// parallel with msm.cu. LAZY: 0 for G1 and for G2's Fp2 products of three
// Fp products, 1 for G2's lazily reduced ones, 2 for those on one-level
// Karatsuba double-width products.
#pragma once
#include "curve.cuh"
#include "exec.cuh"
#include "msm_reduce.cuh"

#include <type_traits>

namespace g16 {

template <class F, int LAZY>
void launch_accum_points(exec_t& ex, size_t n, const affine_t<F>* bases, const uint32_t* refs,
                         const uint32_t* task_start, const uint32_t* task_count, const uint32_t* order,
                         xyzz_t<F>* out);
template <class F, int LAZY>
void launch_accum_sums(exec_t& ex, size_t n, const xyzz_t<F>* in, const uint32_t* task_start,
                       const uint32_t* task_count, const uint32_t* order, xyzz_t<F>* out);
template <class F, int LAZY>
void launch_reduce(exec_t& ex, size_t n, const xyzz_t<F>* A, const xyzz_t<F>* R, const red_level& lv,
                   xyzz_t<F>* A_out, xyzz_t<F>* R_out);

// slot_accum_points launches accum_points_k's work (task order[i] or i of
// the n tasks sums its points) on the slot kernel; lazy (G2 only) picks the
// kernels whose Fp2 products reduce lazily (fp2_t::mul_lazy): 1, or 2 with
// one-level Karatsuba double-width products (field_ka.cuh;
// G16_MSM_FP_KARATSUBA, msm_slots_g2_ka.cu).
template <class F>
void slot_accum_points(exec_t& ex, int lazy, size_t n, const affine_t<F>* bases, const uint32_t* refs,
                       const uint32_t* task_start, const uint32_t* task_count, const uint32_t* order, xyzz_t<F>* out) {
	if constexpr (std::is_same<F, fp2_t>::value) {
		if (lazy == 2) return launch_accum_points<F, 2>(ex, n, bases, refs, task_start, task_count, order, out);
		if (lazy) return launch_accum_points<F, 1>(ex, n, bases, refs, task_start, task_count, order, out);
	}
	launch_accum_points<F, 0>(ex, n, bases, refs, task_start, task_count, order, out);
}

// slot_accum_sums: accum_sums_k's work.
template <class F>
void slot_accum_sums(exec_t& ex, bool lazy, size_t n, const xyzz_t<F>* in, const uint32_t* task_start,
                     const uint32_t* task_count, const uint32_t* order, xyzz_t<F>* out) {
	if constexpr (std::is_same<F, fp2_t>::value)
		if (lazy) return launch_accum_sums<F, 1>(ex, n, in, task_start, task_count, order, out);
	launch_accum_sums<F, 0>(ex, n, in, task_start, task_count, order, out);
}

// slot_reduce: one level of reduce_k's work (n threads: windows·Tn, twice
// that for pairs).
template <class F>
void slot_reduce(exec_t& ex, bool lazy, size_t n, const xyzz_t<F>* A, const xyzz_t<F>* R, const red_level& lv,
                 xyzz_t<F>* A_out, xyzz_t<F>* R_out) {
	if constexpr (std::is_same<F, fp2_t>::value)
		if (lazy) return launch_reduce<F, 1>(ex, n, A, R, lv, A_out, R_out);
	launch_reduce<F, 0>(ex, n, A, R, lv, A_out, R_out);
}

} // namespace g16
