/* The NTT and the quotient step of libg16cuda (see g16cuda.h for the
 * conventions: every function returns a g16_status by value and never
 * aborts).
 *
 * The transform runs in place over n = 2^log_n fr.Elements in Montgomery
 * form. The twiddle and scale tables are built by the caller (the Go side,
 * from gnark-crypto's ω) and stay in device memory across calls; this file's
 * code never computes a root of unity itself.
 */
#ifndef G16CUDA_NTT_H
#define G16CUDA_NTT_H

#include "g16cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest log_n the kernels take: indices and exponents fit 32 bits. */
#define G16_NTT_MAX_LOG 30

typedef struct {
	int curve; /* G16_CURVE_*: the scalar field the elements are in */
	int log_n; /* n = 2^log_n, 0 ≤ log_n ≤ G16_NTT_MAX_LOG */
	int dit;   /* 0: DIF, natural in, bit-reversed out; 1: DIT, bit-reversed in, natural out */

	/* Tuning, 0 for the defaults (10, 10, 128). A pass does at most max_k
	 * radix-2 stages on blocks of 2^log_block elements held in shared
	 * memory, with `threads` threads a block (a power of two, 32 to 512);
	 * 1 ≤ max_k ≤ min(log_block, log_roots), log_block ≤ 12. Small values let
	 * the host mode check the multi-pass index logic on small n. */
	int max_k;
	int log_block;
	int threads;

	/* roots[m] = ω^(m·2^(log_n − log_roots)) for m < 2^(log_roots − 1): the
	 * roots of order 2^log_roots, log_roots ≤ log_n. ω is the domain's
	 * generator for the forward transform, its inverse for the inverse. */
	int log_roots;
	const void* roots;

	/* Windowed powers of the same ω: ω^e = tw_lo[e mod 2^win]·tw_hi[e >> win]
	 * for e < n; tw_lo has 2^win entries, tw_hi 2^(log_n − win). */
	int win;
	const void* tw_lo;
	const void* tw_hi;
	/* Optional (NULL: not given). tw_hi0 = scale_c·tw_hi, entry by entry:
	 * with scale = 1 and more than one pass, the constant is folded into the
	 * first pass's twiddles, which every element meets once, and costs no
	 * multiplication of its own. direct[m] = ω^(m·2^(log_n − log_direct)) for
	 * m < 2^log_direct, log_direct < log_n: a pass whose twiddles are powers of
	 * a root of order at most 2^log_direct reads them there in one load
	 * instead of two loads and a multiplication. */
	const void* tw_hi0;
	int log_direct;
	const void* direct;

	/* Scaling by a factor that depends on the natural index i of the input
	 * element (scale_out = 0) or of the output element (scale_out = 1):
	 *   scale 0: none;
	 *   scale 1: by the constant scale_c (the curve's fr.Element as little-endian
	 *            32-bit limbs: 8, or 12 on BW6-761; the limbs past it are ignored);
	 *   scale 2: by sc_lo[i mod 2^win]·sc_hi[i >> win] (same windows as tw).
	 * Forward on a coset g: input, sc = g^i. Inverse: output, the constant
	 * n⁻¹, or on a coset sc = n⁻¹·g^(−i) (n⁻¹ folded into sc_hi). */
	int scale;
	int scale_out;
	uint32_t scale_c[12];
	const void* sc_lo;
	const void* sc_hi;
} g16_ntt_args;

/* Enqueues the transform of the n elements at data (device memory, 16-byte
 * aligned) on stream (NULL: the device's internal stream). The tables are
 * device pointers and must stay valid until the work is done. */
g16_status g16_ntt(g16_device* dev, void* stream, void* data, const g16_ntt_args* args);

/* The same passes run on the host, one loop iteration per GPU thread and one
 * barrier between loops: data and the tables are host pointers. Slow; for
 * checking the kernels' index logic on machines with no GPU. */
g16_status g16_host_ntt(void* data, const g16_ntt_args* args);

/* Tables for g16_ntt: bytes from host memory src into a new cudaMalloc
 * allocation, copied before the call returns. Table memory is the backend's
 * own cache: it is not counted against the device's memory limit or in use. */
g16_status g16_ntt_table_new(g16_device* dev, const void* src, int64_t bytes, void** ptr);
g16_status g16_ntt_table_free(g16_device* dev, void* ptr);

/* a[i] = (a[i]·b[i] − c[i])·z_inv for i < n over the curve's (G16_CURVE_*)
 * scalar field, enqueued on stream. a, b, c are
 * device pointers (16-byte aligned); z_inv is a host pointer to one
 * fr.Element, read during the call. */
g16_status g16_quotient(g16_device* dev, void* stream, int curve, void* a, const void* b, const void* c,
                        int64_t n, const void* z_inv);

/* The same on the host (a, b, c host pointers). */
g16_status g16_host_quotient(int curve, void* a, const void* b, const void* c, int64_t n, const void* z_inv);

#ifdef __cplusplus
}
#endif

#endif
