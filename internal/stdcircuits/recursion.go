package stdcircuits

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"sync"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bls12-377/fr"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	stdgroth16 "github.com/consensys/gnark/std/recursion/groth16"

	"github.com/g16prover/g16/examples/recursion/circuit"
)

// Recursion is the kind name of the recursion circuit (NewOn on BW6-761
// only).
const Recursion = "recursion"

// RecursionOn is the verification, in a circuit over BW6-761's scalar
// field, of n Groth16 proofs over BLS12-377 (gnark's two-chain): the
// recursion example's circuits (examples/recursion/circuit), each inner
// proof of a MiMC preimage, made by gnark's Prove under gnark's Setup
// keys, drawn once per Circuit. Assign's inner preimages come from rng;
// gnark's Setup and Prove of the inner proofs read crypto/rand.
func RecursionOn(id ecc.ID, n int) (*Circuit, error) {
	if id != ecc.BW6_761 {
		return nil, fmt.Errorf("stdcircuits: %s verifies BLS12-377 proofs in a BW6-761 circuit (the two-chain): not over %s", Recursion, id)
	}
	if n < 1 {
		return nil, fmt.Errorf("stdcircuits: %s: %d inner proofs, need at least 1", Recursion, n)
	}
	inner, err := frontend.Compile(ecc.BLS12_377.ScalarField(), r1cs.NewBuilder, &circuit.Inner{})
	if err != nil {
		return nil, fmt.Errorf("stdcircuits: %s: inner circuit: %w", Recursion, err)
	}
	var (
		once   sync.Once
		pk     gnarkgroth16.ProvingKey
		vk     gnarkgroth16.VerifyingKey
		keyErr error
	)
	return &Circuit{
		Name:  sized(Recursion, "proofs", n),
		Shape: circuit.OuterShape(inner, n),
		Assign: func(rng *rand.Rand) (frontend.Circuit, error) {
			once.Do(func() { pk, vk, keyErr = gnarkgroth16.Setup(inner) })
			if keyErr != nil {
				return nil, fmt.Errorf("stdcircuits: %s: inner setup: %w", Recursion, keyErr)
			}
			a := &circuit.Outer{}
			for i := range n {
				if err := innerProof(inner, pk, vk, rng, a); err != nil {
					return nil, fmt.Errorf("stdcircuits: %s: inner proof %d: %w", Recursion, i, err)
				}
			}
			return a, nil
		},
	}, nil
}

// innerProof proves the inner circuit for a preimage from rng and appends
// the key, proof and public input to a.
func innerProof(inner constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey, vk gnarkgroth16.VerifyingKey, rng *rand.Rand, a *circuit.Outer) error {
	var x fr.Element
	x.SetBigInt(new(big.Int).SetBytes(randBytes(rng, 48)))
	ia, err := circuit.InnerAssignment(x)
	if err != nil {
		return err
	}
	w, err := frontend.NewWitness(ia, ecc.BLS12_377.ScalarField())
	if err != nil {
		return err
	}
	pub, err := w.Public()
	if err != nil {
		return err
	}
	outer, field := ecc.BW6_761.ScalarField(), ecc.BLS12_377.ScalarField()
	proof, err := gnarkgroth16.Prove(inner, pk, w, stdgroth16.GetNativeProverOptions(outer, field))
	if err != nil {
		return err
	}
	return a.Append(vk, proof, pub)
}
