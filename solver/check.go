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
func (st *state) solve(ctx context.Context) error {
	at, err := st.run(ctx)
	if err != nil && at == noRank {
		return err
	}
	checks := st.s.checks
	n := len(checks)
	if err != nil {
		n = sort.Search(n, func(i int) bool { return checks[i].rank > at })
	}
	if i := st.checkRows(n); i < n {
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

// checkBlock is how many checks a task takes at a time (a variable for the
// tests, which lower it).
var checkBlock int64 = 1024

// checkRows evaluates checks[:n] into their rows of A, B and C, cut into
// blocks that the solve's tasks take in turn, and returns the index of the
// first that is not satisfied, or n. Every wire is solved (or, after a
// failure at rank p, every wire these checks read: their ranks are below p).
func (st *state) checkRows(n int) int {
	checks := st.s.checks[:n]
	nt := min(st.nt, int((int64(n)+checkBlock-1)/checkBlock))
	if nt <= 1 {
		for i := range checks {
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
			lo := (next.Add(1) - 1) * checkBlock
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
