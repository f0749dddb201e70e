package solver

import (
	"context"
	"sort"
	"sync"
)

// minTaskCost is the least estimated work worth handing to another
// goroutine; a level with less than twice that runs inline on the calling
// goroutine. A unit is about one term's multiply-add, some 10–15 ns, so a
// task is at least about 10 µs, several times the cost of waking a worker.
// (A variable for the tests, which lower it to cut small levels.)
var minTaskCost int64 = 1024

// run solves the levels in order. The instructions of a level depend only
// on earlier levels, so a large level is cut into contiguous runs of about
// equal cost, one per task; each task owns its scratch, and writes only the
// wires its instructions output and the rows of its R1Cs.
//
// It returns the error of the first failing op in level order and its
// rank, or the context's error and noRank.
func (st *state) run(ctx context.Context) (uint32, error) {
	s := st.s
	nt := st.nt
	var pool *workers
	defer func() {
		if pool != nil {
			pool.stop()
		}
	}()
	done := ctx.Done()
	for l := 0; l+1 < len(s.levels); l++ {
		select {
		case <-done:
			return noRank, ctx.Err()
		default:
		}
		lo, hi := s.levels[l], s.levels[l+1]
		work := s.cost[hi] - s.cost[lo]
		k := int(min(int64(nt), work/minTaskCost))
		if k <= 1 {
			if err := st.chunk(lo, hi, st.scratch[0]); err != nil {
				return st.scratch[0].failAt, err
			}
		} else {
			if pool == nil {
				pool = st.startWorkers(nt - 1)
			}
			if at, err := pool.level(lo, hi, k); err != nil {
				return at, err
			}
		}
		st.levelDone(hi)
	}
	return noRank, nil
}

// workers are the goroutines of one solve beyond the caller's.
//
// A hint or blueprint that panics on a worker panics out of Solve on the
// caller's goroutine (as on one task), once every run of its level is done.
type workers struct {
	st     *state
	tasks  []chan [2]int // worker i solves ops[lo:hi] with scratch i+1
	errs   []error
	panics []any
	wg     sync.WaitGroup
}

func (st *state) startWorkers(n int) *workers {
	p := &workers{st: st, tasks: make([]chan [2]int, n), errs: make([]error, n+1), panics: make([]any, n+1)}
	for i := range p.tasks {
		ch := make(chan [2]int, 1)
		p.tasks[i] = ch
		sc := st.scratch[i+1]
		go func() {
			for r := range ch {
				p.panics[i+1], p.errs[i+1] = p.run(r[0], r[1], sc)
				p.wg.Done()
			}
		}()
	}
	return p
}

// run solves ops[lo:hi] and returns what it panicked with, or its error.
func (p *workers) run(lo, hi int, sc *scratch) (panicked any, err error) {
	defer func() {
		if r := recover(); r != nil {
			panicked = r
		}
	}()
	return nil, p.st.chunk(lo, hi, sc)
}

func (p *workers) stop() {
	for _, ch := range p.tasks {
		close(ch)
	}
}

// level solves ops[lo:hi] in k runs of about equal cost and returns the
// error of the first failing instruction in level order, and its rank.
func (p *workers) level(lo, hi, k int) (uint32, error) {
	cost := p.st.s.cost
	base, work := cost[lo], cost[hi]-cost[lo]
	cut := func(i int) int {
		target := base + work*int64(i)/int64(k)
		return lo + sort.Search(hi-lo, func(j int) bool { return cost[lo+j] >= target })
	}
	first := cut(1)
	start := first
	p.wg.Add(k - 1)
	for i := 1; i < k; i++ {
		end := hi
		if i+1 < k {
			end = cut(i + 1)
		}
		p.tasks[i-1] <- [2]int{start, end}
		start = end
	}
	p.panics[0], p.errs[0] = p.run(lo, first, p.st.scratch[0])
	p.wg.Wait()
	for i := 0; i < k; i++ {
		if v := p.panics[i]; v != nil {
			clear(p.panics)
			panic(v)
		}
	}
	for i := 0; i < k; i++ {
		if err := p.errs[i]; err != nil {
			clear(p.errs)
			return p.st.scratch[i].failAt, err
		}
	}
	return noRank, nil
}
