// Package circuit is the recursion example's two circuits on gnark's
// two-chain: Inner, over BLS12-377, proves the knowledge of a MiMC
// preimage; Outer, over BW6-761, verifies Groth16 proofs of Inner with
// gnark's std/recursion/groth16, whose pairing on BLS12-377 is native
// arithmetic in BW6-761's scalar field (BLS12-377's base field).
package circuit

import (
	"fmt"
	"math/big"

	"github.com/consensys/gnark-crypto/ecc/bls12-377/fr"
	bls12377mimc "github.com/consensys/gnark-crypto/ecc/bls12-377/fr/mimc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/std/algebra/native/sw_bls12377"
	"github.com/consensys/gnark/std/hash/mimc"
	stdgroth16 "github.com/consensys/gnark/std/recursion/groth16"
)

// Inner: H = MiMC(X) over BLS12-377's scalar field, X secret (about 300
// constraints).
type Inner struct {
	X frontend.Variable
	H frontend.Variable `gnark:",public"`
}

func (c *Inner) Define(api frontend.API) error {
	h, err := mimc.NewMiMC(api)
	if err != nil {
		return err
	}
	h.Write(c.X)
	api.AssertIsEqual(h.Sum(), c.H)
	return nil
}

// InnerAssignment is Inner's assignment for the preimage x: H = MiMC(x)
// computed by gnark-crypto's MiMC over BLS12-377's scalar field.
func InnerAssignment(x fr.Element) (*Inner, error) {
	b := x.Bytes()
	hasher := bls12377mimc.NewMiMC()
	if _, err := hasher.Write(b[:]); err != nil {
		return nil, err
	}
	return &Inner{X: x.String(), H: new(big.Int).SetBytes(hasher.Sum(nil))}, nil
}

// The types of a BLS12-377 proof's elements inside a BW6-761 circuit.
type (
	G1    = sw_bls12377.G1Affine
	G2    = sw_bls12377.G2Affine
	GT    = sw_bls12377.GT
	Field = sw_bls12377.ScalarField
)

// Outer verifies len(Proofs) BLS12-377 Groth16 proofs of Inner, proof i
// under the key VK[i] for the public input Public[i] (its H). The keys are
// witness values, as in gnark's own example: one outer setup serves every
// inner setup, and the circuit's shape depends only on Inner's.
type Outer struct {
	VK     []stdgroth16.VerifyingKey[G1, G2, GT]
	Proofs []stdgroth16.Proof[G1, G2]
	Public []stdgroth16.Witness[Field] `gnark:",public"`
}

func (c *Outer) Define(api frontend.API) error {
	v, err := stdgroth16.NewVerifier[Field, G1, G2, GT](api)
	if err != nil {
		return fmt.Errorf("new verifier: %w", err)
	}
	for i := range c.Proofs {
		if err := v.AssertProof(c.VK[i], c.Proofs[i], c.Public[i]); err != nil {
			return fmt.Errorf("proof %d: %w", i, err)
		}
	}
	return nil
}

// OuterShape is Outer's shape, to compile, for n proofs of the compiled
// inner circuit.
func OuterShape(inner constraint.ConstraintSystem, n int) *Outer {
	c := &Outer{
		VK:     make([]stdgroth16.VerifyingKey[G1, G2, GT], n),
		Proofs: make([]stdgroth16.Proof[G1, G2], n),
		Public: make([]stdgroth16.Witness[Field], n),
	}
	for i := range n {
		c.VK[i] = stdgroth16.PlaceholderVerifyingKey[G1, G2, GT](inner)
		c.Proofs[i] = stdgroth16.PlaceholderProof[G1, G2](inner)
		c.Public[i] = stdgroth16.PlaceholderWitness[Field](inner)
	}
	return c
}

// Append adds to the assignment c one inner proof to verify: its key, the
// proof and its public witness. The proof must have been made with
// stdgroth16.GetNativeProverOptions (its commitments hashed to the field
// as the circuit does).
func (c *Outer) Append(vk gnarkgroth16.VerifyingKey, proof gnarkgroth16.Proof, public witness.Witness) error {
	v, err := stdgroth16.ValueOfVerifyingKey[G1, G2, GT](vk)
	if err != nil {
		return fmt.Errorf("inner verifying key: %w", err)
	}
	p, err := stdgroth16.ValueOfProof[G1, G2](proof)
	if err != nil {
		return fmt.Errorf("inner proof: %w", err)
	}
	w, err := stdgroth16.ValueOfWitness[Field](public)
	if err != nil {
		return fmt.Errorf("inner public witness: %w", err)
	}
	c.VK, c.Proofs, c.Public = append(c.VK, v), append(c.Proofs, p), append(c.Public, w)
	return nil
}
