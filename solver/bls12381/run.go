package bls12381

import (
	"context"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/g16prover/g16/solver/internal/inflight"
)

// minTaskCost is the least estimated work one instruction hands to another
// goroutine of its own (a large batch inverse, count hint or hint input
// list is cut into parts of at least this much). A unit is about one
// term's multiply-add, some 10–15 ns. (A variable for the tests.)
var minTaskCost int64 = 1024

// scheduleFor returns the schedule of the solver's instructions on nt
// workers, the checks left out when apart (checks.go), built on first use
// and kept for every later solve.
func (s *Solver) scheduleFor(nt int, apart bool) *schedule {
	key := schedKey{nt: nt, minCost: minChunkCost, apart: apart}
	s.schedMu.Lock()
	defer s.schedMu.Unlock()
	if sc, ok := s.scheds[key]; ok {
		return sc
	}
	var sc *schedule
	if apart {
		sc = s.buildWithout(nt, key.minCost)
	} else {
		g := &graph{
			nbWires: s.nbWires,
			levels:  s.levels,
			cost:    s.cost,
			outputs: func(i int) (uint32, uint32) { return s.outputs(&s.ops[i]) },
			reads:   func(i int, visit func(uint32)) bool { return s.reads(&s.ops[i], visit) },
		}
		sc = buildSchedule(g, nt, key.minCost)
	}
	if s.scheds == nil {
		s.scheds = map[schedKey]*schedule{}
	}
	s.scheds[key] = sc
	return sc
}

// buildWithout schedules the instructions other than the checks on nt
// workers: the schedule of the graph of those alone, its op indices
// translated back to s.ops.
func (s *Solver) buildWithout(nt int, minCost int64) *schedule {
	sub := make([]uint32, 0, len(s.ops)-len(s.checks))
	levels := make([]int, 0, len(s.levels))
	cost := make([]int64, 1, cap(sub)+1)
	for l := 0; l+1 < len(s.levels); l++ {
		if n := len(levels); n == 0 || levels[n-1] != len(sub) {
			levels = append(levels, len(sub))
		}
		for i := s.levels[l]; i < s.levels[l+1]; i++ {
			if o := &s.ops[i]; o.kind != opR1C || o.loc != locNone {
				sub = append(sub, uint32(i))
				cost = append(cost, cost[len(cost)-1]+s.cost[i+1]-s.cost[i])
			}
		}
	}
	if n := len(levels); n == 0 || levels[n-1] != len(sub) {
		levels = append(levels, len(sub))
	}
	g := &graph{
		nbWires: s.nbWires,
		levels:  levels,
		cost:    cost,
		outputs: func(i int) (uint32, uint32) { return s.outputs(&s.ops[sub[i]]) },
		reads:   func(i int, visit func(uint32)) bool { return s.reads(&s.ops[sub[i]], visit) },
	}
	sc := buildSchedule(g, nt, minCost)
	for k, i := range sc.order {
		sc.order[k] = sub[i]
	}
	return sc
}

type schedKey struct {
	nt      int
	minCost int64
	apart   bool
}

// run solves the instructions of schedule sc on st.nt workers: the
// caller's goroutine is worker 0. It returns the error of the first
// failing instruction in level order and its rank, or the context's error
// and noRank.
//
// A worker stops at its first failing instruction and publishes nothing
// more. The others go on with the chunks of levels up to the lowest level
// that failed so far (every chunk they wait for is of a lower level, so it
// is done or will be), so that every instruction of a lower rank than the
// one reported has run; they skip the chunks of higher levels.
//
// With apart (a schedule without the checks), the first failure or panic
// stops every worker and run reports failed, with no error but the
// context's: the solve starts again on the whole schedule.
func (st *state) run(ctx context.Context, sc *schedule, apart bool) (at uint32, failed bool, err error) {
	x := &st.exec
	x.reset(st, sc)
	x.apart = apart
	if ctx.Done() != nil {
		stop := context.AfterFunc(ctx, func() { x.halt(haltCancelled) })
		defer stop()
	}
	var wg sync.WaitGroup
	for w := 1; w < sc.nt; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x.worker(w)
		}()
	}
	x.worker(0)
	wg.Wait()
	// The halt runs on context.AfterFunc's goroutine, which may come
	// after the last chunk: a ctx that ended before the solve returns
	// ends it either way.
	if x.halted.Load() == haltCancelled || ctx.Err() != nil {
		x.panicked = nil
		clear(x.errs)
		return noRank, false, ctx.Err()
	}
	if apart {
		failed = x.panicked != nil || slices.ContainsFunc(x.errs, func(e error) bool { return e != nil })
		x.panicked = nil
		clear(x.errs)
		return noRank, failed, nil
	}
	if v := x.panicked; v != nil {
		x.panicked = nil
		panic(v)
	}
	at = noRank
	for w := 0; w < sc.nt; w++ {
		if e := x.errs[w]; e != nil && st.scratch[w].failAt < at {
			at, err = st.scratch[w].failAt, e
		}
	}
	clear(x.errs)
	return at, err != nil, err
}

// Why a solve stops before its end.
const (
	haltNone uint32 = iota
	haltCancelled
	haltPanic
	haltFailed // an instruction failed, with the checks apart
)

