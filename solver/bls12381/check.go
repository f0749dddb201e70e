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
func (st *state) solve(ctx context.Context) error {
	at, err := st.run(ctx)
	if err != nil && at != noRank {
		st.unsolveAfter(at)
	}
	return err
}

// check returns the unsatisfied-constraint error when a·b ≠ c. A factor
// of 0 or 1 (R of an equality assertion, 1 · x = y; a bit) costs no
// product.
func (st *state) check(o *op, a, b, c *fr.Element) error {
	var ab fr.Element
	mulBits(&ab, a, b)
	if ab.Equal(c) {
		return nil
	}
	return st.unsatisfied(o.cid, fmt.Errorf("%s ⋅ %s != %s", a.String(), b.String(), c.String()))
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
