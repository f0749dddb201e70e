package synth

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark/backend/groth16"
	groth16bls "github.com/consensys/gnark/backend/groth16/bls12-381"
	cs "github.com/consensys/gnark/constraint/bls12-381"
)

// TestPorepShape: the PoRep-shaped circuit, solved by gnark's solver from
// a fresh witness, has what was asked: 328 public wires, at most the
// target's constraints (and not far below), an A query over 99.7% of the
// wires and a B query over a quarter (as gnark's DummySetup counts them),
// and wire values neither 0 nor 1 in the share asked, the rest bits of
// both values, within tolerances that the plan's rounding and the bits'
// randomness allow.
func TestPorepShape(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	tails := []float64{PorepTailMin, PorepTailDefault, 0.25, PorepTailMax, PorepTailMin + rng.Float64()*(PorepTailMax-PorepTailMin)}
	targets := []int{1 << 13, 1<<13 + rng.IntN(1<<13)}
	if !testing.Short() {
		targets = append(targets, 1<<16)
	}
	for _, target := range targets {
		for _, tail := range tails {
			ccs, s, err := CompilePorep(target, tail)
			if err != nil {
				t.Fatalf("%d %.3f: %v", target, tail, err)
			}
			n := ccs.GetNbConstraints()
			if n > target || n < target-target/32 {
				t.Errorf("%d %.3f: %d constraints", target, tail, n)
			}
			if got := ccs.GetNbPublicVariables(); got != PorepPublic {
				t.Errorf("%d %.3f: %d public wires, want %d", target, tail, got, PorepPublic)
			}
			pk, err := groth16.DummySetup(ccs)
			if err != nil {
				t.Fatal(err)
			}
			gpk := pk.(*groth16bls.ProvingKey)
			// The shares of 0 and 1 vary with the witness's bits by about
			// 0.2/√(lanes·rounds) (measured over 200 witnesses at 2^13 to
			// 2^16); pooling the counts of enough witnesses that this
			// deviation times 5 stays inside the tolerance below keeps
			// the test from failing on an unlucky draw.
			nwit := max(1, (400+s.Lanes*s.Rounds-1)/(s.Lanes*s.Rounds))
			var zeros, ones, total int
			for k := range nwit {
				w, err := PorepWitness(s, seed+uint64(k))
				if err != nil {
					t.Fatal(err)
				}
				sol, err := ccs.Solve(w)
				if err != nil {
					t.Fatalf("%d %.3f: gnark's solver refuses the witness: %v", target, tail, err)
				}
				values := sol.(*cs.R1CSSolution).W
				total += len(values)
				for i := range values {
					switch {
					case values[i].IsZero():
						zeros++
					case values[i].IsOne():
						ones++
					}
				}
			}
			nw := float64(total / nwit)
			a := 1 - float64(gpk.NbInfinityA)/nw
			b := 1 - float64(gpk.NbInfinityB)/nw
			zero, one := float64(zeros)/float64(total), float64(ones)/float64(total)
			tl := 1 - zero - one
			ea, eb, ez, eo, et := s.Expected()
			t.Logf("%d tail %.3f: %d lanes × %d(+%d) rounds, pool %d, %d witnesses; A %.4f (%.4f) B %.4f (%.4f) zero %.4f (%.4f) one %.4f (%.4f) tail %.4f (%.4f)",
				n, tail, s.Lanes, s.Rounds, s.Extra, s.Pool, nwit, a, ea, b, eb, zero, ez, one, eo, tl, et)
			near := func(what string, got, want, tol float64) {
				if math.Abs(got-want) > tol {
					t.Errorf("%d tail %.3f: %s %.4f, want %.4f ± %.4f", target, tail, what, got, want, tol)
				}
			}
			// What was asked.
			near("A density", a, PorepADensity, 0.001)
			near("B density", b, PorepBDensity, 0.02)
			near("tail share", tl, tail, 0.01)
			// The rest are bits, both values common: the temporaries
			// x∧y lean to 0.
			near("share of 0 among the bits", zero/(zero+one), 0.55, 0.1)
			// What the plan counts: the densities and the tail exactly,
			// the shares of 0 and 1 as those of uniform bits, which the
			// lanes' bits are roughly.
			near("A density against the plan", a, ea, 1e-9)
			near("B density against the plan", b, eb, 1e-9)
			near("tail share against the plan", tl, et, 1e-9)
			near("zero share against the plan", zero, ez, 0.05)
			near("one share against the plan", one, eo, 0.05)
		}
	}
}

