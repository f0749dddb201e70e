/* Tables of precomputed multiples of resident bases, and the MSM over them.
 *
 * A table of c copies of n affine points (gnark's layout), stride n: copy q
 * at q·n holds 2^(w·q)·P_i at q·n + i, copy 0 the bases themselves. With it
 * window j of a scalar reads copy j mod c and adds into bucket set ⌊j/c⌋,
 * so ⌈nw/c⌉ bucket sets are reduced instead of nw. */
#ifndef G16_MSM_TABLE_H
#define G16_MSM_TABLE_H

#include "g16cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fills table (device memory, room for copies·n points of group, a
 * G16_GROUP) from the n affine bases (device memory; the point at infinity stays
 * infinity), with window w in [4, 24] and copies in [1, 64]; copies·n must be
 * below 2^31. Ordered on stream (NULL: the internal one, waited for). */
g16_status g16_precompute(g16_device* dev, void* stream, int group, const void* bases, void* table, int64_t n,
                          int copies, int w);

/* g16_msm over a table of copies copies with stride points each and window
 * w, for the n points from the table pointer on (n ≤ stride): writes the
 * *nsums bucket sets' sums S_s to out (host memory, room for
 * G16_MSM_OUT_POINTS points; *pairs as g16_msm's) and *shift: result =
 * Σ_s 2^(shift·s)·S_s. copies = 1 is g16_msm with window w (0: automatic). */
g16_status g16_msm_table(g16_device* dev, void* stream, int group, const void* table, int64_t stride, int copies,
                         int w, const void* scalars, int64_t n, int max_task, int flags, void* out, int* nsums,
                         int* pairs, int* shift, g16_msm_timing* timing);

/* The host emulations of the two (host pointers). */
g16_status g16_host_precompute(int group, const void* bases, void* table, int64_t n, int copies, int w);
g16_status g16_host_msm_table(int group, const void* table, int64_t stride, int copies, int w, const void* scalars,
                              int64_t n, int max_task, int flags, void* out, int* nsums, int* pairs, int* shift);

#ifdef __cplusplus
}
#endif

#endif
