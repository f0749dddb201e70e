// Reference only: internal/generator does not copy this file.

package bls12381

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/groth16/internal/core"
	"github.com/g16prover/g16/internal/synth"
	"github.com/g16prover/g16/pool"
	wsolver "github.com/g16prover/g16/solver/bls12381"
)

// TestProverRefillsVectors: a Prover's second Prove fills the vectors of
// its first (the same W, a, b, c and filtered copies of W, on the
// PoRep-shaped circuit whose key has A and B bases at infinity), and its
// proof is byte-identical to a fresh Prover's for the same witness and
// randomness. On a device that reads wire vectors in place (the CPU
// backend) a, b and c are filled again and no filtered copy is kept.
func TestProverRefillsVectors(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 26))
	ccs, shape, err := synth.CompilePorep(1<<12, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	src, err := synth.NewKeySource(ccs, rng.Uint64(), synth.WithSetupInfinity())
	if err != nil {
		t.Fatal(err)
	}
	pk, err := src.Key()
	if err != nil {
		t.Fatal(err)
	}
	if pk.NbInfinityA == 0 || pk.NbInfinityB == 0 {
		t.Fatalf("key with %d A and %d B bases at infinity, want some of each", pk.NbInfinityA, pk.NbInfinityB)
	}
	for _, c := range []struct {
		name    string
		dev     func() backend.Backend
		inPlace bool
	}{
		{"copies uploads", func() backend.Backend { return struct{ backend.Backend }{cpu.MustNew()} }, false},
		{"reads wires in place", func() backend.Backend { return cpu.MustNew() }, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			pr, err := NewProver(ccs, pk, onDevice(c.dev()))
			if err != nil {
				t.Fatal(err)
			}
			defer pr.Close()
			if pr.vectors.inPlace != c.inPlace {
				t.Fatalf("list in place %v, want %v", pr.vectors.inPlace, c.inPlace)
			}
			var first hostVectors
			for round := range 3 {
				w, err := synth.PorepWitness(shape, rng.Uint64())
				if err != nil {
					t.Fatal(err)
				}
				rs := rng.Uint64()
				got, err := pr.Prove(context.Background(), w, call(withRandomness(seededReader(rs))))
				if err != nil {
					t.Fatal(err)
				}
				if n := len(pr.vectors.free); n != 1 {
					t.Fatalf("round %d: the Prover holds %d sets of vectors after a proof, want 1", round, n)
				}
				set := pr.vectors.free[0]
				if round == 0 {
					first = set
					if set.solver.A == nil || set.solver.B == nil || set.solver.C == nil {
						t.Fatal("a, b or c not kept after the first proof")
					}
					if c.inPlace && (set.wA != nil || set.wB != nil || set.wK != nil) {
						t.Fatal("a filtered wire vector kept although the device reads it in place")
					}
					if !c.inPlace && (set.solver.W == nil || set.wA == nil || set.wB == nil) {
						t.Fatal("W or a filtered copy not kept, with no device reading them in place")
					}
				} else {
					for _, v := range []struct {
						name        string
						got, before []fr.Element
					}{
						{"W", set.solver.W, first.solver.W}, {"a", set.solver.A, first.solver.A},
						{"b", set.solver.B, first.solver.B}, {"c", set.solver.C, first.solver.C},
						{"wA", set.wA, first.wA}, {"wB", set.wB, first.wB}, {"wK", set.wK, first.wK},
					} {
						if v.before != nil && (len(v.got) == 0 || &v.got[0] != &v.before[0]) {
							t.Errorf("round %d: %s was allocated again, not filled from the first proof's", round, v.name)
						}
					}
				}
				fresh, err := NewProver(ccs, pk, onDevice(c.dev()))
				if err != nil {
					t.Fatal(err)
				}
				want, err := fresh.Prove(context.Background(), w, call(withRandomness(seededReader(rs))))
				if cerr := fresh.Close(); err == nil {
					err = cerr
				}
				if err != nil {
					t.Fatal(err)
				}
				if !sameProof(t, got, want) {
					t.Fatalf("round %d: the proof from refilled vectors differs from a fresh Prover's", round)
				}
			}
			if err := pr.Close(); err != nil {
				t.Fatal(err)
			}
			if n := pr.vectors.held(); n != 0 {
				t.Fatalf("Close left %d bytes of vectors on the list", n)
			}
		})
	}
}

