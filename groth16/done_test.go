package groth16_test

import (
	"context"
	"sync"
	"testing"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"

	"github.com/g16prover/g16/groth16"
)

// TestProofDone: WithProofDone hands over each proof of a batch once, as
// the proof ProveBatch returns at that index, and none for a partition
// that fails; Prove hands over its proof as index 0.
func TestProofDone(t *testing.T) {
	f := fixtureNamed(t, "mulchain")
	const n = 4
	want := expected(t, f, n)
	ws := same(f, n)
	ws[2] = fixtureNamed(t, "manypublic").witness // fails to solve
	var mu sync.Mutex
	got := make(map[int][]gnarkgroth16.Proof)
	done := func(i int, p gnarkgroth16.Proof) {
		mu.Lock()
		defer mu.Unlock()
		got[i] = append(got[i], p)
	}
	proofs, err := proveBatch(t, context.Background(), f, ws, groth16.WithBatchRandomness(seedsFrom(batchSeed)), groth16.WithProofDone(done))
	if err == nil {
		t.Fatal("a batch with a witness of another circuit succeeded")
	}
	checkProofs(t, proofs, want, map[int]bool{2: true})
	mu.Lock()
	for i := range n {
		switch {
		case i == 2 && len(got[i]) != 0:
			t.Errorf("partition 2 failed but was handed %d proofs", len(got[i]))
		case i != 2 && len(got[i]) != 1:
			t.Errorf("partition %d: handed %d proofs before ProveBatch returned, want 1", i, len(got[i]))
		case i != 2 && got[i][0] != proofs[i]:
			t.Errorf("partition %d: the proof handed over is not the one returned", i)
		}
	}
	mu.Unlock()

	pr, err := groth16.NewProver(f.ccs, f.pk, groth16.WithBackend(cpuDevice(t, 0, 0, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	var one []gnarkgroth16.Proof
	p, err := pr.Prove(context.Background(), f.witness, groth16.WithRandomness(seeded(batchSeed)),
		groth16.WithProofDone(func(i int, p gnarkgroth16.Proof) {
			if i != 0 {
				t.Errorf("Prove handed over index %d, want 0", i)
			}
			one = append(one, p)
		}))
	if err != nil {
		t.Fatal(err)
	}
	if len(one) != 1 || one[0] != p {
		t.Errorf("Prove handed over %d proofs (want its own, once)", len(one))
	}
	checkProofs(t, []gnarkgroth16.Proof{p}, want[:1], nil)
}