// exec is the progress of one solve's workers.
type exec struct {
	st        *state
	sc        *schedule
	progress  []paddedCount // chunks each worker has finished
	failLevel atomic.Uint32 // the lowest level of a failing instruction so far
	halted    atomic.Uint32 // haltCancelled or haltPanic: every worker stops
	errs      []error       // each worker's error; its rank in its scratch
	apart     bool          // the checks are apart: a failure stops every worker
	polls     int           // a wait's polls before it yields
	panicked  any
	panicMu   sync.Mutex

	// a worker that has waited long sleeps on cond; the workers it waits
	// for wake it when they finish a chunk.
	mu       sync.Mutex
	cond     *sync.Cond
	sleepers atomic.Int32
}

// paddedCount is a counter alone on its cache line (two, for the
// adjacent-line prefetcher), so that the workers publishing their progress
// do not slow each other down.
type paddedCount struct {
	n atomic.Uint32
	_ [124]byte
}

func (x *exec) reset(st *state, sc *schedule) {
	x.st, x.sc = st, sc
	x.polls = spinPollsShared
	if st.active == 1 && sc.nt <= runtime.GOMAXPROCS(0) && inflight.Alone() {
		x.polls = spinPollsAlone
	}
	if cap(x.progress) < sc.nt {
		x.progress = make([]paddedCount, sc.nt)
		x.errs = make([]error, sc.nt)
	}
	x.progress = x.progress[:sc.nt]
	x.errs = x.errs[:sc.nt]
	for i := range x.progress {
		x.progress[i].n.Store(0)
	}
	x.failLevel.Store(^uint32(0))
	x.halted.Store(haltNone)
	x.sleepers.Store(0)
	if x.cond == nil {
		x.cond = sync.NewCond(&x.mu)
	}
}

// halt stops every worker.
func (x *exec) halt(why uint32) {
	x.halted.CompareAndSwap(haltNone, why)
	x.wakeAll()
}

func (x *exec) wakeAll() {
	x.mu.Lock()
	x.cond.Broadcast()
	x.mu.Unlock()
}

// stopped reports whether a chunk of level l must not run.
func (x *exec) stopped(l uint32) bool {
	return x.halted.Load() != haltNone || l > x.failLevel.Load()
}

// worker runs worker w's chunks.
func (x *exec) worker(w int) {
	defer func() {
		if r := recover(); r != nil {
			x.panicMu.Lock()
			if x.panicked == nil {
				x.panicked = r
			}
			x.panicMu.Unlock()
			x.halt(haltPanic)
		}
	}()
	sc, st := x.sc, x.st
	scr := st.scratch[w]
	for c := sc.wStart[w]; c < sc.wStart[w+1]; c++ {
		ch := &sc.chunks[c]
		if x.stopped(ch.level) {
			return
		}
		if !testDropWaits {
			for _, wt := range sc.waits[ch.waitLo:ch.waitHi] {
				if !x.waitFor(int(wt.worker), wt.done, ch.level) {
					return
				}
			}
		}
		if testHook != nil {
			testHook(w, c-sc.wStart[w])
		}
		if err := st.chunk(sc.order[ch.lo:ch.hi], scr); err != nil {
			x.errs[w] = err
			if x.apart {
				x.halt(haltFailed)
				return
			}
			for {
				f := x.failLevel.Load()
				if ch.level >= f || x.failLevel.CompareAndSwap(f, ch.level) {
					break
				}
			}
			x.wakeAll() // sleepers of higher levels stop
			return
		}
		x.progress[w].n.Store(uint32(c - sc.wStart[w] + 1))
		if x.sleepers.Load() != 0 {
			x.wakeAll()
		}
	}
}

// A worker waiting for another first polls its progress (the chunk it
// waits for is usually about to finish, and each worker has a P of its
// own), then yields spinYields times, then sleeps until woken.
// runtime.Gosched goes through the scheduler's global run queue and its
// lock: with every worker of a 16-core solve yielding in a loop, that lock
// took half the solve's CPU time (BENCHMARKS.md, GPU run 20), so the polls
// come first. A solve alone in the process, its workers no more than the
// Ps and no host work marked beside it (Beside), polls spinPollsAlone times
// (about a millisecond): a sleeper's wake-up costs tens of microseconds on
// the chain it waits in, and on 16 cores the recursion circuit's workers
// slept about 2,000 times a solve with shorter polls (run 40: 24.5 ms a
// solve, 13.6 with these). A solve beside other solves or marked host
// work polls spinPollsShared times (a lone solve too, from when another
// begins), so that its workers' spins leave the cores to that work
// (run 40: a batch of ten took 509 ms a round, 675 ms with the long polls).
const (
	spinPollsAlone  = 1 << 18
	spinPollsShared = 1 << 14
	spinYields      = 8
)

// waitFor waits until worker q has finished n chunks, and reports false
// when the solve stops a chunk of level l first.
func (x *exec) waitFor(q int, n, l uint32) bool {
	p := &x.progress[q].n
	polls := x.polls
	for i := 0; p.Load() < n; i++ {
		if x.stopped(l) {
			return false
		}
		if i < polls {
			if i >= spinPollsShared && i%1024 == 0 && !inflight.Alone() {
				polls = i // another solve began: leave it the cores
			}
			continue
		}
		if i < polls+spinYields {
			runtime.Gosched()
			continue
		}
		x.mu.Lock()
		x.sleepers.Add(1)
		for p.Load() < n && !x.stopped(l) {
			x.cond.Wait()
		}
		x.sleepers.Add(-1)
		x.mu.Unlock()
	}
	return true
}

// Test hooks (export_test.go sets them): testHook runs before each chunk,
// after its waits; testDropWaits skips the waits, which breaks the solve.
var (
	testHook      func(worker, chunk int)
	testDropWaits bool
)
