package groth16_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	"github.com/consensys/gnark/frontend/cs/scs"

	"github.com/g16prover/g16/groth16"
)

// TestBadInput checks that each kind of bad input returns an error naming
// the problem, never a panic.
func TestBadInput(t *testing.T) {
	chain := fixtureNamed(t, "mulchain")
	many := fixtureNamed(t, "manypublic")

	// The same circuit over BN254.
	bnCCS, err := frontend.Compile(ecc.BN254.ScalarField(), r1cs.NewBuilder, &mulChain{N: 4})
	if err != nil {
		t.Fatal(err)
	}
	bnPK, _, err := gnarkgroth16.Setup(bnCCS)
	if err != nil {
		t.Fatal(err)
	}
	bnW, err := frontend.NewWitness(&mulChain{N: 4, X: 2, Y: 32}, ecc.BN254.ScalarField())
	if err != nil {
		t.Fatal(err)
	}

	// A PLONK system of the same circuit.
	plonkCCS, err := frontend.Compile(ecc.BLS12_381.ScalarField(), scs.NewBuilder, &mulChain{N: 4})
	if err != nil {
		t.Fatal(err)
	}

	emptyW, err := witness.New(ecc.BLS12_381.ScalarField())
	if err != nil {
		t.Fatal(err)
	}
	wrongW, err := frontend.NewWitness(&mulChain{N: chain0(chain), X: 3, Y: 4}, ecc.BLS12_381.ScalarField())
	if err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		name    string
		ccs     constraint.ConstraintSystem
		pk      gnarkgroth16.ProvingKey
		w       witness.Witness
		inInput bool   // errors.Is(err, groth16.ErrInput)
		want    string // in the message
	}{
		{"curve/bn254-ccs", bnCCS, chain.pk, chain.witness, true, "bn254"},
		{"curve/bn254-key", chain.ccs, bnPK, chain.witness, true, "bn254"},
		{"curve/bn254-witness", chain.ccs, chain.pk, bnW, true, "witness holds bn254 scalars, not bls12-381 ones"},
		{"system/plonk", plonkCCS, chain.pk, chain.witness, true, "PLONK"},
		{"nil/ccs", nil, chain.pk, chain.witness, true, "nil constraint system"},
		{"nil/key", chain.ccs, nil, chain.witness, true, "nil proving key"},
		{"nil/witness", chain.ccs, chain.pk, nil, true, "nil witness"},
		{"empty/ccs", gnarkgroth16.NewCS(ecc.BLS12_381), chain.pk, chain.witness, true, "no constraints"},
		{"empty/key", chain.ccs, gnarkgroth16.NewProvingKey(ecc.BLS12_381), chain.witness, true, "empty"},
		{"empty/witness", chain.ccs, chain.pk, emptyW, true, "witness"},
		{"witness/other-circuit", chain.ccs, chain.pk, many.witness, true, "public"},
		{"key/other-circuit", many.ccs, chain.pk, many.witness, true, "another circuit"},
		{"witness/unsatisfied", chain.ccs, chain.pk, wrongW, true, "is not satisfied"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic: %v", r)
				}
			}()
			if c.inInput && c.name != "empty/witness" && !strings.HasPrefix(c.name, "witness/") && c.name != "nil/witness" && c.name != "curve/bn254-witness" {
				// NewProver checks the system and key alike.
				if _, err := groth16.NewProver(c.ccs, c.pk); err == nil || !errors.Is(err, groth16.ErrInput) || !strings.Contains(err.Error(), c.want) {
					t.Errorf("NewProver: error %v, want ErrInput mentioning %q", err, c.want)
				}
			}
			proof, err := groth16.Prove(c.ccs, c.pk, c.w)
			if err == nil {
				t.Fatalf("no error (proof %v)", proof)
			}
			if proof != nil {
				t.Errorf("a proof came back beside the error %v", err)
			}
			if got := errors.Is(err, groth16.ErrInput); got != c.inInput {
				t.Errorf("errors.Is(err, ErrInput) = %v, want %v: %v", got, c.inInput, err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not mention %q", err, c.want)
			}
			if !strings.HasPrefix(err.Error(), "groth16: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
		})
	}
}

// chain0 is the chain length of the mulchain fixture.
func chain0(*fixture) int { return mulChainLen }

// TestBadOptions checks that options reject bad arguments.
func TestBadOptions(t *testing.T) {
	f := fixtureNamed(t, "mulchain")
	for name, opt := range map[string]groth16.Option{
		"nil-backend": groth16.WithBackend(nil),
		"nil-reader":  groth16.WithRandomness(nil),
		"zero-option": {},
	} {
		if _, err := groth16.Prove(f.ccs, f.pk, f.witness, opt); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestShortRandomness checks that a reader that runs dry is an error.
func TestShortRandomness(t *testing.T) {
	f := fixtureNamed(t, "mulchain")
	_, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithRandomness(strings.NewReader("too short")))
	if err == nil || !strings.Contains(err.Error(), "randomness") {
		t.Fatalf("want a randomness error, got %v", err)
	}
}
