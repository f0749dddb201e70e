package main

import (
	"fmt"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"

	"github.com/g16prover/g16/cmd/g16/internal/bls12377"
	"github.com/g16prover/g16/cmd/g16/internal/bls12381"
	"github.com/g16prover/g16/cmd/g16/internal/bn254"
	"github.com/g16prover/g16/cmd/g16/internal/bw6761"
	g16curve "github.com/g16prover/g16/curve"
)

// gnarkTools is what bench does with one curve's gnark types: package
// internal/<curve>, written by internal/generator from internal/bls12381.
type gnarkTools struct {
	solve    func(constraint.ConstraintSystem, gnarkgroth16.ProvingKey, witness.Witness, bool) (time.Duration, error)
	keyBytes func(gnarkgroth16.ProvingKey) int64
}

var gnarkToolsOf = map[ecc.ID]gnarkTools{
	ecc.BLS12_381: {bls12381.GnarkSolve, bls12381.KeyHostBytes},
	ecc.BN254:     {bn254.GnarkSolve, bn254.KeyHostBytes},
	ecc.BLS12_377: {bls12377.GnarkSolve, bls12377.KeyHostBytes},
	ecc.BW6_761:   {bw6761.GnarkSolve, bw6761.KeyHostBytes},
}

// gnarkSolve times gnark's own R1CS solver on w, as gnark's Prove calls it
// (see internal/bls12381's GnarkSolve), on the key's curve.
func gnarkSolve(ccs constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey, w witness.Witness, commit bool) (time.Duration, error) {
	t, ok := gnarkToolsOf[pk.CurveID()]
	if !ok {
		return 0, fmt.Errorf("gnark solve: no solver timing for %s", g16curve.Name(pk.CurveID()))
	}
	return t.solve(ccs, pk, w, commit)
}

// keyHostBytes is what the proving key's bases take in host memory, in
// gnark's affine form; 0 for a curve bench does not size.
func keyHostBytes(pk gnarkgroth16.ProvingKey) int64 {
	t, ok := gnarkToolsOf[pk.CurveID()]
	if !ok {
		return 0
	}
	return t.keyBytes(pk)
}
