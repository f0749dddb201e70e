package cpu

import (
	"fmt"
	"sync/atomic"

	"github.com/g16prover/g16/backend"
)

// OpGather names Gather for a Hook.
const OpGather Op = "Gather"

var _ backend.Gatherer = (*Backend)(nil)

// Gather sets dst[i] = src[idx[i]] for i < n on the backend's cores; an
// index at or beyond src's elements fails the call, before dst is written.
func (b *Backend) Gather(q backend.Queue, dst, src, idx backend.Buffer, n int) error {
	if err := b.checkQueue(OpGather, q); err != nil {
		return err
	}
	if n < 0 {
		return b.errorf(OpGather, "n: negative length %d", n)
	}
	vd, err := b.scalars(OpGather, "dst", dst, "n", n)
	if err != nil {
		return err
	}
	xs, err := b.own(OpGather, "src", src)
	if err != nil {
		return err
	}
	nsrc := int(xs.bytes / backend.ScalarBytes)
	vs, err := b.scalars(OpGather, "src", src, "src elements", nsrc)
	if err != nil {
		return err
	}
	xi, err := b.own(OpGather, "idx", idx)
	if err != nil {
		return err
	}
	vi, err := view[uint32](b, OpGather, xi, "idx", "", 0, "n", n)
	if err != nil {
		return err
	}
	if dst == src || dst == idx {
		return b.errorf(OpGather, "dst: the same buffer as src or idx")
	}
	return b.run(q, OpGather, int64(n), func() error {
		// An index out of range, if any (−1: none).
		var bad atomic.Int64
		bad.Store(-1)
		b.parallel(n, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				if int(vi[i]) >= nsrc {
					bad.Store(int64(i))
					return
				}
			}
		})
		if i := bad.Load(); i >= 0 {
			return fmt.Errorf("%s: %s: idx[%d] = %d, src holds %d elements", b.name, OpGather, i, vi[i], nsrc)
		}
		b.parallel(n, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				vd[i] = vs[vi[i]]
			}
		})
		return nil
	})
}
