package cpu

import "sync"

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
	var wg sync.WaitGroup
	for t := range k {
		lo, hi := t*n/k, (t+1)*n/k
		wg.Go(func() { copy(dst[lo:hi], src[lo:hi]) })
	}
	wg.Wait()
}
