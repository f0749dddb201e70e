package stdcircuits

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"sync"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bls12-377/fr"
	bls12377mimc "github.com/consensys/gnark-crypto/ecc/bls12-377/fr/mimc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	"github.com/consensys/gnark/std/algebra/native/sw_bls12377"
	"github.com/consensys/gnark/std/hash/mimc"
	stdgroth16 "github.com/consensys/gnark/std/recursion/groth16"
)

// Recursion is the kind name of the recursion circuit (NewOn on BW6-761
// only).
const Recursion = "recursion"

// mimcPreimage is the inner circuit: H = MiMC(X) over BLS12-377's scalar
// field, X secret (311 constraints).
type mimcPreimage struct {
	X frontend.Variable
	H frontend.Variable `gnark:",public"`
}

func (c *mimcPreimage) Define(api frontend.API) error {
	h, err := mimc.NewMiMC(api)
	if err != nil {
		return err
	}
	h.Write(c.X)
	api.AssertIsEqual(h.Sum(), c.H)
	return nil
}

type (
	recG1    = sw_bls12377.G1Affine
	recG2    = sw_bls12377.G2Affine
	recGT    = sw_bls12377.GT
	recField = sw_bls12377.ScalarField
)

// recursionCircuit verifies len(Proofs) Groth16 proofs over BLS12-377 of
// mimcPreimage (std/recursion/groth16, native on BW6-761: BLS12-377's base
// field is BW6-761's scalar field), each under its key VK[i] and for its
// public input Public[i]. The keys are witness values, so the circuit's
// shape depends only on the inner circuit's.
type recursionCircuit struct {
	VK     []stdgroth16.VerifyingKey[recG1, recG2, recGT]
	Proofs []stdgroth16.Proof[recG1, recG2]
	Public []stdgroth16.Witness[recField] `gnark:",public"`
}

func (c *recursionCircuit) Define(api frontend.API) error {
	v, err := stdgroth16.NewVerifier[recField, recG1, recG2, recGT](api)
	if err != nil {
		return err
	}
	for i := range c.Proofs {
		if err := v.AssertProof(c.VK[i], c.Proofs[i], c.Public[i]); err != nil {
			return err
		}
	}
	return nil
}

// RecursionOn is the verification, in a circuit over BW6-761's scalar
// field, of n Groth16 proofs over BLS12-377 (gnark's two-chain; each inner
// proof is of a MiMC preimage, made by gnark's Prove under gnark's Setup
// keys, drawn once per Circuit). Assign's inner preimages come from rng;
// gnark's Setup and Prove of the inner proofs read crypto/rand.
func RecursionOn(id ecc.ID, n int) (*Circuit, error) {
	if id != ecc.BW6_761 {
		return nil, fmt.Errorf("stdcircuits: %s verifies BLS12-377 proofs in a BW6-761 circuit (the two-chain): not over %s", Recursion, id)
	}
	if n < 1 {
		return nil, fmt.Errorf("stdcircuits: %s: %d inner proofs, need at least 1", Recursion, n)
	}
	inner, err := frontend.Compile(ecc.BLS12_377.ScalarField(), r1cs.NewBuilder, &mimcPreimage{})
	if err != nil {
		return nil, fmt.Errorf("stdcircuits: %s: inner circuit: %w", Recursion, err)
	}
	shape := &recursionCircuit{
		VK:     make([]stdgroth16.VerifyingKey[recG1, recG2, recGT], n),
		Proofs: make([]stdgroth16.Proof[recG1, recG2], n),
		Public: make([]stdgroth16.Witness[recField], n),
	}
	for i := range n {
		shape.VK[i] = stdgroth16.PlaceholderVerifyingKey[recG1, recG2, recGT](inner)
		shape.Proofs[i] = stdgroth16.PlaceholderProof[recG1, recG2](inner)
		shape.Public[i] = stdgroth16.PlaceholderWitness[recField](inner)
	}
	var (
		once   sync.Once
		pk     gnarkgroth16.ProvingKey
		vk     gnarkgroth16.VerifyingKey
		keyErr error
	)
	return &Circuit{
		Name:  sized(Recursion, "proofs", n),
		Shape: shape,
		Assign: func(rng *rand.Rand) (frontend.Circuit, error) {
			once.Do(func() { pk, vk, keyErr = gnarkgroth16.Setup(inner) })
			if keyErr != nil {
				return nil, fmt.Errorf("stdcircuits: %s: inner setup: %w", Recursion, keyErr)
			}
			a := &recursionCircuit{
				VK:     make([]stdgroth16.VerifyingKey[recG1, recG2, recGT], n),
				Proofs: make([]stdgroth16.Proof[recG1, recG2], n),
				Public: make([]stdgroth16.Witness[recField], n),
			}
			for i := range n {
				if err := innerProof(inner, pk, vk, rng, a, i); err != nil {
					return nil, fmt.Errorf("stdcircuits: %s: inner proof %d: %w", Recursion, i, err)
				}
			}
			return a, nil
		},
	}, nil
}

// innerProof proves mimcPreimage for a preimage from rng and sets a's
// entries i to the key, proof and public input.
func innerProof(inner constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey, vk gnarkgroth16.VerifyingKey, rng *rand.Rand, a *recursionCircuit, i int) error {
	var x fr.Element
	x.SetBigInt(new(big.Int).SetBytes(randBytes(rng, 48)))
	b := x.Bytes()
	h := bls12377mimc.NewMiMC()
	if _, err := h.Write(b[:]); err != nil {
		return err
	}
	w, err := frontend.NewWitness(&mimcPreimage{X: x.String(), H: new(big.Int).SetBytes(h.Sum(nil))}, ecc.BLS12_377.ScalarField())
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
	if a.VK[i], err = stdgroth16.ValueOfVerifyingKey[recG1, recG2, recGT](vk); err != nil {
		return err
	}
	if a.Proofs[i], err = stdgroth16.ValueOfProof[recG1, recG2](proof); err != nil {
		return err
	}
	a.Public[i], err = stdgroth16.ValueOfWitness[recField](pub)
	return err
}
