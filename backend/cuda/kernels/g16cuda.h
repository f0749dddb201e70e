/* The C interface of libg16cuda, the CUDA half of g16's cuda backend.
 *
 * Every function returns a g16_status by value: code G16_OK, or an error
 * code with a message that names the failing call, where it was made, and the
 * device ("cuda:0: cudaMallocAsync(&p, bytes, st)@device.cu:91: out of
 * memory"). No function exits, aborts, or lets a C++ exception out.
 *
 * Pointers to host memory (src, dst, out) are used only during the call.
 */
#ifndef G16CUDA_H
#define G16CUDA_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
	G16_OK = 0,
	G16_OOM = 1,     /* out of device memory, or over the memory limit */
	G16_CUDA = 2,    /* any other CUDA error */
	G16_INVALID = 3, /* bad argument */
	G16_INTERNAL = 4,
	G16_LOST = 5,    /* a sticky CUDA error: the device's context is unusable until reset */
};

#define G16_MSG 384

typedef struct {
	int code;
	char msg[G16_MSG];
} g16_status;

typedef struct g16_device g16_device;

/* The curves the kernels compute on. */
enum { G16_CURVE_BLS12_381 = 1, G16_CURVE_BN254 = 2, G16_CURVE_BLS12_377 = 3, G16_CURVE_BW6_761 = 4 };
/* The group argument of the MSM functions (g16_msm, msm_table.h, the host
 * emulations): G16_GROUP(curve, g) for g = 1 (G1) or 2 (G2), so BLS12-381's
 * G1 and G2 are 1 and 2, BN254's 3 and 4, BLS12-377's 5 and 6 and BW6-761's 7 and 8. Bases
 * are the curve's affine points in gnark-crypto's layout; an MSM's out points are XYZZ points
 * (X, Y, ZZ, ZZZ) of the curve's Fp (G1, and BW6-761's G2) or Fp2 (G2, A0 then A1) in
 * Montgomery form. Scalars are the curve's fr.Elements in Montgomery form (32 bytes, 48 on
 * BW6-761). */
#define G16_GROUP(c, g) (2 * ((c) - 1) + (g))

/* Milliseconds spent in each MSM stage, measured with CUDA events. */
typedef struct {
	float split;      /* scalars classified, the ±1 points and the rest compacted */
	float digits;     /* scalars out of Montgomery form, signed window digits */
	float sort;       /* radix sort of (bucket, point) pairs */
	float plan;       /* run-length encoding, task split */
	float accumulate; /* bucket sums and the ±1 points' sum (all levels of the split) */
	float reduce;     /* scatter and bucket reduction to one sum per window */
	float total;
	int64_t ones;     /* points with scalar ±1 (one run beside the buckets) */
	int64_t rest;     /* points with another nonzero scalar (Pippenger's) */
} g16_msm_timing;

g16_status g16_device_count(int* count);
g16_status g16_open(int ordinal, int64_t limit, g16_device** dev);
g16_status g16_close(g16_device* dev);
/* Frees dev's host-side state only: for a device reset since it was opened. */
void g16_forget(g16_device* dev);
/* cudaDeviceReset of GPU ordinal: after a G16_LOST, the way to use it again.
 * Every g16_device of that GPU is invalid afterwards. */
g16_status g16_reset(int ordinal);
/* Test hook: launches a kernel that writes through an invalid address on
 * stream (NULL: the internal one) and waits for it, so that the context is
 * poisoned and the call returns G16_LOST. */
g16_status g16_fault(g16_device* dev, void* stream);

g16_status g16_stream_create(g16_device* dev, void** stream);
g16_status g16_stream_destroy(g16_device* dev, void* stream);
g16_status g16_stream_sync(g16_device* dev, void* stream);

/* pooled != 0: from the backend's own pool (cudaMallocFromPoolAsync) on the
 * stream (NULL: the device's internal
 * stream); else cudaMalloc. bytes is needed again by g16_free. */
