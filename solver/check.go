package solver

import (
	"context"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// noRank is the rank of no instruction: a solve stopped by its context.
const noRank = ^uint32(0)

// solve solves every wire, then evaluates and checks the R1Cs that solve
// nothing. It returns the error of the first failing instruction in gnark's
// level order: a failure of the wire-solving pass at rank p is reported
// only when no check of a lower rank fails.
//
// With more than one task, a checker goroutine takes the checks in order
// while the wires are solved, each block once the levels before it are
// done; the checks it has not reached when the wires are all solved are
// cut among every task.
func (st *state) solve(ctx context.Context) error {
	ck := st.startChecker()
	defer ck.finish() // before the state is reused, even when a hint panics
	at, err := st.run(ctx)
	from, first := ck.finish()
	if err != nil && at == noRank {
		return err
	}
	checks := st.s.checks
	n := len(checks)
	if err != nil {
		n = sort.Search(n, func(i int) bool { return checks[i].rank > at })
	}
	i := first
	if i < 0 || i >= n {
		i = st.checkRows(min(from, n), n)
	}
	if i < n {
		o := &checks[i]
		cerr := st.check(o, &st.a[o.cid], &st.b[o.cid], &st.c[o.cid])
		if cerr == nil {
			panic("solver: internal error: a failing check passes when repeated")
		}
		st.unsolveAfter(o.rank)
		return cerr
	}
	if err != nil {
		st.unsolveAfter(at)
		return err
	}
	return nil
}

// checker is the goroutine that checks while the wires are solved.
type checker struct {
	st      *state
	waiting atomic.Uint32 // the ops it waits for, 0 when it does not
	wake    chan struct{}
	stop    atomic.Bool
	done    sync.WaitGroup
	upTo    int // it checked checks[:upTo]
	first   int // and the first of those that fails, or −1
}

// startChecker starts the checker when the solve has more than one task
// and there are checks; it returns nil otherwise.
func (st *state) startChecker() *checker {
	if st.nt <= 1 || len(st.s.checks) == 0 {
		st.ck = nil
		return nil
	}
	ck := &st.ckMem
	ck.st = st
	if ck.wake == nil {
		ck.wake = make(chan struct{}, 1)
	}
	select { // a wake-up left from the last solve
	case <-ck.wake:
	default:
	}
	ck.waiting.Store(0)
	ck.stop.Store(false)
	ck.upTo, ck.first = 0, -1
	st.opsDone.Store(0)
	st.ck = ck
	ck.done.Add(1)
	go ck.run()
	return ck
}

func (ck *checker) run() {
	defer ck.done.Done()
	st := ck.st
	checks, need := st.s.checks, st.s.checkNeed
	n := len(checks)
	for i := 0; i < n && !ck.stop.Load(); {
		end := min(i+int(checkBlock), n)
		if want := need[end-1]; st.opsDone.Load() < want {
			ck.waiting.Store(want)
			if st.opsDone.Load() < want && !ck.stop.Load() {
				<-ck.wake
			}
			ck.waiting.Store(0)
			continue
		}
		for ; i < end; i++ {
			if !st.checkRow(&checks[i]) {
				ck.upTo, ck.first = i+1, i
				return
			}
		}
		ck.upTo = i
	}
}

// levelDone tells the checker that ops[:done] are solved.
func (st *state) levelDone(done int) {
	st.opsDone.Store(uint32(done))
	ck := st.ck
	if ck == nil {
		return
	}
	if w := ck.waiting.Load(); w != 0 && uint32(done) >= w && ck.waiting.CompareAndSwap(w, 0) {
		select {
		case ck.wake <- struct{}{}:
		default:
		}
	}
}

// finish stops the checker and returns how many checks it did and the
// first of them that fails (−1 for none); a nil checker did none. It may
// be called again.
func (ck *checker) finish() (upTo, first int) {
	if ck == nil {
		return 0, -1
	}
	ck.stop.Store(true)
	select {
	case ck.wake <- struct{}{}:
	default:
	}
	ck.done.Wait()
	ck.st.ck = nil
	return ck.upTo, ck.first
}

// checkBlock is how many checks a task takes at a time (a variable for the
// tests, which lower it).
var checkBlock int64 = 1024

// checkRows evaluates checks[from:n] into their rows of A, B and C, cut
// into blocks that the solve's tasks take in turn, and returns the index of
// the first that is not satisfied, or n. Every wire these checks read is
// solved.
func (st *state) checkRows(from, n int) int {
	checks := st.s.checks
	nt := min(st.nt, int((int64(n-from)+checkBlock-1)/checkBlock))
	if nt <= 1 {
		for i := from; i < n; i++ {
			if !st.checkRow(&checks[i]) {
				return i
			}
		}
		return n
	}
	var next atomic.Int64
	var first atomic.Int64 // the lowest failing index found so far
	first.Store(int64(n))
	work := func() {
		for {
			lo := int64(from) + (next.Add(1)-1)*checkBlock
			if lo >= first.Load() {
				return
			}
			hi := min(lo+checkBlock, int64(n))
			for i := lo; i < hi; i++ {
				if !st.checkRow(&checks[i]) {
					for {
						f := first.Load()
						if i >= f || first.CompareAndSwap(f, i) {
							break
						}
					}
					break
				}
			}
		}
	}
	var wg sync.WaitGroup
	wg.Add(nt - 1)
	for range nt - 1 {
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
	return int(first.Load())
}

// checkRow evaluates an R1C with every wire known into its rows and
// reports whether a·b = c.
func (st *state) checkRow(o *op) bool {
	a, b, c := st.rows(o)
	var ab fr.Element
	return ab.Mul(a, b).Equal(c)
}

// unsolveAfter marks unsolved the outputs of the ops of rank above at, as
// gnark leaves them when it stops at the instruction of rank at: the
// circuit's logs print "<unsolved>" for them.
func (st *state) unsolveAfter(at uint32) {
	ops := st.s.ops
	i := sort.Search(len(ops), func(i int) bool { return ops[i].rank > at })
	for ; i < len(ops); i++ {
		lo, hi := st.s.outputs(&ops[i])
		for w := lo; w < hi; w++ {
			st.solved[w] = false
		}
	}
}
