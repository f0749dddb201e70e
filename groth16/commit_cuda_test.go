//go:build cuda

package groth16_test

import (
	"context"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark/backend/witness"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/groth16"
)

// TestCUDACommitments proves the circuit with three BSB22 commitments on
// the GPU, whose commitment MSMs then run on the GPU during the solve:
// with Prove and with a ProveBatch of four, every proof byte-identical to
// gnark's and verified.
func TestCUDACommitments(t *testing.T) {
	f := multiCommitFixture(t)
	gpu := newGPU(t)
	seed := rand.Uint64()
	var times groth16.PhaseTimes
	proof, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithBackend(gpu), groth16.WithRandomness(seeded(seed)),
		groth16.WithProverOptions(oneTask), groth16.WithPhaseTimes(func(_ int, pt groth16.PhaseTimes) { times = pt }))
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	checkProof(t, f, proof, seed)
	t.Logf("solve %v, commitments on the GPU %v", times.Solve, times.Commit)

	const n = 4
	seeds := make([]uint64, n)
	ws := make([]witness.Witness, n)
	for i := range seeds {
		seeds[i], ws[i] = rand.Uint64(), f.witness
	}
	proofs, err := groth16.ProveBatch(context.Background(), f.ccs, f.pk, ws, groth16.WithBackends(backend.Backend(gpu)),
		groth16.WithProverOptions(oneTask), groth16.WithBatchRandomness(func(i int) io.Reader { return seeded(seeds[i]) }))
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range proofs {
		checkProof(t, f, p, seeds[i])
	}
}
