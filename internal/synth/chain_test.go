package synth

import (
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/frontend"
)

// TestCompileAppendsChain: Compile's system has exactly the target's
// constraints and CompileFrontend's inputs and shape, and gnark's own
// prover proves it from a satisfying witness and refuses a witness whose Y
// is not X^(Chain+1) or whose Z is not the sum of the bits and the ranged
// values.
func TestCompileAppendsChain(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	for _, c := range []struct {
		mix    string
		target int
	}{{Mix, 1 << 12}, {Mix, 3000}, {Chain, 1 << 10}} {
		ccs, s, err := Compile(c.mix, c.target)
		if err != nil {
			t.Fatalf("%s %d: %v", c.mix, c.target, err)
		}
		ref, rs, err := CompileFrontend(c.mix, c.target)
		if err != nil {
			t.Fatalf("%s %d: frontend: %v", c.mix, c.target, err)
		}
		if got := ccs.GetNbConstraints(); got != c.target || ref.GetNbConstraints() > c.target {
			t.Errorf("%s %d: %d constraints, the frontend's circuit %d", c.mix, c.target, got, ref.GetNbConstraints())
		}
		// The same inputs; the internal wires differ by the frontend's
		// compressed partial sums of the bits.
		_, gs, gp := ccs.GetNbVariables()
		_, rsec, rp := ref.GetNbVariables()
		if gs != rsec || gp != rp {
			t.Errorf("%s %d: wires (secret, public) (%d, %d), the frontend's (%d, %d)", c.mix, c.target, gs, gp, rsec, rp)
		}
		if s.NbBits != rs.NbBits || s.NbRange != rs.NbRange || !s.Appended || s.Chain < rs.Chain-1 || s.Chain > rs.Chain+1 {
			t.Errorf("%s %d: shape %+v, the frontend's %+v", c.mix, c.target, s, rs)
		}

		pk, err := groth16.DummySetup(ccs)
		if err != nil {
			t.Fatal(err)
		}
		w, err := Witness(s, seed)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := groth16.Prove(ccs, pk, w); err != nil {
			t.Fatalf("%s %d: gnark's prover refuses a satisfying witness: %v", c.mix, c.target, err)
		}
		bad := s.Assignment(seed)
		bad.Y = 12345
		wb, err := frontend.NewWitness(bad, ecc.BLS12_381.ScalarField())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := groth16.Prove(ccs, pk, wb); err == nil {
			t.Fatalf("%s %d: gnark's prover accepts a witness whose Y is not X^(Chain+1)", c.mix, c.target)
		}
		if c.mix == Mix {
			bad = s.Assignment(seed)
			bad.Z = 12345
			wz, err := frontend.NewWitness(bad, ecc.BLS12_381.ScalarField())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := groth16.Prove(ccs, pk, wz); err == nil {
				t.Fatalf("%s %d: gnark's prover accepts a witness whose Z is not the sum of the bits and the ranged values", c.mix, c.target)
			}
		}
	}
}
