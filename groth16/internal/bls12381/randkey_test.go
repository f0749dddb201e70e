// Reference only: internal/generator does not copy this file.

package bls12381

import (
	"testing"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16/bls12-381"
	"github.com/consensys/gnark/constraint"

	"github.com/g16prover/g16/internal/synth"
)

// randomKeyed compiles synth's mix at about size constraints and gives it
// a random key (synth.RandomKey: no point at infinity).
func randomKeyed(t testing.TB, mix string, size int) (constraint.ConstraintSystem, synth.Shape, *gnarkgroth16.ProvingKey) {
	t.Helper()
	ccs, shape, err := synth.Compile(mix, size)
	if err != nil {
		t.Fatal(err)
	}
	gpk, err := synth.RandomKey(ccs)
	if err != nil {
		t.Fatal(err)
	}
	return ccs, shape, gpk.(*gnarkgroth16.ProvingKey)
}
