package groth16_test

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	gnarkbackend "github.com/consensys/gnark/backend"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	groth16bls "github.com/consensys/gnark/backend/groth16/bls12-381"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint/solver"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/std/rangecheck"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/groth16"
)

// multiCommit has three BSB22 commitments: two of its own (the second
// hashes the first's value and the public input) and the range checker's.
type multiCommit struct {
	X []frontend.Variable `gnark:",secret"`
	Y []frontend.Variable `gnark:",secret"`
	P frontend.Variable   `gnark:",public"`
}

func (c *multiCommit) Define(api frontend.API) error {
	committer := api.Compiler().(frontend.Committer)
	c1, err := committer.Commit(append(append([]frontend.Variable{}, c.X...), c.P)...)
	if err != nil {
		return err
	}
	c2, err := committer.Commit(append(append([]frontend.Variable{}, c.Y...), c1)...)
	if err != nil {
		return err
	}
	api.AssertIsDifferent(api.Mul(c1, c2), 0)
	rc := rangecheck.New(api)
	sum := frontend.Variable(0)
	for i := range c.X {
		rc.Check(c.X[i], 20)
		sum = api.Add(sum, api.Mul(c.X[i], c.Y[i]))
	}
	api.AssertIsEqual(sum, c.P)
	return nil
}

var (
	multiCommitOnce sync.Once
	multiCommitFix  *fixture
	multiCommitErr  error
)