// TestProverVectorsBounded: proofs running side by side on the CPU backend
// (which reads wire vectors in place; the race detector watches W) leave
// no more sets than were in flight, a batch no more than it held at once,
// and a single Prove after it trims the idle Prover to one set; every
// proof equals a fresh Prover's for its witness and randomness.
func TestProverVectorsBounded(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	ccs, shape, pk := randomKeyed(t, synth.Mix, 1<<10)
	const n = 6
	ws := make([]witness.Witness, n)
	for i := range ws {
		var err error
		if ws[i], err = synth.Witness(shape, seed+uint64(i)); err != nil {
			t.Fatal(err)
		}
	}
	randFor := func(i int) io.Reader { return seededReader(seed ^ uint64(7000+i)) }
	fresh, err := NewProver(ccs, pk, onDevice(cpu.MustNew()))
	if err != nil {
		t.Fatal(err)
	}
	want := make([]gnarkgroth16.Proof, n)
	for i, w := range ws {
		fresh.vectors.drop()
		if want[i], err = fresh.Prove(context.Background(), w, call(withRandomness(randFor(i)))); err != nil {
			t.Fatal(err)
		}
	}
	fresh.Close()

	pr, err := NewProver(ccs, pk, onDevice(cpu.MustNew()))
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	check := func(what string, i int, got gnarkgroth16.Proof) {
		if !sameProof(t, got, want[i]) {
			t.Errorf("%s: the proof of witness %d differs from a fresh Prover's", what, i)
		}
	}
	const side = 3
	var wg sync.WaitGroup
	for g := range side {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := g; i < n; i += side {
				got, err := pr.Prove(context.Background(), ws[i], call(withRandomness(randFor(i))))
				if err != nil {
					t.Error(err)
					return
				}
				check("side by side", i, got)
			}
		}()
	}
	wg.Wait()
	if k := len(pr.vectors.free); k < 1 || k > side {
		t.Fatalf("%d proofs side by side left %d sets, want 1 to %d", side, k, side)
	}
	tr := pool.NewTrace()
	proofs, err := pr.ProveBatch(context.Background(), ws, call(func(c *core.CallConfig) {
		c.RandFor = randFor
		c.PoolOpts = []pool.Option{pool.WithTrace(tr), pool.WithWorkers(2), pool.WithSolvers(2)}
	}))
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range proofs {
		check("batch", i, p)
	}
	held := tr.HeldAtOnce()
	if k := len(pr.vectors.free); k < 1 || k > held {
		t.Fatalf("a batch holding at most %d partitions at once left %d sets", held, k)
	}
	t.Logf("side by side: %d, batch: at most %d held, %d sets kept", side, held, len(pr.vectors.free))
	got, err := pr.Prove(context.Background(), ws[0], call(withRandomness(randFor(0))))
	if err != nil {
		t.Fatal(err)
	}
	check("after the batch", 0, got)
	if k := len(pr.vectors.free); k != 1 {
		t.Fatalf("a single Prove after the batch left %d sets, want 1 (the idle Prover trimmed to its last call's)", k)
	}
	if pr.vectors.out != 0 || pr.vectors.calls != 0 {
		t.Fatalf("idle Prover with %d leases out and %d calls counted", pr.vectors.out, pr.vectors.calls)
	}
}

// TestHeldVectorsCountAsAvailable: the vectors a Prover holds count as
// host memory available to its own next proof, so that holding them never
// refuses a proof or shrinks a batch: with the host's available memory
// stubbed to what a fresh Prover saw less what this one holds, the
// preflight passes and the batch plan has the fresh Prover's slots; with
// less, the error names what the Prover holds.
func TestHeldVectorsCountAsAvailable(t *testing.T) {
	ccs, shape, pk := randomKeyed(t, synth.Mix, 1<<10)
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	w, err := synth.Witness(shape, seed)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := NewProver(ccs, pk, onDevice(struct{ backend.Backend }{cpu.MustNew()}))
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	saved := availableHostMemory
	defer func() { availableHostMemory = saved }()
	need := pr.p.hostNeed()
	const k = 3
	availableHostMemory = func() int64 { return 1 << 50 }
	probe, err := pr.planHost(0, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	avail := probe.reserve + int64(k)*need + need/2 // room for k partitions beside the device's
	availableHostMemory = func() int64 { return avail }
	before, err := pr.planHost(0, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if before.slots != k {
		t.Fatalf("a fresh Prover plans %d slots, want %d", before.slots, k)
	}
	if _, err := pr.ProveBatch(context.Background(), []witness.Witness{w, w, w, w}, call(func(c *core.CallConfig) {
		c.RandFor = func(i int) io.Reader { return seededReader(seed + uint64(i)) }
	})); err != nil {
		t.Fatal(err)
	}
	held := pr.vectors.held()
	if held < need {
		t.Fatalf("the Prover holds %d bytes of vectors after a batch, want at least one partition's %d", held, need)
	}
	// The host's available memory less what the Prover holds.
	availableHostMemory = func() int64 { return avail - pr.vectors.held() }
	after, err := pr.planHost(0, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if after.slots != before.slots {
		t.Fatalf("a Prover holding %d bytes of vectors plans %d slots, a fresh one %d: %s", held, after.slots, before.slots, after)
	}
	if !strings.Contains(after.String(), fmt.Sprintf("%s held by the Prover", gibs(held))) {
		t.Errorf("the plan does not name the held vectors: %s", after)
	}
	// A proof that a fresh Prover would just fit.
	availableHostMemory = func() int64 { return need - pr.vectors.held() }
	if _, err := pr.Prove(context.Background(), w, call()); err != nil {
		t.Fatalf("Prove on a host with room for one proof counting the Prover's vectors: %v", err)
	}
	// One byte short, the Prover holding a only (so that the host still
	// reports some memory available).
	set := pr.vectors.free[len(pr.vectors.free)-1]
	pr.vectors.free = []hostVectors{{solver: wsolver.Vectors{A: set.solver.A}}}
	availableHostMemory = func() int64 { return need - 1 - pr.vectors.held() }
	if _, err := pr.Prove(context.Background(), w, call()); err == nil || !strings.Contains(err.Error(), "the Prover holds") {
		t.Fatalf("Prove one byte short: %v, want a host-memory error naming the Prover's vectors", err)
	}
}
