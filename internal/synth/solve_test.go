package synth

import (
	"context"
	"crypto/sha256"
	"hash/fnv"
	"math/big"
	"math/rand/v2"
	"testing"

	cs "github.com/consensys/gnark/constraint/bls12-381"
	gsolver "github.com/consensys/gnark/constraint/solver"
	fcs "github.com/consensys/gnark/frontend/cs"

	solver "github.com/g16prover/g16/solver/bls12381"
)

// commitHint stands in for the BSB22 commitment (which only a prover
// computes): a hash of the committed wires, the same for both solvers.
var commitHint = gsolver.OverrideHint(gsolver.GetHintID(fcs.Bsb22CommitmentComputePlaceholder), func(mod *big.Int, in, out []*big.Int) error {
	h := sha256.New()
	for _, v := range in {
		h.Write(v.Bytes())
	}
	out[0].SetBytes(h.Sum(nil))
	out[0].Mod(out[0], mod)
	return nil
})

// randomizeHint stands in for gnark's internal Randomize hint (fresh
// randomness each call) with values drawn from seed.
func randomizeHint(seed uint64) gsolver.Option {
	h := fnv.New32a()
	h.Write([]byte("github.com/consensys/gnark/internal/hints.Randomize"))
	return gsolver.OverrideHint(gsolver.HintID(h.Sum32()), func(mod *big.Int, in, out []*big.Int) error {
		rng := rand.New(rand.NewPCG(seed, uint64(len(out))))
		for i := range out {
			out[i].SetUint64(rng.Uint64())
			out[i].Lsh(out[i], 128).Add(out[i], new(big.Int).SetUint64(rng.Uint64())).Mod(out[i], mod)
		}
		return nil
	})
}

// TestCompileSolvesAsGnark: the system Compile writes (its chain's
// instructions and levels laid out directly) is solved by gnark's solver
// and by ours to the same W, A, B and C, for a fresh random witness.
func TestCompileSolvesAsGnark(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	for _, c := range []struct {
		mix    string
		target int
	}{{Mix, 1 << 12}, {Mix, 5000}, {Chain, 1 << 10}} {
		ccs, s, err := Compile(c.mix, c.target)
		if err != nil {
			t.Fatalf("%s %d: %v", c.mix, c.target, err)
		}
		r := ccs.(*cs.R1CS)
		w, err := Witness(s, seed)
		if err != nil {
			t.Fatal(err)
		}
		sol, err := r.Solve(w, commitHint, randomizeHint(seed))
		if err != nil {
			t.Fatalf("%s %d: gnark's solver: %v", c.mix, c.target, err)
		}
		want := sol.(*cs.R1CSSolution)
		ours, err := solver.New(r)
		if err != nil {
			t.Fatal(err)
		}
		if reason := ours.Fallback(); reason != "" {
			t.Fatalf("%s %d: our solver falls back to gnark's: %s", c.mix, c.target, reason)
		}
		got, err := ours.Solve(context.Background(), w, commitHint, randomizeHint(seed))
		if err != nil {
			t.Fatalf("%s %d: our solver: %v", c.mix, c.target, err)
		}
		if len(got.W) != len(want.W) || len(got.A) != len(want.A) {
			t.Fatalf("%s %d: our solution has %d wires and %d constraints, gnark's %d and %d", c.mix, c.target, len(got.W), len(got.A), len(want.W), len(want.A))
		}
		for i := range want.W {
			if !got.W[i].Equal(&want.W[i]) {
				t.Fatalf("%s %d: wire %d differs from gnark's", c.mix, c.target, i)
			}
		}
		for i := range want.A {
			if !got.A[i].Equal(&want.A[i]) || !got.B[i].Equal(&want.B[i]) || !got.C[i].Equal(&want.C[i]) {
				t.Fatalf("%s %d: constraint %d's a, b or c differs from gnark's", c.mix, c.target, i)
			}
		}
	}
}
