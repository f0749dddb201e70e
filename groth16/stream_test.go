package groth16_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	groth16bls "github.com/consensys/gnark/backend/groth16/bls12-381"
	cs "github.com/consensys/gnark/constraint/bls12-381"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/groth16"
	"github.com/g16prover/g16/internal/synth"
	"github.com/g16prover/g16/pool"
)

// streamFixture is a synthetic circuit of 2^12 constraints (with a BSB22
// commitment) and a random key whose bases are distinct: large enough
// that a device smaller than its key still has room for a stream window.
var streamFixture = sync.OnceValues(func() (*fixture, error) {
	ccs, shape, err := synth.Compile(synth.Mix, 1<<12)
	if err != nil {
		return nil, err
	}
	pk, err := synth.RandomKey(ccs)
	if err != nil {
		return nil, err
	}
	w, err := synth.Witness(shape, 7)
	if err != nil {
		return nil, err
	}
	return &fixture{name: "synth-2^12", ccs: ccs, pk: pk, witness: w}, nil
})

// smallDevice is a CPU backend whose capacity is 9/10 of the key's bases:
// the key cannot be resident, only streamed.
func smallDevice(t *testing.T, f *fixture, id int) *cpu.Backend {
	t.Helper()
	key, _ := memoryOf(t, f)
	return cpuDevice(t, id, key*9/10, nil)
}

// TestStreamedKeyMatchesProve: on a device smaller than the proving key,
// Prove streams the bases from the host, says so in its phase times, and
// gives the same bytes as Prove on an unlimited device; nothing is left
// on the device.
func TestStreamedKeyMatchesProve(t *testing.T) {
	f, err := streamFixture()
	if err != nil {
		t.Fatal(err)
	}
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	want, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithRandomness(seeded(seed)))
	if err != nil {
		t.Fatal(err)
	}
	dev := smallDevice(t, f, 0)
	key, set := memoryOf(t, f)
	t.Logf("key %d bytes, buffers %d, device capacity %d", key, set, dev.Memory().Capacity)
	var plan string
	got, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithBackend(dev), groth16.WithRandomness(seeded(seed)),
		groth16.WithPhaseTimes(func(_ int, pt groth16.PhaseTimes) { plan = pt.Plan }))
	if err != nil {
		t.Fatalf("Prove on a device smaller than the key: %v", err)
	}
	if !strings.HasPrefix(plan, "key streamed") {
		t.Errorf("plan %q; want the key streamed", plan)
	}
	t.Logf("plan: %s", plan)
	if !bytes.Equal(proofBytes(t, got), proofBytes(t, want)) {
		t.Fatal("the streamed proof differs from Prove's")
	}
	if m := dev.Memory(); m.InUse != 0 {
		t.Errorf("device holds %d bytes after Prove", m.InUse)
	}
}

// TestStreamedBatchMatchesProve: a batch on two devices smaller than the
// key: the trace shows the streamed plan on each, every proof equals
// Prove's, and the region check sees no device-global call outside the
// compute region.
func TestStreamedBatchMatchesProve(t *testing.T) {
	f, err := streamFixture()
	if err != nil {
		t.Fatal(err)
	}
	const n = 4
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	want := make([][]byte, n)
	for i := range want {
		p, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithRandomness(seeded(seed+uint64(i))))
		if err != nil {
			t.Fatal(err)
		}
		want[i] = proofBytes(t, p)
	}
	devs := []*cpu.Backend{smallDevice(t, f, 0), smallDevice(t, f, 1)}
	before := baseline(devs)
	tr := pool.NewTrace()
	check := &regionCheck{t: t}
	proofs, err := proveBatch(t, context.Background(), f, same(f, n), groth16.WithBackends(devs[0], devs[1]),
		groth16.WithBatchRandomness(seedsFrom(seed)), groth16.WithTrace(tr),
		groth16.WithPoolOptions(pool.WithInstrument(check.wrap)))
	if err != nil {
		t.Fatalf("ProveBatch: %v", err)
	}
	checkProofs(t, proofs, want, nil)
	checkReleased(t, devs, before)
	plans := 0
	for _, e := range tr.Events() {
		if e.Kind == pool.KindOutcome && e.Name == pool.OutcomePlan {
			plans++
			if !strings.HasPrefix(e.Outcome, "key streamed") {
				t.Errorf("device %d plan %q; want the key streamed", e.Device, e.Outcome)
			}
		}
	}
	if plans != len(devs) {
		t.Errorf("%d plan events, want %d", plans, len(devs))
	}
}

