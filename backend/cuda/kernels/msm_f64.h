// G1's first accumulation level on the hybrid addition of curve_f64.cuh
// (flags G16_MSM_G1_F64, G16_MSM_G1_F64_Q, G16_MSM_G1_F64_LB3 of f64.h), compiled in msm_f64.cu.
#pragma once
#include "curve.cuh"
#include "exec.cuh"

namespace g16 {

// accum_points_f64 sums each of the n tasks' points (task order[i] or i;
// a ref's sign bit negates its point) into out, as msm.cu's accum_points_k;
// qf: Q on the FP64 pipe too; lb3: at least 3 blocks of 128 an SM (at most
// 168 registers, the rest spilled), else as many as 255 registers allow.
void accum_points_f64(exec_t& ex, bool qf, bool lb3, size_t n, const g1_affine_t* bases, const uint32_t* refs,
                      const uint32_t* task_start, const uint32_t* task_count, const uint32_t* order,
                      g1_xyzz_t* out);

} // namespace g16