g16_status g16_alloc(g16_device* dev, void* stream, int64_t bytes, int pooled, void** ptr);
g16_status g16_free(g16_device* dev, void* stream, void* ptr, int64_t bytes, int pooled);
g16_status g16_trim(g16_device* dev, int64_t keep);
g16_status g16_sync(g16_device* dev);
g16_status g16_memory(g16_device* dev, int64_t* capacity, int64_t* in_use, int64_t* cached);
/* The most bytes in use (buffers and kernels' scratch) since the last reset;
 * reset != 0 starts a new count from what is in use now. */
g16_status g16_memory_peak(g16_device* dev, int64_t* peak, int reset);
g16_status g16_name(g16_device* dev, char* name, int len);

/* Host to device through pinned staging buffers; returns once src may be
 * reused (the last copy may still be in flight on the stream). */
g16_status g16_upload(g16_device* dev, void* stream, void* dst, const void* src, int64_t bytes);
/* Device to host; returns once dst holds the data. */
g16_status g16_download(g16_device* dev, void* stream, void* dst, const void* src, int64_t bytes);

/* Pippenger MSM over n points of group (G16_GROUP). bases: device
 * pointer to gnark affine points (16-byte aligned); scalars: device pointer to
 * fr.Elements in Montgomery form. window = 0 picks the window size; max_task =
 * 0 picks the bucket split; flags: G16_MSM_* below. Writes the windows' sums to out (host memory,
 * room for G16_MSM_OUT_POINTS XYZZ points), with the window count and size in *nwindows and *wbits,
 * and *pairs: with *pairs = 1, out[j] is window j's sum W_j; with *pairs = T > 1 (G16_MSM_HOST_TAIL),
 * out holds T pairs a window, A_js at out[j·T + s] and R_js at out[nwindows·T + j·T + s], and
 * W_j = Σ_s A_js + Σ_s s·R_js. result = Σ_j 2^(wbits·j)·W_j. timing may be NULL. */
g16_status g16_msm(g16_device* dev, void* stream, int group, const void* bases, const void* scalars, int64_t n,
                   int window, int max_task, int flags, void* out, int* nwindows, int* pairs, int* wbits,
                   g16_msm_timing* timing);

/* The most pairs (windows·T) a G16_MSM_HOST_TAIL reduction leaves to the host, and the XYZZ points
 * g16_msm's out must have room for (64 windows, or 2·G16_MSM_TAIL_PAIRS). */
enum { G16_MSM_TAIL_PAIRS = 64, G16_MSM_OUT_POINTS = 128 };

/* g16_msm flags, for tuning and tests; 0 is the default pipeline. */
enum {
	G16_MSM_NO_SPLIT = 16,    /* Pippenger over every point: no separate sum of the ±1 points, zeros not dropped */
	G16_MSM_FANIN8 = 65536, /* accumulation levels after the first: tasks of 8 partial sums (default 4 on G1,
	                           2 on G2) */
	G16_MSM_HOST_TAIL = 262144, /* bucket reduction: the device stops once windows·T ≤ G16_MSM_TAIL_PAIRS
	                               and the host sums the pairs (*pairs = T): the last levels, a few
	                               threads' chains of additions, run where an addition is fast */
	G16_MSM_FLAGS = G16_MSM_NO_SPLIT | G16_MSM_FANIN8 | G16_MSM_HOST_TAIL /* every flag; g16_msm rejects others */
};

/* The same pipeline run on the host, one loop iteration per GPU thread, on
 * an emulated carry flag: a check of the kernels' logic with no GPU. bases
 * and scalars are host pointers here. */
g16_status g16_host_msm(int group, const void* bases, const void* scalars, int64_t n, int window, int max_task,
                        int flags, void* out, int* nwindows, int* pairs, int* wbits);

/* msm_table.h's g16_host_msm_table (copies = 1, stride = n: the bases alone) that writes
 * the most bytes its buffers held at once to *peak (what the device's pool
 * would count, less CUB's temporaries), for the scratch model's check. */
g16_status g16_host_msm_peak(int group, const void* table, int64_t stride, int copies, int window,
                             const void* scalars, int64_t n, int max_task, int flags, int64_t* peak);

