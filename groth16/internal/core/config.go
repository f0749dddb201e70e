package core

import (
	"context"
	"io"
	"log/slog"

	"github.com/consensys/gnark-crypto/ecc"
	gnarkbackend "github.com/consensys/gnark/backend"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/pool"
)

// ProverConfig is what NewProver fixes for the Prover's lifetime.
type ProverConfig struct {
	Devices    []backend.Backend // nil: the default devices
	DeviceKey  DeviceKey         // WithDeviceKey; nil: none
	ProverOpts []gnarkbackend.ProverOption
	Logger     *slog.Logger
	Prepared   bool        // the package-level Prove and ProveBatch: the solver from the prepared cache
	B2         B2Placement // WithB2Placement
}

// CallConfig is one Prove or ProveBatch call's settings.
type CallConfig struct {
	Rand       io.Reader
	PhaseTimes func(partition int, t PhaseTimes)
	ProofDone  func(partition int, proof gnarkgroth16.Proof)
	Verify     gnarkgroth16.VerifyingKey

	// ProveBatch only.
	RandFor  func(partition int) io.Reader
	PoolOpts []pool.Option
	Budget   int64 // WithMemoryBudget; 0: the pool's default
	RawPool  bool  // WithPoolOptions was given
	Workers  int   // WithWorkersPerDevice; 0: the pool's default
}

// Prover is one curve's prover of one circuit and key (package groth16's
// Prover holds one).
type Prover interface {
	Prove(ctx context.Context, w witness.Witness, cfg *CallConfig) (gnarkgroth16.Proof, error)
	ProveBatch(ctx context.Context, witnesses []witness.Witness, cfg *CallConfig) ([]gnarkgroth16.Proof, error)
	Devices() []backend.Backend
	SolverFallback() string
	Close() error
}

// DeviceKey is one curve's proving key resident on a device (package
// groth16's DeviceKey holds one).
type DeviceKey interface {
	Curve() ecc.ID
	Plan() string
	Bytes() int64
	Backend() backend.Backend
	Closed() bool
	Close() error
}

// Engine is the prover of one curve, as its package (the reference
// groth16/internal/bls12381 and the copies internal/generator writes from
// it) offers it to package groth16.
type Engine struct {
	Owns            func(ccs constraint.ConstraintSystem) bool // ccs is a system over the engine's curve
	NewProver       func(ccs constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey, cfg *ProverConfig) (Prover, error)
	NewDeviceKey    func(dev backend.Backend, pk gnarkgroth16.ProvingKey) (DeviceKey, error)
	ReleasePrepared func()
}
