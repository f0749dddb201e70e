// Reference only: internal/generator does not copy this file.

package bls12381

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16/bls12-381"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"
	cs "github.com/consensys/gnark/constraint/bls12-381"

	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/internal/synth"
	wsolver "github.com/g16prover/g16/solver/bls12381"
)

// TestSolveRefillsVectors: a batch partition's solve fills the vectors
// its list hands it, full of random values from an earlier use, and gives
// the same solution (W, a, b, c, the filtered wires, the commitments, r
// and s) as a solve into fresh vectors, on fresh random witnesses of a
// circuit with a commitment whose key has no base at infinity (A's wires
// are W) and of the PoRep-shaped circuit, whose key has A and B bases at
// infinity as gnark's Setup would (filtered copies). What Finish would hand
// back goes to the next round, refilled with random values.
func TestSolveRefillsVectors(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 25))
	mixCCS, mixShape, mixPK := randomKeyed(t, synth.Mix, 1<<10)
	porepCCS, porepShape, err := synth.CompilePorep(1<<12, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	src, err := synth.NewKeySource(porepCCS, rng.Uint64(), synth.WithSetupInfinity())
	if err != nil {
		t.Fatal(err)
	}
	porepPK, err := src.Key()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		ccs     constraint.ConstraintSystem
		pk      *gnarkgroth16.ProvingKey
		witness func(uint64) (witness.Witness, error)
		filters bool // the key has bases at infinity in A and B
	}{
		{"mix", mixCCS, mixPK, func(s uint64) (witness.Witness, error) { return synth.Witness(mixShape, s) }, false},
		{"porep", porepCCS, porepPK, func(s uint64) (witness.Witness, error) { return synth.PorepWitness(porepShape, s) }, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if filters := c.pk.NbInfinityA > 0 && c.pk.NbInfinityB > 0; filters != c.filters {
				t.Fatalf("key with %d A and %d B bases at infinity", c.pk.NbInfinityA, c.pk.NbInfinityB)
			}
			p, err := newProver(c.ccs.(*cs.R1CS), c.pk, nil, false)
			if err != nil {
				t.Fatal(err)
			}
			var keys []*commitKey
			if len(c.pk.CommitmentKeys) > 0 {
				ck, err := uploadCommitKey(cpu.MustNew(), c.pk)
				if err != nil {
					t.Fatal(err)
				}
				defer ck.close()
				keys = []*commitKey{ck}
			}
			nbWires := len(c.pk.InfinityA)
			// K's wires are W's private part unless some are committed.
			kCopy := len(c.pk.G1.K) != nbWires-p.nbPublic
			random := func(n int) []fr.Element {
				v := make([]fr.Element, n)
				for i := range v {
					v[i].SetUint64(rng.Uint64())
				}
				return v
			}
			list := new(vectorList)
			dirty := hostVectors{solver: wsolver.Vectors{W: random(nbWires), A: random(p.n), B: random(p.n), C: random(p.n)}}
			if c.filters {
				dirty.wA = random(nbWires - int(c.pk.NbInfinityA))
				dirty.wB = random(nbWires - int(c.pk.NbInfinityB))
			}
			if kCopy {
				dirty.wK = random(len(c.pk.G1.K))
			}
			list.free = append(list.free, dirty)
			for round := range 3 {
				w, err := c.witness(rng.Uint64())
				if err != nil {
					t.Fatal(err)
				}
				rs := rng.Uint64()
				fresh := p.newPartition(w, seededReader(rs))
				fresh.commitKeys = keys
				want, err := fresh.solve(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				want.wiresA(p)
				want.wiresB(p)
				want.kWires(p)
				refill := p.newBatchPartition(round, w, seededReader(rs))
				refill.commitKeys = keys
				refill.vectors = list
				got, err := refill.solve(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				got.wiresA(p)
				got.wiresB(p)
				got.kWires(p)
				for _, v := range []struct {
					name      string
					got, want []fr.Element
					buf       []fr.Element
				}{
					{"W", got.w, want.w, dirty.solver.W}, {"a", got.a, want.a, dirty.solver.A},
					{"b", got.b, want.b, dirty.solver.B}, {"c", got.c, want.c, dirty.solver.C},
					{"wA", got.wA.vals, want.wA.vals, dirty.wA}, {"wB", got.wB.vals, want.wB.vals, dirty.wB}, {"wK", got.wK.vals, want.wK.vals, dirty.wK},
				} {
					if !slices.Equal(v.got, v.want) {
						t.Fatalf("round %d: %s differs from a fresh solve's", round, v.name)
					}
					if v.buf != nil && &v.got[0] != &v.buf[0] {
						t.Errorf("round %d: %s was allocated, not filled from the list", round, v.name)
					}
				}
				if got.r != want.r || got.s != want.s || !slices.Equal(got.proof.Commitments, want.proof.Commitments) || got.proof.CommitmentPok != want.proof.CommitmentPok {
					t.Fatalf("round %d: r, s or the commitments differ from a fresh solve's", round)
				}
				if len(list.free) != 0 {
					t.Fatalf("round %d: %d sets left in the list during the solve", round, len(list.free))
				}
				// A CPU device reads the wire vectors in place: the
				// filtered copies stay, and W too where A's, B's or K's
				// wires are W.
				in := got.vectors(p, true)
				if (in.solver.W != nil) != (c.filters && kCopy) || in.solver.A == nil || in.wA != nil || in.wB != nil || in.wK != nil {
					t.Fatalf("round %d: with wires read in place, handed back W %v, a %v, filtered %v %v %v",
						round, in.solver.W != nil, in.solver.A != nil, in.wA != nil, in.wB != nil, in.wK != nil)
				}
				back := got.vectors(p, false)
				if back.solver.W == nil || back.solver.A == nil || back.solver.B == nil || back.solver.C == nil ||
					c.filters && (back.wA == nil || back.wB == nil) || kCopy && back.wK == nil {
					t.Fatalf("round %d: not every vector handed back", round)
				}
				list.giveBack(refill, back)
				dirty = back
				for _, v := range [][]fr.Element{back.solver.W, back.solver.A, back.solver.B, back.solver.C, back.wA, back.wB, back.wK} {
					for i := range v {
						v[i].SetUint64(rng.Uint64()) // the next round fills it again
					}
				}
			}
		})
	}
}

