// Package bls12381 holds what g16 bench does with gnark's BLS12-381 types:
// time gnark's own solver as gnark's Prove runs it, and size a key's bases.
// Every curve's package of this kind is written by internal/generator from
// one reference package.
package bls12381

import (
	"fmt"
	"math/big"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	curve "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr/hash_to_field"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	groth16bls "github.com/consensys/gnark/backend/groth16/bls12-381"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/constraint/solver"
	fcs "github.com/consensys/gnark/frontend/cs"
)

// GnarkSolve times gnark's own R1CS solver on w, as gnark's Prove calls it.
//
// With commit false, the BSB22 commitment hint is stubbed: it answers a
// fixed value at once, with no MSM, so the time is the solving alone. With
// commit true, the hint does what gnark's Prove installs (the Pedersen
// commitment over the committed values, one MSM on one task, then the hash
// to the field), and the proofs of knowledge (the second MSM per
// commitment) follow the solve, as in gnark's Prove: the time covers what
// our solve phase (PhaseTimes.Solve + Commit) covers.
func GnarkSolve(ccs constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey, w witness.Witness, commit bool) (time.Duration, error) {
	key, ok := pk.(*groth16bls.ProvingKey)
	if !ok {
		return 0, fmt.Errorf("gnark solve: proving key is a %T, not BLS12-381's", pk)
	}
	ci, ok := ccs.GetCommitments().(constraint.Groth16Commitments)
	if !ok {
		return 0, fmt.Errorf("gnark solve: the circuit's commitments are not Groth16's")
	}
	values := make([][]fr.Element, len(ci))
	hint := func(_ *big.Int, in []*big.Int, out []*big.Int) error {
		// A fixed value far from 0 and 1: the rest of the solve takes it as
		// the commitment's hash.
		out[0].SetString("31415926535897932384626433832795028841971693993751058209749445923", 10)
		return nil
	}
	if commit {
		h := hash_to_field.New([]byte(constraint.CommitmentDst))
		hint = func(_ *big.Int, in []*big.Int, out []*big.Int) error {
			i := int(in[0].Int64())
			in = in[1:]
			hashed := in[:len(ci[i].PublicAndCommitmentCommitted)]
			committed := in[len(hashed):]
			values[i] = make([]fr.Element, len(committed))
			for j := range committed {
				values[i][j].SetBigInt(committed[j])
			}
			c, err := key.CommitmentKeys[i].Commit(values[i])
			if err != nil {
				return err
			}
			h.Write(constraint.SerializeCommitment(c.Marshal(), hashed, (fr.Bits-1)/8+1))
			digest := h.Sum(nil)
			h.Reset()
			var res fr.Element
			res.SetBytes(digest[:min(fr.Bytes, h.Size())])
			res.BigInt(out[0])
			return nil
		}
	}
	start := time.Now()
	if _, err := ccs.Solve(w, solver.OverrideHint(solver.GetHintID(fcs.Bsb22CommitmentComputePlaceholder), hint)); err != nil {
		return 0, fmt.Errorf("gnark solve: %w", err)
	}
	if commit {
		poks := make([]curve.G1Affine, len(ci))
		for i := range key.CommitmentKeys {
			var err error
			if poks[i], err = key.CommitmentKeys[i].ProveKnowledge(values[i]); err != nil {
				return 0, fmt.Errorf("gnark solve: proof of knowledge: %w", err)
			}
		}
		var challenge fr.Element // gnark hashes the commitments to it: negligible beside the MSMs
		challenge.SetUint64(3)
		var folded curve.G1Affine
		if _, err := folded.Fold(poks, challenge, ecc.MultiExpConfig{NbTasks: 1}); err != nil {
			return 0, fmt.Errorf("gnark solve: folding: %w", err)
		}
	}
	return time.Since(start), nil
}

// KeyHostBytes is what the proving key's bases take in host memory, in
// gnark's affine form: G1 A, B, K, Z and the commitment bases, and G2 B. It
// is 0 for a key of another curve.
func KeyHostBytes(pk gnarkgroth16.ProvingKey) int64 {
	k, ok := pk.(*groth16bls.ProvingKey)
	if !ok {
		return 0
	}
	g1 := int64(len(k.G1.A) + len(k.G1.B) + len(k.G1.K) + len(k.G1.Z))
	for _, ck := range k.CommitmentKeys {
		g1 += int64(len(ck.Basis) + len(ck.BasisExpSigma))
	}
	return g1*curve.SizeOfG1AffineUncompressed + int64(len(k.G2.B))*curve.SizeOfG2AffineUncompressed
}
