package groth16_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/consensys/gnark/backend/witness"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/groth16"
)

// hostFilter is a CPU backend without Gather: the prover filters K's wire
// values on the host.
type hostFilter struct{ backend.Backend }

func (hostFilter) HostBound() bool { return true }

// TestGatherMatchesHostFilter: with a key whose A and B read every wire
// (a random key of the synthetic circuit, whose BSB22 commitment leaves
// wires out of K), K's wire values gathered on the device give the proof
// gnark gives, as filtering them on the host does, with Prove (the CPU's
// schedule and a GPU's) and with ProveBatch; one Gather a proof.
func TestGatherMatchesHostFilter(t *testing.T) {
	f, err := streamFixture()
	if err != nil {
		t.Fatal(err)
	}
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	want := gnarkProof(t, f, seed)
	var gathers atomic.Int64
	hook := func(op cpu.Op, _ int64) error {
		if op == cpu.OpGather {
			gathers.Add(1)
		}
		return nil
	}
	for _, c := range []struct {
		name    string
		dev     backend.Backend
		gathers int64
	}{
		{"cpu", cpu.MustNew(cpu.WithHook(hook)), 1},
		{"gpu-like", &gpuLike{Backend: cpu.MustNew(cpu.WithHook(hook)), urgent: map[backend.Queue]bool{}}, 1},
		{"host filter", hostFilter{cpu.MustNew(cpu.WithHook(hook))}, 0},
	} {
		gathers.Store(0)
		proof, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithBackend(c.dev), groth16.WithRandomness(seeded(seed)))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := proofBytes(t, proof); !bytes.Equal(got, want) {
			t.Errorf("%s: seed %d: proof differs from gnark's", c.name, seed)
		}
		if g := gathers.Load(); g != c.gathers {
			t.Errorf("%s: %d gathers, want %d", c.name, g, c.gathers)
		}
	}

	seeds := []uint64{rand.Uint64(), rand.Uint64()}
	gathers.Store(0)
	dev := &gpuLike{Backend: cpu.MustNew(cpu.WithHook(hook)), urgent: map[backend.Queue]bool{}}
	proofs, err := groth16.ProveBatch(context.Background(), f.ccs, f.pk, []witness.Witness{f.witness, f.witness},
		groth16.WithBackend(dev), groth16.WithBatchRandomness(func(i int) io.Reader { return seeded(seeds[i]) }))
	if err != nil {
		t.Fatalf("seeds %v: ProveBatch: %v", seeds, err)
	}
	for i, p := range proofs {
		if !bytes.Equal(proofBytes(t, p), gnarkProof(t, f, seeds[i])) {
			t.Errorf("seed %d: batch proof %d differs from gnark's", seeds[i], i)
		}
	}
	if g := gathers.Load(); g != int64(len(seeds)) {
		t.Errorf("batch: %d gathers, want %d", g, len(seeds))
	}
}

// TestGatherFault: a Gather that fails fails the proof, with Prove and
// with ProveBatch, naming what failed.
func TestGatherFault(t *testing.T) {
	f, err := streamFixture()
	if err != nil {
		t.Fatal(err)
	}
	hook := func(op cpu.Op, _ int64) error {
		if op == cpu.OpGather {
			return errors.New("injected gather fault")
		}
		return nil
	}
	for _, dev := range []backend.Backend{
		cpu.MustNew(cpu.WithHook(hook)),
		&gpuLike{Backend: cpu.MustNew(cpu.WithHook(hook)), urgent: map[backend.Queue]bool{}},
	} {
		_, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithBackend(dev), groth16.WithRandomness(seeded(1)))
		if err == nil || !strings.Contains(err.Error(), "injected gather fault") {
			t.Errorf("Prove on %s: %v, want the injected gather fault", dev, err)
		}
		_, err = groth16.ProveBatch(context.Background(), f.ccs, f.pk, []witness.Witness{f.witness},
			groth16.WithBackend(dev), groth16.WithBatchRandomness(func(int) io.Reader { return seeded(2) }))
		if err == nil || !strings.Contains(err.Error(), "injected gather fault") {
			t.Errorf("ProveBatch on %s: %v, want the injected gather fault", dev, err)
		}
	}
}
