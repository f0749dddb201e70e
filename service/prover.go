package service

import (
	"context"
	"io"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/groth16"
)

// Prover proves batches of witnesses of one circuit on a worker's
// devices. A worker keeps one per circuit for as long as it runs.
type Prover interface {
	// ProveBatch proves witnesses[i] with the randomness randFor(i), as
	// groth16.ProveBatch does: proofs[i] is nil for a failed witness and
	// the error names each failure (a pool.Errors); times, if not nil, is
	// called with each proof's phase times.
	ProveBatch(ctx context.Context, witnesses []witness.Witness, randFor func(i int) io.Reader, times func(i int, t groth16.PhaseTimes)) ([]gnarkgroth16.Proof, error)
	// Close releases what the prover holds on its devices.
	Close() error
}

// ProverFactory makes the prover of one circuit on the given devices.
type ProverFactory func(ccs constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey, devices []backend.Backend) (Prover, error)

// BatchProver is the default ProverFactory: groth16.ProveBatch over the
// worker's devices, its scheduler pipelining solving, staging and device
// work across the batch.
func BatchProver(ccs constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey, devices []backend.Backend) (Prover, error) {
	// ProveBatch with no witnesses runs groth16's checks of the circuit
	// and key, so that a bad pair fails here rather than per job.
	if _, err := groth16.ProveBatch(context.Background(), ccs, pk, nil, groth16.WithBackends(devices...)); err != nil {
		return nil, err
	}
	return &batchProver{ccs: ccs, pk: pk, devices: devices}, nil
}

type batchProver struct {
	ccs     constraint.ConstraintSystem
	pk      gnarkgroth16.ProvingKey
	devices []backend.Backend
}

func (p *batchProver) ProveBatch(ctx context.Context, ws []witness.Witness, randFor func(int) io.Reader, times func(int, groth16.PhaseTimes)) ([]gnarkgroth16.Proof, error) {
	opts := []groth16.Option{groth16.WithBackends(p.devices...), groth16.WithBatchRandomness(randFor)}
	if times != nil {
		opts = append(opts, groth16.WithPhaseTimes(times))
	}
	return groth16.ProveBatch(ctx, p.ccs, p.pk, ws, opts...)
}

func (p *batchProver) Close() error { return nil }
