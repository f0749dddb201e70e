package bls12381_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	solver "github.com/g16prover/g16/solver/bls12381"
)

// TestSolveIntoUsedVectors solves each small circuit into vectors full of
// random values (an earlier solution's, handed back) and gets gnark's W,
// A, B and C in those very vectors, inline and cut into many tasks; a
// vector too small is replaced, not used.
func TestSolveIntoUsedVectors(t *testing.T) {
	for _, c := range testCircuits() {
		if c.large {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			cc := compile(t, c)
			if reason := cc.s.Fallback(); reason != "" {
				t.Fatalf("falls back to gnark: %s", reason)
			}
			seed := newSeed(t)
			rng := rand.New(rand.NewPCG(seed, 2))
			w := assignment(t, c, rand.New(rand.NewPCG(seed, 1)))
			opts := testHints(seed)
			want, err := gnarkSolve(t, cc.r1cs, w, opts...)
			if err != nil {
				t.Fatalf("gnark's solver: %v", err)
			}
			random := func(n int) []fr.Element {
				v := make([]fr.Element, n)
				for i := range v {
					v[i].SetUint64(rng.Uint64())
				}
				return v
			}
			n := int(ecc.NextPowerOfTwo(uint64(cc.r1cs.GetNbConstraints())))
			for _, tasks := range []int{0, 5} {
				restore := func() {}
				if tasks > 0 {
					restore = solver.SetParallelism(tasks, 1)
				}
				buf := solver.Vectors{W: random(len(want.W)), A: random(n), B: random(n), C: random(n - 1)}
				got, err := cc.s.SolveInto(context.Background(), w, buf, opts...)
				restore()
				if err != nil {
					t.Fatalf("tasks=%d: %v", tasks, err)
				}
				sameSolution(t, got, want)
				if &got.W[0] != &buf.W[0] || &got.A[0] != &buf.A[0] || &got.B[0] != &buf.B[0] {
					t.Errorf("tasks=%d: W, A or B not solved into the vectors given", tasks)
				}
				if &got.C[0] == &buf.C[0] {
					t.Errorf("tasks=%d: C solved into a vector of capacity %d < %d", tasks, cap(buf.C), n)
				}
			}
		})
	}
}
