package stdcircuits

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
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
