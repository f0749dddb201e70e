//go:build cuda

package cuda

/*
#include "g16cuda.h"
#include "queue.h"
*/
import "C"

import "github.com/g16prover/g16/backend"

var _ backend.UrgentQueuer = (*Backend)(nil)

// NewUrgentQueue creates a CUDA stream of the device's highest priority
// (kernels/queue.h): the GPU schedules its kernels' blocks before those of
// other streams waiting for room.
func (b *Backend) NewUrgentQueue() (backend.Queue, error) {
	if err := b.enter("NewUrgentQueue"); err != nil {
		return nil, err
	}
	defer b.leave()
	q := &queue{b: b}
	if err := b.status(C.g16_stream_create_urgent(b.dev, &q.s)); err != nil {
		return nil, err
	}
	return q, nil
}