// TestPorepSetupInfinity: a random key drawn WithSetupInfinity has its A
// and B points at infinity for exactly the wires gnark's Setup puts there,
// and as many points as gnark's key; without the option, none.
func TestPorepSetupInfinity(t *testing.T) {
	ccs, _, err := CompilePorep(1<<12, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	ref, _, err := groth16.Setup(ccs)
	if err != nil {
		t.Fatal(err)
	}
	rpk := ref.(*groth16bls.ProvingKey)
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	src, err := NewKeySource(ccs, seed, WithSetupInfinity())
	if err != nil {
		t.Fatal(err)
	}
	pk, err := src.Key()
	if err != nil {
		t.Fatal(err)
	}
	if rpk.NbInfinityA == 0 || rpk.NbInfinityB == 0 {
		t.Fatalf("gnark's key has %d A and %d B points at infinity: the circuit is not sparse", rpk.NbInfinityA, rpk.NbInfinityB)
	}
	for i := range rpk.InfinityA {
		if pk.InfinityA[i] != rpk.InfinityA[i] || pk.InfinityB[i] != rpk.InfinityB[i] {
			t.Fatalf("wire %d: at infinity (A, B) (%v, %v), gnark's (%v, %v)", i, pk.InfinityA[i], pk.InfinityB[i], rpk.InfinityA[i], rpk.InfinityB[i])
		}
	}
	if pk.NbInfinityA != rpk.NbInfinityA || pk.NbInfinityB != rpk.NbInfinityB ||
		len(pk.G1.A) != len(rpk.G1.A) || len(pk.G1.B) != len(rpk.G1.B) || len(pk.G2.B) != len(rpk.G2.B) ||
		len(pk.G1.K) != len(rpk.G1.K) || len(pk.G1.Z) != len(rpk.G1.Z) {
		t.Errorf("points (A, B1, B2, K, Z) (%d, %d, %d, %d, %d) at infinity (%d, %d), gnark's (%d, %d, %d, %d, %d) (%d, %d)",
			len(pk.G1.A), len(pk.G1.B), len(pk.G2.B), len(pk.G1.K), len(pk.G1.Z), pk.NbInfinityA, pk.NbInfinityB,
			len(rpk.G1.A), len(rpk.G1.B), len(rpk.G2.B), len(rpk.G1.K), len(rpk.G1.Z), rpk.NbInfinityA, rpk.NbInfinityB)
	}
	for i := range pk.G1.B {
		if pk.G1.B[i].IsInfinity() || !pk.G1.B[i].IsOnCurve() {
			t.Fatalf("B point %d is infinity or off the curve", i)
		}
	}
	want, err := RandomKeyBytes(ccs, WithSetupInfinity())
	if err != nil {
		t.Fatal(err)
	}
	dense, err := RandomKeyBytes(ccs)
	if err != nil {
		t.Fatal(err)
	}
	if want >= dense {
		t.Errorf("RandomKeyBytes: %d with the infinity points left out, %d without", want, dense)
	}
	plain, err := NewKeySource(ccs, seed)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Len(VectorB) != len(rpk.InfinityB) || plain.G2Len() != len(rpk.InfinityB) {
		t.Errorf("without WithSetupInfinity: %d B points in G1, %d in G2, want one a wire (%d)", plain.Len(VectorB), plain.G2Len(), len(rpk.InfinityB))
	}
}

// TestPorepPlanErrors: a tail share outside [0.05, 0.5] or a size too
// small is refused with an error that names it.
func TestPorepPlanErrors(t *testing.T) {
	for _, c := range []struct {
		target int
		tail   float64
		want   string
	}{{1 << 16, 0.04, "tail share"}, {1 << 16, 0.51, "tail share"}, {1 << 16, math.NaN(), "tail share"}, {1 << 10, 0.1, "too small"}} {
		_, err := PorepPlan(c.target, c.tail)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("PorepPlan(%d, %v): %v, want an error about the %s", c.target, c.tail, err, c.want)
		}
	}
}

// TestPorepVerifies: gnark's Setup and Prove on the PoRep-shaped circuit
// give a proof that verifies, and a witness whose state bit is not a bit
// is refused.
func TestPorepVerifies(t *testing.T) {
	ccs, s, err := CompilePorep(1<<12, PorepTailDefault)
	if err != nil {
		t.Fatal(err)
	}
	pk, vk, err := groth16.Setup(ccs)
	if err != nil {
		t.Fatal(err)
	}
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	w, err := PorepWitness(s, seed)
	if err != nil {
		t.Fatal(err)
	}
	proof, err := groth16.Prove(ccs, pk, w)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := w.Public()
	if err != nil {
		t.Fatal(err)
	}
	if err := groth16.Verify(proof, vk, pub); err != nil {
		t.Fatalf("gnark's proof does not verify: %v", err)
	}
	bad, err := PorepWitness(s, seed)
	if err != nil {
		t.Fatal(err)
	}
	v := bad.Vector().(fr.Vector)
	v[PorepPublic-1+1+rand.IntN(porepState)].SetUint64(2) // a state bit of lane 0
	if _, err := groth16.Prove(ccs, pk, bad); err == nil {
		t.Fatal("gnark's prover accepts a state bit of 2")
	}
}
