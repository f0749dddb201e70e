package groth16_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	groth16bls "github.com/consensys/gnark/backend/groth16/bls12-381"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/groth16"
)

// TestCommitmentOutOfMemory: when the device has no room for a
// commitment's MSMs, the host computes them, and the proof is still
// gnark's; a device that fails them otherwise fails the proof.
func TestCommitmentOutOfMemory(t *testing.T) {
	f := fixtureNamed(t, "rangecheck-bsb22")
	pk := f.pk.(*groth16bls.ProvingKey)
	if len(pk.CommitmentKeys) == 0 {
		t.Fatal("the fixture has no commitment")
	}
	committed := int64(len(pk.CommitmentKeys[0].Basis))
	for _, n := range []int{len(pk.G1.A), len(pk.G1.B), len(pk.G1.K), len(pk.G1.Z)} {
		if int64(n) == committed {
			t.Fatalf("a proof MSM has the commitment's %d points: the hook cannot tell them apart", n)
		}
	}
	var failed atomic.Int64
	dev := cpu.MustNew(cpu.WithHook(func(op cpu.Op, size int64) error {
		if op == cpu.OpMSMG1 && size == committed {
			failed.Add(1)
			return fmt.Errorf("commitment MSM of %d points: %w", size, backend.ErrOutOfMemory)
		}
		return nil
	}))
	seed := rand.Uint64()
	proof, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithBackend(dev), groth16.WithRandomness(seeded(seed)))
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	if failed.Load() == 0 {
		t.Fatal("no commitment MSM ran out of memory: the test did not reach the host path")
	}
	if got, want := proofBytes(t, proof), gnarkProof(t, f, seed); !bytes.Equal(got, want) {
		t.Fatalf("seed %d: proof differs from gnark's", seed)
	}

	// Any other device error still fails the proof, as a device failure:
	// the solver ran the MSM, but the witness is not at fault (no ErrInput).
	for name, cause := range map[string]error{"lost": backend.ErrDeviceLost, "failed": errors.New("injected fault")} {
		dev := cpu.MustNew(cpu.WithHook(func(op cpu.Op, size int64) error {
			if op == cpu.OpMSMG1 && size == committed {
				return fmt.Errorf("commitment MSM of %d points: %w", size, cause)
			}
			return nil
		}))
		_, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithBackend(dev))
		if !errors.Is(err, cause) || errors.Is(err, groth16.ErrInput) {
			t.Errorf("a commitment MSM on a %s device: Prove returned %v, want that error and not ErrInput", name, err)
		}
	}
}
