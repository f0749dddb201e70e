// Reference only: internal/generator does not copy this file.

package bls12381

import (
	"context"
	cryptorand "crypto/rand"
	"math/rand/v2"
	"testing"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/internal/synth"
)

// newReclaimSetup gives two Provers of one circuit on devices that copy
// their uploads (so W and its filtered copies are kept too), a source of
// fresh witnesses, one partition's vectors, a batch size k and the host
// memory that gives a fresh process's batch of k partitions exactly k
// slots (the CPU device's reserve, k partitions' vectors and half of one
// more), and gnark's proof of a witness with its randomness read from a
// seed. The stubbed host memory is restored when the test ends.
func newReclaimSetup(t *testing.T) (*Prover, *Prover, func() witness.Witness, int64, int, int64, func(witness.Witness, uint64) gnarkgroth16.Proof) {
	t.Helper()
	ccs, shape, pk := randomKeyed(t, synth.Mix, 1<<10)
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 25))
	wit := func() witness.Witness {
		w, err := synth.Witness(shape, rng.Uint64())
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	newProver := func() *Prover {
		pr, err := NewProver(ccs, pk, onDevice(struct{ backend.Backend }{cpu.MustNew()}))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pr.Close() })
		return pr
	}
	a, b := newProver(), newProver()
	saved := availableHostMemory
	t.Cleanup(func() { availableHostMemory = saved })
	availableHostMemory = func() int64 { return 1 << 50 }
	probe, err := b.planHost(0, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	need := b.p.hostNeed()
	const k = 3
	fresh := probe.reserve + k*need + need/2
	gnarkProof := func(w witness.Witness, seed uint64) gnarkgroth16.Proof {
		saved := cryptorand.Reader
		cryptorand.Reader = seededReader(seed)
		proof, err := gnarkgroth16.Prove(ccs, pk, w)
		cryptorand.Reader = saved
		if err != nil {
			t.Fatal(err)
		}
		return proof
	}
	return a, b, wit, need, k, fresh, gnarkProof
}

// fillVectors runs a proof on pr with the host's memory unbounded and
// checks that pr then holds one partition's vectors.
func fillVectors(t *testing.T, pr *Prover, wit func() witness.Witness, need int64) {
	t.Helper()
	saved := availableHostMemory
	defer func() { availableHostMemory = saved }()
	availableHostMemory = func() int64 { return 1 << 50 }
	if _, err := pr.Prove(context.Background(), wit(), call()); err != nil {
		t.Fatal(err)
	}
	if h := pr.vectors.held(); h < need {
		t.Fatalf("a Prover holds %d bytes of vectors after a proof, want at least one partition's %d", h, need)
	}
}

// TestIdleProversVectorsReclaimed: with the host's available memory
// stubbed to a fresh process's less the vectors two Provers hold, the
// first Prover's held sets would shrink the second's batch; the second's
// planning drops them (both from ProveBatch and planHost), plans the
// slots a fresh process gives, and the first Prover's next proof still
// works and is byte-identical to gnark's.
func TestIdleProversVectorsReclaimed(t *testing.T) {
	a, b, wit, need, k, fresh, gnarkProof := newReclaimSetup(t)
	host := func() int64 { return fresh - a.vectors.held() - b.vectors.held() }

	fillVectors(t, a, wit, need)
	availableHostMemory = host
	if short, err := b.measureHost(0, 2); err != nil || short.slots != k-1 {
		t.Fatalf("with the first Prover's vectors held the host gives %d slots (%v), want %d: the test would not test", short.slots, err, k-1)
	}
	ws := make([]witness.Witness, k)
	for i := range ws {
		ws[i] = wit()
	}
	if _, err := b.ProveBatch(context.Background(), ws, call()); err != nil {
		t.Fatal(err)
	}
	if n, h := len(a.vectors.free), a.vectors.held(); n != 0 || h != 0 {
		t.Fatalf("after the second Prover's batch the idle first holds %d sets (%d bytes), want none", n, h)
	}

	fillVectors(t, a, wit, need)
	b.vectors.drop() // the second Prover as a fresh one
	held := a.vectors.held()
	availableHostMemory = host
	hp, err := b.planHost(0, 2, k)
	if err != nil {
		t.Fatal(err)
	}
	if hp.slots != k {
		t.Fatalf("the second Prover plans %d slots beside an idle Prover that held %d bytes, a fresh process %d: %s", hp.slots, held, k, hp)
	}
	if n := len(a.vectors.free); n != 0 {
		t.Fatalf("the idle first Prover still holds %d sets", n)
	}

	availableHostMemory = func() int64 { return 1 << 50 }
	w, rs := wit(), rand.Uint64()
	got, err := a.Prove(context.Background(), w, call(withRandomness(seededReader(rs))))
	if err != nil {
		t.Fatalf("the first Prover's proof after its vectors were dropped: %v", err)
	}
	if !sameProof(t, got, gnarkProof(w, rs)) {
		t.Fatal("the first Prover's proof after its vectors were dropped differs from gnark's")
	}
}

// TestRunningProverKeepsVectors: a Prover whose call is running (here
// inside its own preflight, where the stubbed host memory is read) keeps
// its sets when another Prover's planning finds the host short; that
// Prover plans fewer slots, and the running proof finishes equal to
// gnark's.
func TestRunningProverKeepsVectors(t *testing.T) {
	a, b, wit, need, k, fresh, gnarkProof := newReclaimSetup(t)
	fillVectors(t, a, wit, need)
	held := a.vectors.held()
	var (
		inA      bool
		hp       hostPlan
		planErr  error
		heldThen int64
	)
	availableHostMemory = func() int64 {
		if inA {
			return fresh - a.vectors.held() - b.vectors.held()
		}
		inA = true
		hp, planErr = b.planHost(0, 2, k)
		heldThen = a.vectors.held()
		return 1 << 50
	}
	w, rs := wit(), rand.Uint64()
	got, err := a.Prove(context.Background(), w, call(withRandomness(seededReader(rs))))
	if err != nil {
		t.Fatal(err)
	}
	if !inA {
		t.Fatal("the first Prover's proof never read the host's memory: the test would not test")
	}
	if planErr != nil {
		t.Fatal(planErr)
	}
	if heldThen != held {
		t.Fatalf("the running Prover held %d bytes before the other's planning and %d after, want them kept", held, heldThen)
	}
	if hp.slots != k-1 {
		t.Fatalf("the second Prover plans %d slots beside a running Prover holding %d bytes, want %d", hp.slots, held, k-1)
	}
	if !sameProof(t, got, gnarkProof(w, rs)) {
		t.Fatal("the running Prover's proof differs from gnark's")
	}
}
