package groth16_test

import (
	"bytes"
	"errors"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"

	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/groth16"
)

func bigPow(x, e int) *big.Int {
	return new(big.Int).Exp(big.NewInt(int64(x)), big.NewInt(int64(e)), nil)
}

// TestProveMatchesGnark checks, for each test circuit, both MSM schedules
// of the CPU backend (side by side with a large host memory budget and 8
// tasks, one at a time with a tiny budget, each named in PhaseTimes.Plan)
// and a seed drawn
// fresh each run, that our proof is byte-identical to gnark's for the same
// randomness and that gnark's verifier accepts it.
func TestProveMatchesGnark(t *testing.T) {
	schedules := []struct {
		name string
		opts []cpu.Option
		note string
	}{
		{"side-by-side", []cpu.Option{cpu.WithHostMemory(1 << 50), cpu.WithTasks(8)}, "MSMs side by side, NTT tables kept"},
		{"one-at-a-time", []cpu.Option{cpu.WithHostMemory(1)}, "MSMs one at a time"},
	}
	for _, f := range testFixtures(t) {
		for _, sc := range schedules {
			t.Run(f.name+"/"+sc.name, func(t *testing.T) {
				seed := rand.Uint64()
				want := gnarkProof(t, f, seed)
				var pt groth16.PhaseTimes
				proof, err := groth16.Prove(f.ccs, f.pk, f.witness,
					groth16.WithBackend(cpu.MustNew(sc.opts...)), groth16.WithRandomness(seeded(seed)),
					groth16.WithPhaseTimes(func(_ int, p groth16.PhaseTimes) { pt = p }))
				if err != nil {
					t.Fatalf("seed %d: Prove: %v", seed, err)
				}
				if !strings.Contains(pt.Plan, sc.note) {
					t.Fatalf("plan %q does not say %q", pt.Plan, sc.note)
				}
				checkSpans(t, pt, sc.name == "side-by-side")
				got := proofBytes(t, proof)
				if !bytes.Equal(got, want) {
					t.Fatalf("seed %d: proof differs from gnark's\n got %x\nwant %x", seed, got, want)
				}
				if err := gnarkgroth16.Verify(proof, f.vk, f.public); err != nil {
					t.Fatalf("seed %d: gnark rejects our proof: %v", seed, err)
				}
			})
		}
	}
}

// TestProveLeavesInputsUnchanged checks that proving modifies neither the
// key nor the witness.
func TestProveLeavesInputsUnchanged(t *testing.T) {
	f := fixtureNamed(t, "rangecheck-bsb22")
	snapshot := func() []byte {
		var buf bytes.Buffer
		if _, err := f.pk.WriteRawTo(&buf); err != nil {
			t.Fatal(err)
		}
		if _, err := f.witness.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	before := snapshot()
	if _, err := groth16.Prove(f.ccs, f.pk, f.witness); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, snapshot()) {
		t.Fatal("Prove changed its key or witness")
	}
}

// TestDeviceKey proves twice with a resident key and checks the proofs
// match gnark's, that the key's memory is held until Close, and that a key
// for another device or proving key is refused.
func TestDeviceKey(t *testing.T) {
	f := fixtureNamed(t, "manypublic")
	dev := cpu.MustNew()
	k, err := groth16.NewDeviceKey(dev, f.pk)
	if err != nil {
		t.Fatal(err)
	}
	if got := dev.Memory().InUse; got != k.Bytes() || got == 0 {
		t.Fatalf("device holds %d bytes in use, key says %d", got, k.Bytes())
	}
	for i := 0; i < 2; i++ {
		seed := rand.Uint64()
		proof, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithDeviceKey(k), groth16.WithRandomness(seeded(seed)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(proofBytes(t, proof), gnarkProof(t, f, seed)) {
			t.Fatalf("seed %d: proof with a resident key differs from gnark's", seed)
		}
	}
	if got := dev.Memory().InUse; got != k.Bytes() {
		t.Fatalf("after two proofs the device holds %d bytes in use, want the key's %d", got, k.Bytes())
	}
	if _, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithDeviceKey(k), groth16.WithBackend(cpu.MustNew())); !errors.Is(err, groth16.ErrInput) {
		t.Fatalf("key on another device: want ErrInput, got %v", err)
	}
	other := fixtureNamed(t, "mulchain")
	if _, err := groth16.Prove(other.ccs, other.pk, other.witness, groth16.WithDeviceKey(k)); !errors.Is(err, groth16.ErrInput) {
		t.Fatalf("key from another proving key: want ErrInput, got %v", err)
	}
	if err := k.Close(); err != nil {
		t.Fatal(err)
	}
	if got := dev.Memory().InUse; got != 0 {
		t.Fatalf("after Close the device holds %d bytes in use", got)
	}
}

// checkSpans checks a proof's spans: side by side, each of the five MSMs
// once, each ending after it starts; one at a time, none.
func checkSpans(t *testing.T, pt groth16.PhaseTimes, sideBySide bool) {
	t.Helper()
	if !sideBySide {
		if len(pt.Spans) != 0 {
			t.Errorf("MSMs one at a time: spans %s, want none", groth16.FormatSpans(pt.Spans))
		}
		return
	}
	seen := map[string]int{}
	for _, s := range pt.Spans {
		seen[s.Name]++
		if s.End < s.Start || s.Start < 0 {
			t.Errorf("span %s ends before it starts or starts before the phase", s)
		}
	}
	for _, name := range []string{"MSM A", "MSM B1", "MSM B2", "MSM K", "MSM Z"} {
		if seen[name] != 1 {
			t.Errorf("spans %s: %s %d times, want once", groth16.FormatSpans(pt.Spans), name, seen[name])
		}
	}
}
