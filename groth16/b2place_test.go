package groth16_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	groth16bls "github.com/consensys/gnark/backend/groth16/bls12-381"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/groth16"
	"github.com/g16prover/g16/internal/synth"
	"github.com/g16prover/g16/pool"
)

// porepFixture is the PoRep-shaped circuit at 2^12 with a tail of 20%,
// gnark's setup (its B query a quarter dense: the key leaves the other B
// points out) and one witness.
var porepFixture = sync.OnceValues(func() (*fixture, error) {
	ccs, shape, err := synth.CompilePorep(1<<12, 0.2)
	if err != nil {
		return nil, err
	}
	pk, vk, err := gnarkgroth16.Setup(ccs)
	if err != nil {
		return nil, err
	}
	w, err := synth.PorepWitness(shape, 26)
	if err != nil {
		return nil, err
	}
	pub, err := w.Public()
	if err != nil {
		return nil, err
	}
	return &fixture{name: "porep-2^12", ccs: ccs, pk: pk, vk: vk, witness: w, public: pub}, nil
})

// TestB2Placement: B2 on the host (WithB2Placement(B2Host)) gives gnark's
// bytes, and a proof gnark verifies, with the key resident on a CPU
// backend and on one scheduled as a GPU, streamed through a device smaller
// than the key, and in a batch; the plan line says where B2 ran. B2Device
// and B2Auto give the same bytes, and B2Auto on a GPU-like device names
// the cost model, on a CPU backend (in a batch too) nothing.
func TestB2Placement(t *testing.T) {
	f, err := porepFixture()
	if err != nil {
		t.Fatal(err)
	}
	if pk := f.pk.(*groth16bls.ProvingKey); pk.NbInfinityB == 0 {
		t.Fatal("the PoRep fixture's key has no B point at infinity")
	}
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	want := gnarkProof(t, f, seed)
	gpu := func() backend.Backend {
		return &gpuLike{Backend: cpu.MustNew(), urgent: map[backend.Queue]bool{}}
	}
	for _, c := range []struct {
		name string
		dev  func() backend.Backend
		b2   groth16.B2Placement
		note string // in the plan line
	}{
		{"cpu, host", func() backend.Backend { return cpu.MustNew() }, groth16.B2Host, "B2 on the host"},
		{"cpu, device", func() backend.Backend { return cpu.MustNew() }, groth16.B2Device, "B2 on the device (WithB2Placement)"},
		{"cpu, auto", func() backend.Backend { return cpu.MustNew() }, groth16.B2Auto, ""},
		{"gpu-like, host", gpu, groth16.B2Host, "B2 on the host"},
		{"gpu-like, auto", gpu, groth16.B2Auto, "(cost model:"},
		{"streamed, host", func() backend.Backend { return smallDevice(t, f, 0) }, groth16.B2Host, "B2 on the host"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var pt groth16.PhaseTimes
			proof, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithBackend(c.dev()), groth16.WithB2Placement(c.b2),
				groth16.WithRandomness(seeded(seed)), groth16.WithPhaseTimes(func(_ int, p groth16.PhaseTimes) { pt = p }))
			if err != nil {
				t.Fatalf("Prove: %v", err)
			}
			t.Logf("plan: %s; MSM B2 %v", pt.Plan, pt.MSMB2)
			if got := proofBytes(t, proof); !bytes.Equal(got, want) {
				t.Fatal("proof differs from gnark's")
			}
			if err := gnarkgroth16.Verify(proof, f.vk, f.public); err != nil {
				t.Fatalf("gnark rejects the proof: %v", err)
			}
			if c.note != "" && !strings.Contains(pt.Plan, c.note) {
				t.Errorf("plan %q does not say %q", pt.Plan, c.note)
			}
			if c.note == "" && strings.Contains(pt.Plan, "B2") {
				t.Errorf("plan %q names B2; on a host-bound device B2Auto says nothing", pt.Plan)
			}
			if strings.HasPrefix(c.name, "streamed") != strings.HasPrefix(pt.Plan, "key streamed") {
				t.Errorf("plan %q", pt.Plan)
			}
			if pt.MSMB2 <= 0 {
				t.Errorf("MSM B2 took %v", pt.MSMB2)
			}
		})
	}

	// A batch of three partitions with B2 on the host, the key resident:
	// every proof is gnark's, and each plan line says the host.
	const n = 3
	wants := make([][]byte, n)
	for i := range wants {
		wants[i] = gnarkProof(t, f, seed+uint64(i))
	}
	var mu sync.Mutex
	var plans []string
	proofs, err := proveBatch(t, context.Background(), f, same(f, n), groth16.WithBackend(cpu.MustNew()),
		groth16.WithB2Placement(groth16.B2Host), groth16.WithBatchRandomness(seedsFrom(seed)), groth16.WithTrace(pool.NewTrace()),
		groth16.WithPhaseTimes(func(_ int, p groth16.PhaseTimes) {
			mu.Lock()
			plans = append(plans, p.Plan)
			mu.Unlock()
		}))
	if err != nil {
		t.Fatalf("ProveBatch: %v", err)
	}
	checkProofs(t, proofs, wants, nil)
	if len(plans) != n {
		t.Fatalf("%d phase times, want %d", len(plans), n)
	}
	for _, p := range plans {
		if !strings.Contains(p, "B2 on the host") {
			t.Errorf("batch plan %q does not say B2 on the host", p)
		}
	}
	// B2Auto in a batch on a CPU backend (which the pool hands the
	// compute wrapped, with a trace): B2 stays there, unremarked.
	plans = nil
	proofs, err = proveBatch(t, context.Background(), f, same(f, 1), groth16.WithBackend(cpu.MustNew()),
		groth16.WithBatchRandomness(seedsFrom(seed)), groth16.WithTrace(pool.NewTrace()),
		groth16.WithPhaseTimes(func(_ int, p groth16.PhaseTimes) {
			mu.Lock()
			plans = append(plans, p.Plan)
			mu.Unlock()
		}))
	if err != nil {
		t.Fatalf("ProveBatch: %v", err)
	}
	checkProofs(t, proofs, wants[:1], nil)
	if len(plans) != 1 || strings.Contains(plans[0], "B2") {
		t.Errorf("batch plans %q with B2Auto on a CPU backend; want one that does not name B2", plans)
	}
}

