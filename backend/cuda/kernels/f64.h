/* The FP64-pipe Fp product of field_f64.cuh: its check against fp_t and a
 * throughput measurement beside fp_t's (f64.cu). Test and tuning hooks. */
#ifndef G16_F64_H
#define G16_F64_H

#include "g16cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* g16_msm flags (beside g16cuda.h's G16_MSM_*): G1's first accumulation
 * level on curve_f64.cuh's addition, ZZ's and ZZZ's products (and U2's, S2's)
 * on the FP64 pipe (msm_f64.cu); with G16_MSM_G1_F64_Q, Q's product too;
 * with G16_MSM_G1_F64_LB3, at least 3 blocks of 128 an SM (else 2). _Q and
 * _LB3 act only with G16_MSM_G1_F64, and G16_MSM_G1_F64 only on G1's
 * register kernels without G16_MSM_BATCH_AFFINE (G16_MSM_G1_SLOTS and
 * G16_MSM_BATCH_AFFINE take precedence). Measured slower than the default:
 * G1 2^24 with 12 copies 110.4 ms against 93.8 on the H100 (run 14). */
enum {
	G16_MSM_G1_F64 = 8388608,
	G16_MSM_G1_F64_Q = 16777216,
	G16_MSM_G1_F64_LB3 = 33554432,
};

/* out[i] = op(a[i], b[i]) over n fp_t elements (Montgomery form, fully
 * reduced), on dev or, dev NULL, on the host: op 0 the product through
 * fp64_t (from_fp, operator*, to_fp), op 1 a[i] through fp64_t and back, op 2
 * a[i]·b[i]^8 as eight fp64_t products in a row (each below 2p, reduced
 * only by to_fp at the end). */
g16_status g16_f64_op(g16_device* dev, int op, void* out, const void* a, const void* b, int64_t n);

/* g16_mul_rate runs one full wave of threads (blocks of 128, as many as fit
 * an SM), each multiplying ni fp_t chains and nf fp64_t chains (0 to 2
 * each, ni + nf ≥ 1) by a fixed factor iters times: chain c of thread i
 * starts from x[(i + c) mod n] and multiplies by y[i mod n] (device arrays of
 * n fp_t). With ni ≥ 1 and nf ≥ 1, thread i's first fp_t chain and first
 * fp64_t chain start from the same element, and *mismatch counts the threads
 * whose two results differ. *ms is the kernel's time (CUDA events), *threads
 * the threads run, *regs the kernel's registers a thread. */
g16_status g16_mul_rate(g16_device* dev, int ni, int nf, int iters, const void* x, const void* y, int64_t n,
                        double* ms, int64_t* threads, int* regs, int64_t* mismatch);

#ifdef __cplusplus
}
#endif

#endif
