package core

import (
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	bls12377fr "github.com/consensys/gnark-crypto/ecc/bls12-377/fr"
	bls12381fr "github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	bn254fr "github.com/consensys/gnark-crypto/ecc/bn254/fr"
	bw6761fr "github.com/consensys/gnark-crypto/ecc/bw6-761/fr"
	"github.com/consensys/gnark/backend/witness"
)

// TestVectorField: a witness's vector is named by its curve, whichever
// curve's witness.New built it, and a type of no fr package by its type.
func TestVectorField(t *testing.T) {
	for _, c := range []struct {
		id   ecc.ID
		want string
	}{{ecc.BN254, "bn254"}, {ecc.BLS12_377, "bls12-377"}, {ecc.BLS12_381, "bls12-381"}, {ecc.BW6_761, "bw6-761"}} {
		w, err := witness.New(c.id.ScalarField())
		if err != nil {
			t.Fatal(err)
		}
		if got := VectorField(w.Vector()); got != c.want {
			t.Errorf("%s witness: VectorField = %q, want %q", c.want, got, c.want)
		}
	}
	for _, c := range []struct {
		v    any
		want string
	}{
		{bn254fr.Vector{}, "bn254"},
		{bls12377fr.Vector{}, "bls12-377"},
		{bls12381fr.Vector{}, "bls12-381"},
		{bw6761fr.Vector{}, "bw6-761"},
		{[]int{}, "[]int"},
		{ecc.ID(0), "github.com/consensys/gnark-crypto/ecc.ID"},
		{nil, "no vector"},
	} {
		if got := VectorField(c.v); got != c.want {
			t.Errorf("VectorField(%T) = %q, want %q", c.v, got, c.want)
		}
	}
}