// TestPlanFallsBackToSerialMSMs: a device with room for the key and one
// partition's buffers, but not for five MSMs' scratch side by side: the
// plan runs them one at a time, with the same bytes.
func TestPlanFallsBackToSerialMSMs(t *testing.T) {
	f := fixtureNamed(t, "mulchain")
	want := expected(t, f, 1)
	key, set := memoryOf(t, f)
	pk := f.pk.(*groth16bls.ProvingKey)
	// One MSM's scratch (the CPU model's, for the longest MSM) fits; five do not.
	one := cpu.MustNew().Scratch(backend.KernelMSMG1, ecc.BLS12_381, len(pk.G1.Z))
	dev := cpuDevice(t, 0, (key+set+2*one)*16/15+64, nil)
	var plan string
	got, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithBackend(dev), groth16.WithRandomness(seeded(batchSeed)),
		groth16.WithPhaseTimes(func(_ int, pt groth16.PhaseTimes) { plan = pt.Plan }))
	if err != nil {
		t.Fatal(err)
	}
	if plan != "key resident, MSMs one at a time" {
		t.Errorf("plan %q; want the MSMs one at a time", plan)
	}
	if !bytes.Equal(proofBytes(t, got), want[0]) {
		t.Fatal("proof differs from Prove's")
	}
}

// TestProverWithoutLevels: once a Prover is made, its proofs read nothing
// of the R1CS's Levels (gnark's solving order, which g16's solver has
// decoded): with them dropped, a resident and a streamed proof (the K
// wires filtered chunk by chunk) still equal Prove's made before; a Prover
// made after the drop cannot prove, so the drop is real.
func TestProverWithoutLevels(t *testing.T) {
	ccs, shape, err := synth.Compile(synth.Mix, 1<<12)
	if err != nil {
		t.Fatal(err)
	}
	pk, err := synth.RandomKey(ccs)
	if err != nil {
		t.Fatal(err)
	}
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	w, err := synth.Witness(shape, seed)
	if err != nil {
		t.Fatal(err)
	}
	want, err := groth16.Prove(ccs, pk, w, groth16.WithRandomness(seeded(seed)))
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{name: "synth-2^12", ccs: ccs, pk: pk, witness: w}
	devs := map[string]*cpu.Backend{"resident": cpu.MustNew(), "streamed": smallDevice(t, f, 1)}
	provers := map[string]*groth16.Prover{}
	for name, dev := range devs {
		pr, err := groth16.NewProver(ccs, pk, groth16.WithBackend(dev))
		if err != nil {
			t.Fatal(err)
		}
		defer pr.Close()
		if fb := pr.SolverFallback(); fb != "" {
			t.Fatalf("gnark's solver solves the synthetic circuit (%s): the test needs g16's", fb)
		}
		provers[name] = pr
	}
	r := ccs.(*cs.R1CS)
	if len(r.Levels) == 0 {
		t.Fatal("the R1CS has no levels to drop")
	}
	r.Levels = nil
	for name, pr := range provers {
		var plan string
		got, err := pr.Prove(context.Background(), w, groth16.WithRandomness(seeded(seed)),
			groth16.WithPhaseTimes(func(_ int, pt groth16.PhaseTimes) { plan = pt.Plan }))
		if err != nil {
			t.Fatalf("%s: Prove without the R1CS's levels: %v", name, err)
		}
		if streamed := strings.HasPrefix(plan, "key streamed"); streamed != (name == "streamed") {
			t.Errorf("%s: plan %q", name, plan)
		}
		if !bytes.Equal(proofBytes(t, got), proofBytes(t, want)) {
			t.Errorf("%s: the proof without the R1CS's levels differs from Prove's", name)
		}
	}
	late, err := groth16.NewProver(ccs, pk, groth16.WithBackend(cpu.MustNew()))
	if err == nil {
		defer late.Close()
		_, err = late.Prove(context.Background(), w, groth16.WithRandomness(seeded(seed)))
	}
	if err == nil {
		t.Error("a Prover made after the levels were dropped proved: the drop was not real")
	}
}
