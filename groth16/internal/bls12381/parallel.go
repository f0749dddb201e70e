package bls12381

import (
	"runtime"
	"sync"
)

// minPerGoroutine is the fewest elements a goroutine of forRanges takes:
// below it, starting one costs more than the work.
const minPerGoroutine = 1 << 14

// ranges cuts [0, n) into at most GOMAXPROCS ranges of at least
// minPerGoroutine elements (one range when n is smaller).
func ranges(n int) [][2]int {
	k := max(1, min(runtime.GOMAXPROCS(0), n/minPerGoroutine))
	r := make([][2]int, k)
	for t := range r {
		r[t] = [2]int{t * n / k, (t + 1) * n / k}
	}
	return r
}

// forRanges runs f(t, lo, hi) for each range t of rs, the first on the
// calling goroutine, and returns when all have.
func forRanges(rs [][2]int, f func(t, lo, hi int)) {
	var wg sync.WaitGroup
	for t := 1; t < len(rs); t++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(t, rs[t][0], rs[t][1])
		}()
	}
	f(0, rs[0][0], rs[0][1])
	wg.Wait()
}
