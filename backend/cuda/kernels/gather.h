/* Gathers of field elements: the wire values each MSM reads, picked on the
 * device from the full wire vector. */
#ifndef G16_GATHER_H
#define G16_GATHER_H

#include "g16cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sets dst[i] = src[idx[i]] for i < n: dst and src hold field elements of
 * width bytes (32, or 48: a curve's fr.Element), idx 32-bit indices (all
 * device memory). An index at or beyond nsrc, src's element count, writes
 * zero: nothing past src is read. dst must not overlap src or idx. Ordered
 * on stream (NULL: the internal one, waited for). */
g16_status g16_gather(g16_device* dev, void* stream, void* dst, const void* src, int64_t nsrc, const uint32_t* idx,
                      int64_t n, int width);

#ifdef __cplusplus
}
#endif

#endif
