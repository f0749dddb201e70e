package bls12381

import (
	"context"
	"fmt"
	"sort"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// noRank is the rank of no instruction: a solve stopped by its context.
const noRank = ^uint32(0)

// solve solves every instruction in gnark's level order (on the
// schedule's workers: run) and returns the error of the first that fails.
// The wires of the instructions after it are marked unsolved, as gnark
// leaves them.
//
// On several workers, the wires are solved first with the checks apart
// (checks.go), then the checks; when either fails, the solve starts again
// with every instruction in its level.
func (st *state) solve(ctx context.Context) error {
	if st.s.checksApart(st.nt) {
		ok, err := st.runApart(ctx)
		if err != nil || ok {
			return err
		}
		st.restart()
	}
	at, _, err := st.run(ctx, st.s.scheduleFor(st.nt, false), false)
	if err != nil && at != noRank {
		st.unsolveAfter(at)
	}
	return err
}

// check returns the unsatisfied-constraint error when a·b ≠ c. A factor
// of 0 or 1 (R of an equality assertion, 1 · x = y; a bit) costs no
// product.
func (st *state) check(o *op, a, b, c *fr.Element) error {
	if holds(a, b, c) {
		return nil
	}
	return st.unsatisfied(o.cid, fmt.Errorf("%s ⋅ %s != %s", a.String(), b.String(), c.String()))
}

// holds reports whether a·b = c. A factor of 0 or 1 costs no product.
func holds(a, b, c *fr.Element) bool {
	var ab fr.Element
	mulBits(&ab, a, b)
	return ab.Equal(c)
}

// runApart solves the wires on the schedule without the checks, then the
// checks, and reports whether all of it succeeded; its error is the
// context's.
func (st *state) runApart(ctx context.Context) (bool, error) {
	_, failed, err := st.run(ctx, st.s.scheduleFor(st.nt, true), true)
	if err != nil || failed {
		return false, err
	}
	if err := ctx.Err(); err != nil {
		return false, err
	}
	return st.checkAll(st.nt), nil
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