// TestB2HostWithoutHostCopy: a key drawn on the device has no host copy of
// its G2 bases, so B2Host keeps B2 on the device and says why.
func TestB2HostWithoutHostCopy(t *testing.T) {
	ccs, shape, err := synth.CompilePorep(1<<12, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	w, err := synth.PorepWitness(shape, seed)
	if err != nil {
		t.Fatal(err)
	}
	src, err := synth.NewKeySource(ccs, seed, synth.WithSetupInfinity())
	if err != nil {
		t.Fatal(err)
	}
	full, err := src.Key()
	if err != nil {
		t.Fatal(err)
	}
	want, err := groth16.Prove(ccs, full, w, groth16.WithBackend(cpu.MustNew()), groth16.WithRandomness(seeded(seed)))
	if err != nil {
		t.Fatal(err)
	}
	bare, err := src.Hostless()
	if err != nil {
		t.Fatal(err)
	}
	dev := cpu.MustNew()
	dk, err := groth16.NewDeviceKeyFrom(dev, bare, src)
	if err != nil {
		t.Fatal(err)
	}
	defer dk.Close()
	pr, err := groth16.NewProver(ccs, bare, groth16.WithBackend(dev), groth16.WithDeviceKey(dk), groth16.WithB2Placement(groth16.B2Host))
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	var plan string
	got, err := pr.Prove(context.Background(), w, groth16.WithRandomness(seeded(seed)),
		groth16.WithPhaseTimes(func(_ int, pt groth16.PhaseTimes) { plan = pt.Plan }))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(proofBytes(t, got), proofBytes(t, want)) {
		t.Fatal("proof with B2Host on a drawn key differs from the materialised key's")
	}
	if !strings.Contains(plan, "B2 on the device: the key's G2 bases have no host copy") {
		t.Errorf("plan %q does not say why B2 stayed on the device", plan)
	}
}
