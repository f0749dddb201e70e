// The slot kernels of the MSM: accum_points_k, accum_sums_k and reduce_k
// (msm.cu) with their points in shared memory and their products in program
// order (slots.cuh). They are the kernels of G2 and of BW6-761's groups
// (curves.cuh's slot_point), whose points do not fit in registers beside
// the products; they are compiled in files of their own
// (msm_slots_g2_<curve>.cu, msm_slots_bw6_761.cu), in parallel with the
// MSM's units, and their Fp2 products reduce lazily (fp2_t::mul_lazy).
#pragma once
#include "curve.cuh"
#include "exec.cuh"
#include "msm_reduce.cuh"

namespace g16 {

// resident_threads is the number of threads of kernel, in blocks of block
// threads, that the device of ex holds at once: its SMs times the blocks an
// SM takes (from the kernel's registers and shared memory). The reduction
// planner's capacity (reduce_cap, slot_reduce_cap).
inline size_t resident_threads(exec_t& ex, const void* kernel, int block) {
	int sms = 0, blocks = 0;
	G16_CK(ex.ord(), cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, ex.ord()));
	G16_CK(ex.ord(), cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block, 0));
	return (size_t)std::max(sms, 1) * (size_t)std::max(blocks, 1) * (size_t)block;
}

// slot_accum_points launches accum_points_k's work (task order[i] or i of
// the n tasks sums its points) on the slot kernel.
template <class F>
void slot_accum_points(exec_t& ex, size_t n, const affine_t<F>* bases, const uint32_t* refs,
                       const uint32_t* task_start, const uint32_t* task_count, const uint32_t* order, xyzz_t<F>* out);

// slot_accum_sums: accum_sums_k's work.
template <class F>
void slot_accum_sums(exec_t& ex, size_t n, const xyzz_t<F>* in, const uint32_t* task_start,
                     const uint32_t* task_count, const uint32_t* order, xyzz_t<F>* out);

// slot_reduce: one level of reduce_k's work (n threads: windows·Tn, twice
// that for pairs).
template <class F>
void slot_reduce(exec_t& ex, size_t n, const xyzz_t<F>* A, const xyzz_t<F>* R, const red_level& lv,
                 xyzz_t<F>* A_out, xyzz_t<F>* R_out);

// slot_reduce_cap: the threads of slot_reduce's kernel the device holds at
// once (msm.cuh's reduce_cap).
template <class F>
size_t slot_reduce_cap(exec_t& ex);

} // namespace g16
