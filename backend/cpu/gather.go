package cpu

import (
	"fmt"
	"sync/atomic"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
)

// OpGather names Gather for a Hook.
const OpGather Op = "Gather"

var _ backend.Gatherer = (*Backend)(nil)

// Gather sets dst[i] = src[idx[i]] for i < n on the backend's cores; an
// index at or beyond src's elements fails the call, before dst is written.
func (b *Backend) Gather(q backend.Queue, c ecc.ID, dst, src, idx backend.Buffer, n int) error {
	if err := b.checkQueue(OpGather, q); err != nil {
		return err
	}
	p, _, err := b.curve(OpGather, "curve", c)
	if err != nil {
		return err
	}
	size := p.FrBytes
	if n < 0 {
		return b.errorf(OpGather, "n: negative length %d", n)
	}
	vd, err := b.scalars(OpGather, "dst", dst, "n", n, size)
	if err != nil {
		return err
	}
	xs, err := b.own(OpGather, "src", src)
	if err != nil {
		return err
	}
	nsrc := int(xs.bytes / size)
	vs, err := b.scalars(OpGather, "src", src, "src elements", nsrc, size)
	if err != nil {
		return err
	}
	xi, err := b.own(OpGather, "idx", idx)
	if err != nil {
		return err
	}
	ib, err := b.span(OpGather, xi, "idx", "", 0, "n", n, backend.IndexBytes)
	if err != nil {
		return err
	}
	var vi []uint32
	if n > 0 {
		vi = unsafe.Slice((*uint32)(unsafe.Pointer(&ib[0])), n)
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
				copy(vd[int64(i)*size:int64(i+1)*size], vs[int64(vi[i])*size:int64(vi[i]+1)*size])
			}
		})
		return nil
	})
}
