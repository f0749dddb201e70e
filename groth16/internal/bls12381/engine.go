package bls12381

import (
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/constraint"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/groth16/internal/core"
)

// Engine is this curve's prover for package groth16.
var Engine = core.Engine{
	Owns: Owns,
	NewProver: func(ccs constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey, cfg *core.ProverConfig) (core.Prover, error) {
		return NewProver(ccs, pk, cfg)
	},
	NewDeviceKey: func(dev backend.Backend, pk gnarkgroth16.ProvingKey) (core.DeviceKey, error) {
		return NewDeviceKey(dev, pk)
	},
	ReleasePrepared: ReleasePrepared,
}