// TestVectorsKeepViewedW: where a device reads wire vectors in place (the
// CPU backend), W is not handed back when a wire MSM's vector is W itself;
// a, b and c are, and W is elsewhere. A batch on the CPU backend keeps W
// in place.
func TestVectorsKeepViewedW(t *testing.T) {
	p := &prover{nbPublic: 2}
	w := make([]fr.Element, 8)
	abc := [3][]fr.Element{make([]fr.Element, 4), make([]fr.Element, 4), make([]fr.Element, 4)}
	for _, c := range []struct {
		name       string
		wA, wB, wK []fr.Element
		keepW      bool
	}{
		{"all filtered", make([]fr.Element, 7), make([]fr.Element, 3), make([]fr.Element, 5), true},
		{"A is W", w, make([]fr.Element, 3), nil, false},
		{"B is W", make([]fr.Element, 7), w, nil, false},
		{"K is W's private part", make([]fr.Element, 7), make([]fr.Element, 3), w[2:], false},
	} {
		sol := &solution{w: w, a: abc[0], b: abc[1], c: abc[2], wA: wireVector{vals: c.wA}, wB: wireVector{vals: c.wB}, wK: wireVector{vals: c.wK}}
		v := sol.vectors(p, true).solver
		if (v.W != nil) != c.keepW || v.A == nil || v.B == nil || v.C == nil {
			t.Errorf("%s: W handed back %v (want %v), a, b, c %v", c.name, v.W != nil, c.keepW, v.A != nil && v.B != nil && v.C != nil)
		}
		if v := sol.vectors(p, false).solver; v.W == nil {
			t.Errorf("%s: W not handed back where no device reads it in place", c.name)
		}
	}
	if !newVectorList([]*proverDevice{{dev: cpu.MustNew()}}).inPlace {
		t.Error("a batch on the CPU backend: W would be handed back although the device reads it in place")
	}
	var nilList *vectorList
	nilList.giveBack(&partition{leased: true}, hostVectors{solver: wsolver.Vectors{W: w}})
	if v := nilList.take(&partition{}); v.solver.W != nil {
		t.Error("a nil list gave vectors")
	}
}

// BenchmarkSolveVectors solves a batch partition into fresh vectors and
// into the vectors of the previous solve (what a Prover's list does),
// on the synthetic circuit (a random key with no base at infinity: W alone
// is filtered for no MSM) and on the PoRep-shaped one (A and B bases at
// infinity where gnark's Setup puts them: filtered copies of W).
func BenchmarkSolveVectors(b *testing.B) {
	for _, circuit := range []string{"mix", "porep"} {
		for _, logN := range []int{16, 18} {
			benchSolveVectors(b, circuit, logN)
		}
	}
}

func benchSolveVectors(b *testing.B, circuit string, logN int) {
	var (
		ccs        constraint.ConstraintSystem
		pk         *gnarkgroth16.ProvingKey
		newWitness func() (witness.Witness, error)
	)
	if circuit == "mix" {
		var shape synth.Shape
		ccs, shape, pk = randomKeyed(b, synth.Mix, 1<<logN)
		newWitness = func() (witness.Witness, error) { return synth.Witness(shape, 11) }
	} else {
		var shape synth.PorepShape
		var err error
		if ccs, shape, err = synth.CompilePorep(1<<logN, 0.1); err != nil {
			b.Fatal(err)
		}
		src, err := synth.NewKeySource(ccs, 5, synth.WithSetupInfinity())
		if err != nil {
			b.Fatal(err)
		}
		if pk, err = src.Key(); err != nil {
			b.Fatal(err)
		}
		newWitness = func() (witness.Witness, error) { return synth.PorepWitness(shape, 11) }
	}
	p, err := newProver(ccs.(*cs.R1CS), pk, nil, false)
	if err != nil {
		b.Fatal(err)
	}
	var keys []*commitKey
	if len(pk.CommitmentKeys) > 0 {
		ck, err := uploadCommitKey(cpu.MustNew(), pk)
		if err != nil {
			b.Fatal(err)
		}
		defer ck.close()
		keys = []*commitKey{ck}
	}
	w, err := newWitness()
	if err != nil {
		b.Fatal(err)
	}
	for _, reuse := range []bool{false, true} {
		name := map[bool]string{false: "fresh", true: "reused"}[reuse]
		b.Run(fmt.Sprintf("circuit=%s/vectors=%s/n=2^%d", circuit, name, logN), func(b *testing.B) {
			var list *vectorList
			if reuse {
				list = new(vectorList)
			}
			b.ReportAllocs()
			for i := range b.N {
				t := p.newBatchPartition(i, w, seededReader(uint64(i)))
				t.commitKeys = keys
				t.vectors = list
				sol, err := t.solve(context.Background())
				if err != nil {
					b.Fatal(err)
				}
				sol.kWires(p)
				list.giveBack(t, sol.vectors(p, false))
			}
		})
	}
}
