package service

import (
	"context"
	"log/slog"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/groth16"
)

// Prover proves batches of witnesses of one circuit on a worker's
// devices; *groth16.Prover is one. A worker keeps one per circuit for as
// long as it runs, so the devices and the resident key serve every batch.
type Prover interface {
	// ProveBatch is groth16.Prover's: proofs[i] is nil for a failed
	// witness and the error names each failure (a pool.Errors). The worker
	// passes WithBatchRandomness, WithPhaseTimes and, when the circuit has
	// a verifying key, WithVerify.
	ProveBatch(ctx context.Context, witnesses []witness.Witness, opts ...groth16.Option) ([]gnarkgroth16.Proof, error)
	// Close releases what the prover holds on its devices.
	Close() error
}

// ProverFactory makes the prover of one circuit on the given devices.
type ProverFactory func(ccs constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey, devices []backend.Backend, log *slog.Logger) (Prover, error)

// NewProver is the default ProverFactory: a groth16.Prover over the
// worker's devices.
func NewProver(ccs constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey, devices []backend.Backend, log *slog.Logger) (Prover, error) {
	return groth16.NewProver(ccs, pk, groth16.WithBackends(devices...), groth16.WithLogger(log))
}
