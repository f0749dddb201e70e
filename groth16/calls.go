package groth16

import (
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"

	"github.com/g16prover/g16/groth16/internal/core"
	"github.com/g16prover/g16/pool"
)

// WithVerify checks each proof with gnark's groth16.Verify against vk and
// the witness's public part before returning it; a proof that fails is not
// returned, and the call (or the partition, in a batch) fails with an error
// matching ErrVerify. The check's time is PhaseTimes.Verify. vk must be the
// verifying key of the proving key's Setup, over the same curve. For Prove
// and ProveBatch.
func WithVerify(vk gnarkgroth16.VerifyingKey) Option {
	return option("WithVerify", atProve|atBatch, func(c *config) error {
		if core.IsNil(vk) {
			return optErr("WithVerify", "nil verifying key")
		}
		c.Verify = vk
		return nil
	})
}

// WithSolvers sets how many partitions of a batch are solved on the host
// at once, whatever the number of device workers (WithWorkersPerDevice).
// The default adapts while the batch runs: enough concurrent solves that
// each device finds a solved partition whenever it is free, judged from
// the measured solve and device times, up to a quarter of the host's CPUs
// (at least 2) and to what
// the host's available memory holds (see pool.WithSolvers). For
// ProveBatch.
func WithSolvers(n int) Option {
	return option("WithSolvers", atBatch, func(c *config) error {
		if n < 1 {
			return optErr("WithSolvers", "%d: need at least one solver", n)
		}
		c.PoolOpts = append(c.PoolOpts, pool.WithSolvers(n))
		return nil
	})
}
