package bls12381

import (
	"context"
	"crypto/rand"
	"errors"
	"io"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/groth16/internal/core"
)

// The settings package groth16's options make, written directly.

func onDevice(devs ...backend.Backend) *core.ProverConfig {
	return &core.ProverConfig{Devices: devs}
}

func call(set ...func(*core.CallConfig)) *core.CallConfig {
	c := &core.CallConfig{Rand: rand.Reader}
	for _, f := range set {
		f(c)
	}
	return c
}

func withRandomness(r io.Reader) func(*core.CallConfig) {
	return func(c *core.CallConfig) { c.Rand = r }
}

func withPhaseTimes(f func(int, PhaseTimes)) func(*core.CallConfig) {
	return func(c *core.CallConfig) { c.PhaseTimes = f }
}

// proveOnce is package groth16's Prove: a Prover with the prepared solver,
// one proof, closed.
func proveOnce(ccs constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey, w witness.Witness, pcfg *core.ProverConfig, ccfg *core.CallConfig) (gnarkgroth16.Proof, error) {
	pcfg.Prepared = true
	pr, err := NewProver(ccs, pk, pcfg)
	if err != nil {
		return nil, err
	}
	proof, err := pr.Prove(context.Background(), w, ccfg)
	return proof, errors.Join(err, pr.Close())
}

// proveBatchOnce is package groth16's ProveBatch.
func proveBatchOnce(ccs constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey, ws []witness.Witness, pcfg *core.ProverConfig, ccfg *core.CallConfig) ([]gnarkgroth16.Proof, error) {
	pcfg.Prepared = true
	pr, err := NewProver(ccs, pk, pcfg)
	if err != nil {
		return nil, err
	}
	proofs, err := pr.ProveBatch(context.Background(), ws, ccfg)
	return proofs, errors.Join(err, pr.Close())
}
