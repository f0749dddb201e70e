// Reference only: internal/generator does not copy this file.

package bls12381

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	cs "github.com/consensys/gnark/constraint/bls12-381"

	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/internal/synth"
	wsolver "github.com/g16prover/g16/solver/bls12381"
)

// TestSolveRefillsVectors: a batch partition's solve fills the vectors
// its list hands it, full of random values from an earlier use, and gives
// the same solution (W, a, b, c, the filtered wires, the commitment, r and
// s) as a solve into fresh vectors, on a circuit with a commitment and
// fresh random witnesses; the vectors Finish would hand back go to the
// next solve.
func TestSolveRefillsVectors(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 25))
	ccs, shape, pk := randomKeyed(t, synth.Mix, 1<<10)
	p, err := newProver(ccs.(*cs.R1CS), pk, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	ck, err := uploadCommitKey(cpu.MustNew(), pk)
	if err != nil {
		t.Fatal(err)
	}
	defer ck.close()
	nbWires := len(pk.InfinityA)
	random := func(n, capa int) []fr.Element {
		v := make([]fr.Element, n, capa)
		for i := range v {
			v[i].SetUint64(rng.Uint64())
		}
		return v
	}
	list := new(vectorList)
	dirty := wsolver.Vectors{W: random(nbWires, nbWires), A: random(p.n, p.n), B: random(p.n, p.n), C: random(p.n, p.n)}
	list.put(dirty)
	for round := range 3 {
		w, err := synth.Witness(shape, rng.Uint64())
		if err != nil {
			t.Fatal(err)
		}
		rs := rng.Uint64()
		fresh := p.newPartition(w, seededReader(rs))
		fresh.commitKeys = []*commitKey{ck}
		want, err := fresh.solve(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		refill := p.newBatchPartition(round, w, seededReader(rs))
		refill.commitKeys = []*commitKey{ck}
		refill.vectors = list
		got, err := refill.solve(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name      string
			got, want []fr.Element
			buf       []fr.Element
		}{
			{"W", got.w, want.w, dirty.W}, {"a", got.a, want.a, dirty.A}, {"b", got.b, want.b, dirty.B}, {"c", got.c, want.c, dirty.C},
			{"wA", got.wA, want.wA, nil}, {"wB", got.wB, want.wB, nil},
		} {
			if !slices.Equal(c.got, c.want) {
				t.Fatalf("round %d: %s differs from a fresh solve's", round, c.name)
			}
			if c.buf != nil && &c.got[0] != &c.buf[0] {
				t.Errorf("round %d: %s was allocated, not filled from the list", round, c.name)
			}
		}
		if got.r != want.r || got.s != want.s || !slices.Equal(got.proof.Commitments, want.proof.Commitments) || got.proof.CommitmentPok != want.proof.CommitmentPok {
			t.Fatalf("round %d: r, s or the commitment differ from a fresh solve's", round)
		}
		if len(list.free) != 0 {
			t.Fatalf("round %d: %d sets left in the list during the solve", round, len(list.free))
		}
		// The random key has no base at infinity, so A's wires are W: a
		// CPU device reads W in place, and W is not handed back there.
		if back := got.vectors(p, true); back.W != nil || back.A == nil {
			t.Fatalf("round %d: with wires read in place, W handed back %v, a %v; want a alone", round, back.W != nil, back.A != nil)
		}
		back := got.vectors(p, false)
		if back.W == nil || back.A == nil || back.B == nil || back.C == nil {
			t.Fatalf("round %d: not every vector handed back", round)
		}
		list.put(back)
		dirty = back
		for _, v := range [][]fr.Element{back.W, back.A, back.B, back.C} {
			for i := range v {
				v[i].SetUint64(rng.Uint64()) // the next round fills it again
			}
		}
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
		sol := &solution{w: w, a: abc[0], b: abc[1], c: abc[2], wA: c.wA, wB: c.wB, wK: c.wK}
		v := sol.vectors(p, true)
		if (v.W != nil) != c.keepW || v.A == nil || v.B == nil || v.C == nil {
			t.Errorf("%s: W handed back %v (want %v), a, b, c %v", c.name, v.W != nil, c.keepW, v.A != nil && v.B != nil && v.C != nil)
		}
		if v := sol.vectors(p, false); v.W == nil {
			t.Errorf("%s: W not handed back where no device reads it in place", c.name)
		}
	}
	if !newVectorList([]*proverDevice{{dev: cpu.MustNew()}}).inPlace {
		t.Error("a batch on the CPU backend: W would be handed back although the device reads it in place")
	}
	var nilList *vectorList
	nilList.put(wsolver.Vectors{W: w})
	if v := nilList.get(); v.W != nil {
		t.Error("a nil list gave vectors")
	}
}

// BenchmarkSolveVectors solves a batch partition of the synthetic circuit
// into fresh vectors and into the vectors of the previous solve (what
// ProveBatch's list does).
func BenchmarkSolveVectors(b *testing.B) {
	for _, logN := range []int{16, 18} {
		ccs, shape, pk := randomKeyed(b, synth.Mix, 1<<logN)
		p, err := newProver(ccs.(*cs.R1CS), pk, nil, false)
		if err != nil {
			b.Fatal(err)
		}
		ck, err := uploadCommitKey(cpu.MustNew(), pk)
		if err != nil {
			b.Fatal(err)
		}
		w, err := synth.Witness(shape, 11)
		if err != nil {
			b.Fatal(err)
		}
		for _, reuse := range []bool{false, true} {
			name := map[bool]string{false: "fresh", true: "reused"}[reuse]
			b.Run(fmt.Sprintf("vectors=%s/n=2^%d", name, logN), func(b *testing.B) {
				var list *vectorList
				if reuse {
					list = new(vectorList)
				}
				b.ReportAllocs()
				for i := range b.N {
					t := p.newBatchPartition(i, w, seededReader(uint64(i)))
					t.commitKeys = []*commitKey{ck}
					t.vectors = list
					sol, err := t.solve(context.Background())
					if err != nil {
						b.Fatal(err)
					}
					list.put(sol.vectors(p, false))
				}
			})
		}
		ck.close()
	}
}
