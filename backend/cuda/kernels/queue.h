/* Streams of the highest priority the device offers. */
#ifndef G16_QUEUE_H
#define G16_QUEUE_H

#include "g16cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Creates a non-blocking stream of the device's highest priority: when
 * blocks of its kernels and of other streams' kernels wait for room on the
 * device, the block scheduler runs its blocks first (work already running
 * is not preempted). Destroyed with g16_stream_destroy. */
g16_status g16_stream_create_urgent(g16_device* dev, void** stream);

#ifdef __cplusplus
}
#endif

#endif
