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

	"github.com/consensys/gnark-crypto/ecc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	g16curve "github.com/g16prover/g16/curve"
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

// TestIndexListsStayWithKey: the wire index lists a device gathers by go
// up once for the key on that device, with its first partition, and stay
// with it: later proofs and a batch of the same Prover upload none, a
// second Prover given the same DeviceKey uploads none, and the key counts
// them in its bytes. Every curve's test circuits (keys from gnark's setup,
// with points at infinity in A and B, and a BSB22 commitment), on the CPU
// backend scheduled as a GPU; every proof equals gnark's.
func TestIndexListsStayWithKey(t *testing.T) {
	for _, id := range g16curve.Supported() {
		for _, f := range fixturesOn(t, id) {
			t.Run(g16curve.Name(id)+"/"+f.name, func(t *testing.T) {
				var uploads, gathers atomic.Int64
				hook := func(op cpu.Op, _ int64) error {
					switch op {
					case cpu.OpUpload:
						uploads.Add(1)
					case cpu.OpGather:
						gathers.Add(1)
					}
					return nil
				}
				dev := &gpuLike{Backend: cpu.MustNew(cpu.WithHook(hook)), urgent: map[backend.Queue]bool{}}
				dk, err := groth16.NewDeviceKey(dev, f.pk)
				if err != nil {
					t.Fatal(err)
				}
				defer dk.Close()
				keyBytes := dk.Bytes()
				// prove runs one proof on pr and returns the uploads and
				// gathers it made.
				prove := func(pr *groth16.Prover) (int64, int64) {
					t.Helper()
					uploads.Store(0)
					gathers.Store(0)
					seed := rand.Uint64()
					proof, err := pr.Prove(context.Background(), f.witness, groth16.WithRandomness(seeded(seed)))
					if err != nil {
						t.Fatalf("seed %d: %v", seed, err)
					}
					if !bytes.Equal(proofBytes(t, proof), gnarkProof(t, f, seed)) {
						t.Fatalf("seed %d: proof differs from gnark's", seed)
					}
					return uploads.Load(), gathers.Load()
				}

				pr, err := groth16.NewProver(f.ccs, f.pk, groth16.WithDeviceKey(dk))
				if err != nil {
					t.Fatal(err)
				}
				defer pr.Close()
				up1, lists := prove(pr)
				if lists == 0 {
					t.Fatalf("no gather: the test wants a device that gathers")
				}
				withLists := dk.Bytes()
				if withLists <= keyBytes || (withLists-keyBytes)%4 != 0 {
					t.Fatalf("the key holds %d bytes after its first proof, %d before: want the index lists (4 bytes an index) added", withLists, keyBytes)
				}
				up2, g2 := prove(pr)
				if up1-up2 != lists || g2 != lists {
					t.Fatalf("first proof: %d uploads, %d gathers; second: %d uploads, %d gathers: want the %d index lists uploaded by the first only",
						up1, lists, up2, g2, lists)
				}

				uploads.Store(0)
				seeds := []uint64{rand.Uint64(), rand.Uint64()}
				t.Logf("batch seeds %v", seeds)
				proofs, err := pr.ProveBatch(context.Background(), []witness.Witness{f.witness, f.witness},
					groth16.WithBatchRandomness(func(i int) io.Reader { return seeded(seeds[i]) }))
				if err != nil {
					t.Fatal(err)
				}
				for i, p := range proofs {
					if !bytes.Equal(proofBytes(t, p), gnarkProof(t, f, seeds[i])) {
						t.Fatalf("seed %d: batch proof %d differs from gnark's", seeds[i], i)
					}
				}
				if got := uploads.Load(); got != 2*up2 {
					t.Fatalf("batch of 2: %d uploads, want %d (two proofs without index lists)", got, 2*up2)
				}

				// Another Prover of the same key reuses the lists too.
				pr2, err := groth16.NewProver(f.ccs, f.pk, groth16.WithDeviceKey(dk))
				if err != nil {
					t.Fatal(err)
				}
				defer pr2.Close()
				if up, _ := prove(pr2); up != up2 {
					t.Fatalf("a second Prover of the key: %d uploads, want %d", up, up2)
				}
				if got := dk.Bytes(); got != withLists {
					t.Fatalf("the key holds %d bytes after more proofs, %d after the first", got, withLists)
				}
			})
		}
	}
}

