//go:build cuda

package cuda

/*
#include "g16cuda.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/g16prover/g16/backend"
)

var _ backend.Copier = (*Backend)(nil)

// Copy copies bytes bytes of src from byte srcOff into dst at byte dstOff
// on the GPU (cudaMemcpyAsync, device to device), ordered on q. A table of
// precomputed multiples over dst's span is retired, as an Upload there
// retires it.
func (b *Backend) Copy(q backend.Queue, dst backend.Buffer, dstOff int64, src backend.Buffer, srcOff int64, bytes int64) error {
	const op = "Copy"
	if err := b.enter(op); err != nil {
		return err
	}
	defer b.leave()
	s, err := b.streamOf(op, q)
	if err != nil {
		return err
	}
	xd, err := b.bufferOf(op, "dst", dst)
	if err != nil {
		return err
	}
	xs, err := b.bufferOf(op, "src", src)
	if err != nil {
		return err
	}
	if err := backend.CheckCopy(xd.bytes, dstOff, xs.bytes, srcOff, bytes, xd == xs); err != nil {
		return fmt.Errorf("%v: %s: %w", b, op, err)
	}
	xd.tables.retire(dstOff, bytes)
	if bytes == 0 {
		return nil
	}
	st := C.g16_copy(b.dev, s, unsafe.Add(xd.ptr, dstOff), unsafe.Add(xs.ptr, srcOff), C.int64_t(bytes))
	if err := b.finish(s, b.status(st)); err != nil {
		return fmt.Errorf("%v: %s: %w", b, op, err)
	}
	return nil
}
