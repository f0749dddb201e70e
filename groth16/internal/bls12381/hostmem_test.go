// Reference only: internal/generator does not copy this file.

package bls12381

import (
	"context"
	"strings"
	"testing"

	"github.com/consensys/gnark/backend/witness"

	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/internal/synth"
)

// TestHostMemoryPreflight: a proof whose vectors do not fit in the host's
// available memory fails before anything is solved, in Prove and in
// ProveBatch, with an error that says so; with enough memory it proves.
func TestHostMemoryPreflight(t *testing.T) {
	ccs, shape, err := synth.Compile(synth.Mix, 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	pk, err := synth.RandomKey(ccs)
	if err != nil {
		t.Fatal(err)
	}
	w, err := synth.Witness(shape, 3)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := NewProver(ccs, pk, onDevice(cpu.MustNew()))
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	need := pr.p.hostNeed()
	if need <= 0 {
		t.Fatalf("hostNeed %d", need)
	}
	saved := availableHostMemory
	defer func() { availableHostMemory = saved }()

	availableHostMemory = func() int64 { return need - 1 }
	solved := false
	phases := call(withPhaseTimes(func(int, PhaseTimes) { solved = true }))
	if _, err := pr.Prove(context.Background(), w, phases); err == nil || !strings.Contains(err.Error(), "host memory") {
		t.Fatalf("Prove with %d bytes available for %d needed: %v, want a host-memory error", need-1, need, err)
	}
	if _, err := pr.ProveBatch(context.Background(), []witness.Witness{w, w}, phases); err == nil || !strings.Contains(err.Error(), "host memory") {
		t.Fatalf("ProveBatch with %d bytes available for %d needed: %v, want a host-memory error", need-1, need, err)
	}
	if solved {
		t.Fatal("a proof was solved although the preflight failed")
	}

	availableHostMemory = func() int64 { return need }
	if _, err := pr.Prove(context.Background(), w, phases); err != nil {
		t.Fatalf("Prove with the memory it needs: %v", err)
	}
	if !solved {
		t.Fatal("Prove succeeded without reporting its phases")
	}
}