// commitOne commits one of its two secret inputs, A (which 0) or B
// (which 1): the two circuits have the same shape and wires, and a key of
// one passes every check of the other but K's wire list, which leaves the
// committed wire out.
type commitOne struct {
	A, B  frontend.Variable `gnark:",secret"`
	P     frontend.Variable `gnark:",public"`
	which int
}

func (c *commitOne) Define(api frontend.API) error {
	v := c.A
	if c.which == 1 {
		v = c.B
	}
	cm, err := api.Compiler().(frontend.Committer).Commit(v)
	if err != nil {
		return err
	}
	api.AssertIsDifferent(cm, 0)
	api.AssertIsEqual(api.Mul(c.A, c.B), c.P)
	return nil
}

// TestDeviceKeyIndexOtherCircuit: a device key whose wire index lists were
// loaded by a prover of one circuit, used by a prover of another circuit
// with the same proving key (its sizes fit both), is refused at that
// prover's first proof with ErrInput, the error naming the device key,
// its device and K's wire lists, not proved with the first circuit's list.
func TestDeviceKeyIndexOtherCircuit(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	a, b := rng.Uint64N(1<<30)+1, rng.Uint64N(1<<30)+1
	assign := func(which int) *commitOne { return &commitOne{A: a, B: b, P: a * b, which: which} }
	f0, err := newFixture(ecc.BLS12_381, "commit A", &commitOne{which: 0}, assign(0))
	if err != nil {
		t.Fatal(err)
	}
	ccs1, err := frontend.Compile(ecc.BLS12_381.ScalarField(), r1cs.NewBuilder, &commitOne{which: 1})
	if err != nil {
		t.Fatal(err)
	}
	if ccs1.GetNbConstraints() != f0.ccs.GetNbConstraints() || ccs1.GetNbInternalVariables() != f0.ccs.GetNbInternalVariables() {
		t.Fatalf("the two circuits differ in shape: %d and %d constraints, %d and %d internal wires",
			f0.ccs.GetNbConstraints(), ccs1.GetNbConstraints(), f0.ccs.GetNbInternalVariables(), ccs1.GetNbInternalVariables())
	}
	dev := cpu.MustNew()
	defer dev.Close()
	key, err := groth16.NewDeviceKey(dev, f0.pk)
	if err != nil {
		t.Fatal(err)
	}
	defer key.Close()

	p0, err := groth16.NewProver(f0.ccs, f0.pk, groth16.WithDeviceKey(key))
	if err != nil {
		t.Fatal(err)
	}
	defer p0.Close()
	proof, err := p0.Prove(context.Background(), f0.witness, groth16.WithRandomness(seeded(seed)))
	if err != nil {
		t.Fatalf("the key's own circuit: %v", err)
	}
	if err := gnarkgroth16.Verify(proof, f0.vk, f0.public); err != nil {
		t.Fatalf("the key's own circuit: gnark's verifier rejects the proof: %v", err)
	}

	p1, err := groth16.NewProver(ccs1, f0.pk, groth16.WithDeviceKey(key))
	if err != nil {
		t.Fatalf("the other circuit, same key: NewProver: %v (the key's sizes fit both circuits)", err)
	}
	defer p1.Close()
	w1, err := frontend.NewWitness(assign(1), ecc.BLS12_381.ScalarField())
	if err != nil {
		t.Fatal(err)
	}
	_, err = p1.Prove(context.Background(), w1, groth16.WithRandomness(seeded(seed)))
	if !errors.Is(err, groth16.ErrInput) {
		t.Fatalf("the other circuit: want ErrInput, got %v", err)
	}
	for _, want := range []string{"WithDeviceKey", dev.String(), "made for another circuit", "K's wire indices differ"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the other circuit: %q does not say %q", err, want)
		}
	}
}
