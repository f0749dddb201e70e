package stdcircuits

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	bw6fr "github.com/consensys/gnark-crypto/ecc/bw6-761/fr"
	"github.com/consensys/gnark/frontend"
)

// TestCircuitsSolve compiles every circuit at a small size and checks that
// a fresh assignment satisfies it and a corrupted one does not.
func TestCircuitsSolve(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	for _, k := range Kinds {
		size := 1 // the hashes' and ECDSA's fixed tables already give 10^5 constraints
		if k.Name == "rangecheck" || k.Name == "lookup" {
			size = 40
		}
		t.Run(k.Name, func(t *testing.T) {
			c, err := New(k.Name, size)
			if err != nil {
				t.Fatal(err)
			}
			ccs, err := c.Compile()
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d constraints", c.Name, ccs.GetNbConstraints())
			rng := rand.New(rand.NewPCG(seed, 1))
			a, err := c.Assign(rng)
			if err != nil {
				t.Fatal(err)
			}
			w, err := frontend.NewWitness(a, ecc.BLS12_381.ScalarField())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ccs.Solve(w); err != nil {
				t.Fatalf("valid assignment not solved: %v", err)
			}
			vec, ok := w.Vector().(fr.Vector)
			if !ok || len(vec) == 0 {
				t.Fatalf("witness vector is a %T of length %d", w.Vector(), len(vec))
			}
			var one fr.Element
			one.SetOne()
			vec[0].Add(&vec[0], &one)
			if _, err := ccs.Solve(w); err == nil {
				t.Fatal("assignment with its first input changed was solved")
			}
		})
	}
}

func TestNewRejects(t *testing.T) {
	if _, err := New("md5", 10); err == nil {
		t.Error("unknown circuit accepted")
	}
	if _, err := New("sha256", 0); err == nil {
		t.Error("size 0 accepted")
	}
	if _, err := RangeCheck(4, 63); err == nil {
		t.Error("63-bit range check accepted")
	}
}

// TestRecursionSolves: the recursion circuit over BW6-761 is satisfied by
// a fresh assignment (an inner BLS12-377 proof of a random preimage) and
// not with its public input changed; on another curve it is refused.
func TestRecursionSolves(t *testing.T) {
	if _, err := NewOn(ecc.BLS12_377, Recursion, 1); err == nil {
		t.Error("recursion over BLS12-377 accepted")
	}
	if _, err := NewOn(ecc.BW6_761, Recursion, 0); err == nil {
		t.Error("recursion of 0 proofs accepted")
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	c, err := NewOn(ecc.BW6_761, Recursion, 1)
	if err != nil {
		t.Fatal(err)
	}
	ccs, err := c.CompileOn(ecc.BW6_761)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d constraints", c.Name, ccs.GetNbConstraints())
	a, err := c.Assign(rand.New(rand.NewPCG(seed, 1)))
	if err != nil {
		t.Fatal(err)
	}
	w, err := frontend.NewWitness(a, ecc.BW6_761.ScalarField())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ccs.Solve(w); err != nil {
		t.Fatalf("valid assignment not solved: %v", err)
	}
	vec, ok := w.Vector().(bw6fr.Vector)
	if !ok || len(vec) == 0 {
		t.Fatalf("witness vector is a %T of length %d", w.Vector(), len(vec))
	}
	var one bw6fr.Element
	one.SetOne()
	vec[0].Add(&vec[0], &one) // the inner public input H, the first public value
	if _, err := ccs.Solve(w); err == nil {
		t.Fatal("assignment with the inner public input changed was solved")
	}
}