// multiCommitFixture draws fresh values (seed logged) for a circuit with
// three commitments; the circuit and keys are made once per test binary.
func multiCommitFixture(t *testing.T) *fixture {
	t.Helper()
	const n = 24
	seed := rand.Uint64()
	t.Logf("multicommit witness seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 7))
	a := &multiCommit{X: make([]frontend.Variable, n), Y: make([]frontend.Variable, n)}
	var p uint64
	for i := range n {
		x, y := rng.Uint64N(1<<20), rng.Uint64N(1<<30)
		a.X[i], a.Y[i] = x, y
		p += x * y
	}
	a.P = p
	multiCommitOnce.Do(func() {
		multiCommitFix, multiCommitErr = newFixture(ecc.BLS12_381, "multicommit",
			&multiCommit{X: make([]frontend.Variable, n), Y: make([]frontend.Variable, n)}, a)
	})
	if multiCommitErr != nil {
		t.Fatal(multiCommitErr)
	}
	f := *multiCommitFix
	var err error
	if f.witness, err = frontend.NewWitness(a, ecc.BLS12_381.ScalarField()); err != nil {
		t.Fatal(err)
	}
	if f.public, err = f.witness.Public(); err != nil {
		t.Fatal(err)
	}
	if got := len(f.pk.(*groth16bls.ProvingKey).CommitmentKeys); got != 3 {
		t.Fatalf("multicommit has %d commitment keys, want 3", got)
	}
	return &f
}

// countingMSM counts the G1 MSMs run on a backend.
type countingMSM struct {
	backend.Backend
	g1 atomic.Int32
}

func (c *countingMSM) MSMG1(q backend.Queue, cv ecc.ID, out []byte, bases backend.Buffer, off int64, scalars backend.Buffer, n int) error {
	c.g1.Add(1)
	return c.Backend.MSMG1(q, cv, out, bases, off, scalars, n)
}

// TestCommitmentsOnDevice proves a circuit with three commitments with
// Prove (key uploaded per proof, and resident), and with ProveBatch, and
// checks every proof is byte-identical to gnark's, verifies, and that the
// commitments' MSMs ran on the backend: two per commitment beside the four
// G1 MSMs of the proof.
func TestCommitmentsOnDevice(t *testing.T) {
	f := multiCommitFixture(t)
	const proofG1MSMs, commitments = 4, 3

	t.Run("Prove", func(t *testing.T) {
		dev := &countingMSM{Backend: cpu.MustNew()}
		seed := rand.Uint64()
		var times groth16.PhaseTimes
		proof, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithBackend(dev), groth16.WithRandomness(seeded(seed)), groth16.WithProverOptions(oneTask),
			groth16.WithPhaseTimes(func(_ int, pt groth16.PhaseTimes) { times = pt }))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		checkProof(t, f, proof, seed)
		if got := dev.g1.Load(); got != proofG1MSMs+2*commitments {
			t.Errorf("%d G1 MSMs on the backend, want %d", got, proofG1MSMs+2*commitments)
		}
		if times.Commit <= 0 || times.Solve <= 0 {
			t.Errorf("phase times Solve %v Commit %v: both must be positive", times.Solve, times.Commit)
		}
		if m := dev.Memory(); m.InUse != 0 {
			t.Errorf("after Prove %d bytes in use", m.InUse)
		}
	})

	t.Run("DeviceKey", func(t *testing.T) {
		dev := cpu.MustNew()
		k, err := groth16.NewDeviceKey(dev, f.pk)
		if err != nil {
			t.Fatal(err)
		}
		key, _ := memoryOf(t, f)
		key -= indexListBytes(f) // loaded with the key's first proof
		if got := k.Bytes(); got <= key || got != dev.Memory().InUse {
			t.Errorf("device key holds %d bytes (device: %d in use); the bases alone are %d", got, dev.Memory().InUse, key)
		}
		for range 2 {
			seed := rand.Uint64()
			proof, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithDeviceKey(k), groth16.WithRandomness(seeded(seed)), groth16.WithProverOptions(oneTask))
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			checkProof(t, f, proof, seed)
		}
		if err := k.Close(); err != nil {
			t.Fatal(err)
		}
		if got := dev.Memory().InUse; got != 0 {
			t.Errorf("after Close %d bytes in use", got)
		}
	})

	t.Run("ProveBatch", func(t *testing.T) {
		const nb = 3
		devs := []backend.Backend{cpu.MustNew(), cpu.MustNew()}
		seeds := make([]uint64, nb)
		ws := make([]witness.Witness, nb)
		for i := range seeds {
			seeds[i] = rand.Uint64()
			ws[i] = f.witness
		}
		ctx, cancel := context.WithTimeout(context.Background(), batchDeadline)
		defer cancel()
		var commitTime atomic.Int64
		proofs, err := groth16.ProveBatch(ctx, f.ccs, f.pk, ws, groth16.WithBackends(devs...), groth16.WithProverOptions(oneTask),
			groth16.WithBatchRandomness(func(i int) io.Reader { return seeded(seeds[i]) }),
			groth16.WithPhaseTimes(func(_ int, pt groth16.PhaseTimes) { commitTime.Add(int64(pt.Commit)) }))
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range proofs {
			checkProof(t, f, p, seeds[i])
		}
		if commitTime.Load() <= 0 {
			t.Error("no commitment time reported")
		}
		for _, d := range devs {
			if m := d.Memory(); m.InUse != 0 {
				t.Errorf("%s: %d bytes in use after the batch", d, m.InUse)
			}
		}
	})
}

// oneTask runs the solver on one goroutine. With several commitments the
// solver draws each commitment's mask (gnark's Randomize hint, one per
// commitment, all in the first level) from the randomness source; on
// several goroutines the order of those reads, gnark's as well as ours,
// depends on scheduling, so two proofs from one seed match only when the
// solve is sequential.
var oneTask = gnarkbackend.WithSolverOptions(solver.WithNbTasks(1))

// checkProof fails t unless proof is byte-identical to gnark's proof with
// the same seed (both solved on one goroutine: oneTask) and verifies.
func checkProof(t *testing.T, f *fixture, proof gnarkgroth16.Proof, seed uint64) {
	t.Helper()
	if got, want := proofBytes(t, proof), gnarkProof(t, f, seed, oneTask); !bytes.Equal(got, want) {
		t.Fatalf("seed %d: proof differs from gnark's\n got %x\nwant %x", seed, got, want)
	}
	if err := gnarkgroth16.Verify(proof, f.vk, f.public); err != nil {
		t.Fatalf("seed %d: gnark rejects the proof: %v", seed, err)
	}
}