/* The bucket reduction alone on the host (a check of its levels): for each
 * of windows sets of T XYZZ bucket sums S_b (set j at j·T), Σ_b (b+1)·S_b,
 * written to out as g16_msm writes its windows' sums (out[j] when *pairs = 1,
 * else *pairs pairs a window; out has room for max(windows, 2·stop) XYZZ
 * points). The levels run until one pair a window is left or windows·T ≤ stop
 * (stop = 1: to the end; G16_MSM_HOST_TAIL's is G16_MSM_TAIL_PAIRS), on
 * g16_msm's kernels; cap is the resident threads the level planner assumes
 * (in the MSM, the device's for the reduction's kernel) and fixed what it
 * counts for a level beside its additions, in additions. */
g16_status g16_host_reduce(int group, const void* buckets, int64_t T, int64_t windows, int64_t cap,
                           double fixed, int64_t stop, void* out, int* pairs);

/* The levels g16_host_reduce runs for the same T, windows, cap, fixed and stop:
 * shapes receives each level's lg m (1: pairs; 2, 3, 4: segments of 4, 8,
 * 16), then a 0; it has room for G16_REDUCE_LEVELS + 1. */
enum { G16_REDUCE_LEVELS = 32 };
g16_status g16_reduce_plan(int64_t T, int64_t windows, int64_t cap, double fixed, int64_t stop, int* shapes);

/* Field arithmetic check: out[i] = op(a[i], b[i]) for i < n, on the device
 * (dev != NULL; out, a, b device pointers) or the host (dev == NULL).
 * ops: 0 fp mul, 1 fp add, 2 fp sub, 3 fp neg, 4 fp2 mul, 5 fp2 sqr,
 * 6 fr from Montgomery, 7 fp sqr, 8 fp2 mul with lazy reduction, 9 fp a·b − b·b with one
 * reduction (mul_sub), 10 fp2 a·b − b·b with lazy reduction (mul_sub_lazy), and with four
 * operands (a and b then hold 2n elements, c = a[n + i], d = b[n + i]) 11 fp a·b − c·d
 * (mul_sub), 12 fp2 a·b − c·d (mul_sub_lazy); and the double-width integer products of 12-limb
 * integers (out holds 24 limbs an element): 13 a·b (mont_t::mul_wide), 14 a² (mont_t::sqr_wide). */
g16_status g16_field_op(g16_device* dev, int op, void* out, const void* a, const void* b, int64_t n);

/* Each curve's fields through the one field template (field.cuh's mont_t over a curve's parameter
 * header): out[i] = op(a[i], b[i]) for i < n over field, elements in gnark-crypto's Montgomery form,
 * on the device (dev != NULL; out, a, b device pointers) or the host (dev == NULL); b NULL: a. */
enum {
	G16_FIELD_BLS12_381_FP = 0,
	G16_FIELD_BLS12_381_FR = 1,
	G16_FIELD_BN254_FP = 2,
	G16_FIELD_BN254_FR = 3,
	G16_FIELD_BLS12_381_FP2 = 4, /* fp2.cuh over the curve's Fp: gnark-crypto's E2 */
	G16_FIELD_BN254_FP2 = 5,
	G16_FIELD_BLS12_377_FP = 6,
	G16_FIELD_BLS12_377_FR = 7,
	G16_FIELD_BLS12_377_FP2 = 8, /* Fp[u]/(u² + 5) */
	G16_FIELD_BW6_761_FP = 9,
	G16_FIELD_BW6_761_FR = 10
};
enum {
	G16_MONT_MUL = 0,  /* a·b */
	G16_MONT_ADD = 1,  /* a + b */
	G16_MONT_SUB = 2,  /* a − b */
	G16_MONT_NEG = 3,  /* −a */
	G16_MONT_SQR = 4,  /* a² */
	G16_MONT_INV = 5,  /* a⁻¹ (0 for 0) */
	G16_MONT_FROM = 6, /* a out of Montgomery form: the plain integer's limbs (not for Fp2) */
	/* Fp2 only: fp2.cuh's lazily reduced products */
	G16_MONT_MUL_LAZY = 7,    /* a·b (fp2::mul_lazy) */
	G16_MONT_MUL_SUB_LAZY = 8 /* a·b − b·b (fp2::mul_sub_lazy) */
};
g16_status g16_mont_op(g16_device* dev, int field, int op, void* out, const void* a, const void* b, int64_t n);

#ifdef __cplusplus
}
#endif

#endif
