package bls12381

import (
	"slices"
	"sort"
	"sync"
	"sync/atomic"
)

// The checks apart.
//
// Most R1Cs of a hash or a signature solve no wire: every wire of theirs
// is known by their level, and they only check a·b = c. Nothing waits for
// them, so a solve on several workers leaves them out of its schedule:
// the workers solve the wires of the other instructions (a schedule of
// those alone, with fewer chunks and waits on the chain), and then every
// worker evaluates an equal share (by estimated cost) of the checks, in
// constraint order, into their rows of A, B and C, and checks them: a
// sparse product with no waits at all, written front to back.
//
// When the wires fail (a hint's error or panic, an R1C whose divisor is 0
// and whose check fails) or a check does, the solve starts again with
// every instruction in its level, in the order and with the errors of
// gnark's solver (run): the checks apart change nothing but the time of a
// solve that succeeds. A witness that fails is thus solved twice, and the
// hints it reaches first may be called in the first pass with the values
// that a failing check would have stopped gnark before.

// compileChecks lists the R1Cs that solve no wire in constraint order,
// with their costs' running sum for sharing them out.
func (s *Solver) compileChecks() {
	s.checks = s.checks[:0]
	for i := range s.ops {
		if o := &s.ops[i]; o.kind == opR1C && o.loc == locNone {
			s.checks = append(s.checks, uint32(i))
		}
	}
	slices.SortFunc(s.checks, func(a, b uint32) int { return int(s.ops[a].cid) - int(s.ops[b].cid) })
	s.checkCost = make([]int64, len(s.checks)+1)
	for k, i := range s.checks {
		s.checkCost[k+1] = s.checkCost[k] + s.cost[i+1] - s.cost[i]
	}
}

// checksApart reports whether a solve on nt workers schedules the checks
// apart from the other instructions.
func (s *Solver) checksApart(nt int) bool {
	return nt >= minChecksApart && len(s.checks) > 0
}

// minChecksApart is the fewest workers of a solve that leaves the checks
// out of its schedule (a variable for the tests).
var minChecksApart = 2

// checkAll evaluates and checks every R1C of s.checks on nt goroutines,
// the caller's included, and reports whether all of them hold.
func (st *state) checkAll(nt int) bool {
	s := st.s
	total := s.checkCost[len(s.checks)]
	var failed atomic.Bool
	part := func(p int) {
		lo := sort.Search(len(s.checks), func(k int) bool { return s.checkCost[k] >= total*int64(p)/int64(nt) })
		hi := sort.Search(len(s.checks), func(k int) bool { return s.checkCost[k] >= total*int64(p+1)/int64(nt) })
		if p == nt-1 {
			hi = len(s.checks)
		}
		for k, i := range s.checks[lo:hi] {
			if k&1023 == 0 && failed.Load() {
				return
			}
			o := &s.ops[i]
			a, b, c := st.rows(o)
			if !holds(a, b, c) {
				failed.Store(true)
				return
			}
		}
	}
	var wg sync.WaitGroup
	for p := 1; p < nt; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			part(p)
		}()
	}
	part(0)
	wg.Wait()
	return !failed.Load()
}
