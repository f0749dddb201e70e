package groth16

import (
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
)

// WithProofDone calls f with each proof as soon as it is assembled (and
// checked, under WithVerify), with its index in the batch (0 for Prove):
// a caller can deliver the proofs of a long batch one by one, before
// ProveBatch returns. The proof is the one the call returns at that index.
// f runs on the scheduler's host worker, so it should hand slow work to
// another goroutine; it must be safe for concurrent use under ProveBatch.
// For Prove and ProveBatch.
func WithProofDone(f func(partition int, proof gnarkgroth16.Proof)) Option {
	return option("WithProofDone", atProve|atBatch, func(c *config) error {
		if f == nil {
			return optErr("WithProofDone", "nil function")
		}
		c.ProofDone = f
		return nil
	})
}
