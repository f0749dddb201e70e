package groth16_test

import (
	"context"
	"errors"
	"testing"

	"github.com/g16prover/g16/groth16"
	"github.com/g16prover/g16/pool"
)

// TestProveBatchSolvers proves a batch with one device worker and three
// solvers: the proofs are right, every partition was solved once, and no
// more than three solves ran at once.
func TestProveBatchSolvers(t *testing.T) {
	f := fixtureNamed(t, "rangecheck-bsb22")
	const n, solvers = 6, 3
	want := expected(t, f, n)
	tr := pool.NewTrace()
	proofs, err := proveBatch(t, context.Background(), f, same(f, n),
		groth16.WithBackend(cpuDevice(t, 0, 0, nil)), groth16.WithBatchRandomness(seedsFrom(batchSeed)),
		groth16.WithWorkersPerDevice(1), groth16.WithSolvers(solvers), groth16.WithTrace(tr))
	if err != nil {
		t.Fatalf("seed %d: %v", batchSeed, err)
	}
	checkProofs(t, proofs, want, nil)
	var prepares []pool.Event
	for _, e := range tr.Events() {
		if e.Kind == pool.KindHost && e.Name == "prepare" {
			prepares = append(prepares, e)
		}
	}
	if len(prepares) != n {
		t.Fatalf("%d partitions solved, want %d", len(prepares), n)
	}
	most := 0
	for _, e := range prepares {
		at := 0
		for _, o := range prepares {
			if o.Start <= e.Start && e.Start < o.End {
				at++
			}
		}
		most = max(most, at)
	}
	t.Logf("at most %d partitions solved at once", most)
	if most > solvers {
		t.Errorf("%d partitions solved at once, WithSolvers(%d)", most, solvers)
	}
	if _, err := groth16.ProveBatch(context.Background(), f.ccs, f.pk, same(f, 1), groth16.WithSolvers(0)); !errors.Is(err, groth16.ErrInput) {
		t.Errorf("WithSolvers(0): want ErrInput, got %v", err)
	}
}
