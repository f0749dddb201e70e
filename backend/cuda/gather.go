//go:build cuda

package cuda

/*
#include "g16cuda.h"
#include "gather.h"
*/
import "C"

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
)

var _ backend.Gatherer = (*Backend)(nil)

// Gather sets dst[i] = src[idx[i]] for i < n on the GPU (kernels/gather.h),
// ordered on q; an index at or beyond src's elements writes zero.
func (b *Backend) Gather(q backend.Queue, c ecc.ID, dst, src, idx backend.Buffer, n int) error {
	const op = "Gather"
	if err := b.supports(op, c); err != nil {
		return err
	}
	if n < 0 {
		return fmt.Errorf("%v: %s: n: negative length %d", b, op, n)
	}
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
	xi, err := b.bufferOf(op, "idx", idx)
	if err != nil {
		return err
	}
	if xd == xs || xd == xi {
		return fmt.Errorf("%v: %s: dst: the same buffer as src or idx", b, op)
	}
	scalarBytes := curve.Must(c).FrBytes
	if err := b.span(op, xd, "dst", "", 0, "n", int64(n), scalarBytes); err != nil {
		return err
	}
	if err := b.span(op, xi, "idx", "", 0, "n", int64(n), backend.IndexBytes); err != nil {
		return err
	}
	xd.tables.retire(0, int64(n)*scalarBytes)
	nsrc := xs.bytes / scalarBytes
	return b.finish(s, b.status(C.g16_gather(b.dev, s, xd.ptr, xs.ptr, C.int64_t(nsrc), (*C.uint32_t)(xi.ptr), C.int64_t(n), C.int(scalarBytes))))
}
