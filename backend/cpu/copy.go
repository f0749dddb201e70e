package cpu

import "github.com/g16prover/g16/backend"

// OpCopy names Copy for a Hook.
const OpCopy Op = "Copy"

var _ backend.Copier = (*Backend)(nil)

// Copy copies bytes bytes of src from byte srcOff into dst at byte dstOff,
// on the backend's cores. dst's span is always written in the buffer's own
// memory, never through a span read in place from the caller's memory
// (UploadReadOnly): the buffer's own memory is made, with those spans
// copied in, if it was not yet.
func (b *Backend) Copy(q backend.Queue, dst backend.Buffer, dstOff int64, src backend.Buffer, srcOff int64, bytes int64) error {
	if err := b.checkQueue(OpCopy, q); err != nil {
		return err
	}
	xd, err := b.own(OpCopy, "dst", dst)
	if err != nil {
		return err
	}
	xs, err := b.own(OpCopy, "src", src)
	if err != nil {
		return err
	}
	if err := backend.CheckCopy(xd.bytes, dstOff, xs.bytes, srcOff, bytes, xd == xs); err != nil {
		return b.errorf(OpCopy, "%v", err)
	}
	return b.run(q, OpCopy, bytes, func() error {
		if bytes == 0 {
			return nil
		}
		from := xs.span(srcOff, bytes)
		xd.mu.Lock()
		to := xd.memLocked()[dstOff : dstOff+bytes]
		xd.mu.Unlock()
		copyParallel(to, from, b.cfg.tasks)
		return nil
	})
}

// minCopyPerTask is the fewest bytes a task of copyParallel copies.
const minCopyPerTask = 1 << 20

// copyParallel copies src into dst (len(dst) ≥ len(src)) with up to tasks
// goroutines, each a contiguous range: one core's copy of a vector of
// millions of elements, most of it first touches of fresh pages, is
// slower than the cores' together.
func copyParallel(dst, src []byte, tasks int) {
	n := len(src)
	k := max(1, min(tasks, n/minCopyPerTask))
	if k == 1 {
		copy(dst, src)
		return
	}
	rs := make([][2]int, k)
	for t := range rs {
		rs[t] = [2]int{t * n / k, (t + 1) * n / k}
	}
	parallel(rs, func(_, lo, hi int) { copy(dst[lo:hi], src[lo:hi]) })
}
