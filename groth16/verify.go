package groth16

import (
	"errors"
	"time"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	groth16bls "github.com/consensys/gnark/backend/groth16/bls12-381"
)

// ErrVerify is matched (errors.Is) by the error of a proof that WithVerify's
// check rejected.
var ErrVerify = errors.New("proof rejected by gnark's verifier")

// WithVerify checks each proof with gnark's groth16.Verify against vk and
// the witness's public part before returning it; a proof that fails is not
// returned, and the call (or the partition, in a batch) fails with an error
// matching ErrVerify. The check's time is PhaseTimes.Verify. vk must be the
// BLS12-381 verifying key of the proving key's Setup. For Prove and
// ProveBatch.
func WithVerify(vk gnarkgroth16.VerifyingKey) Option {
	return option("WithVerify", atProve|atBatch, func(c *config) error {
		if isNil(vk) {
			return optErr("WithVerify", "nil verifying key")
		}
		if _, ok := vk.(*groth16bls.VerifyingKey); !ok {
			return optErr("WithVerify", "verifying key is a %T, not a Groth16 BLS12-381 key", vk)
		}
		c.verify = vk
		return nil
	})
}

// check verifies proof when the call asked for it (WithVerify).
func (pr *Prover) check(cfg *callConfig, t *partition, proof *groth16bls.Proof) error {
	if cfg.verify == nil {
		return nil
	}
	start := time.Now()
	defer func() { t.times.Verify = time.Since(start) }()
	pub, err := t.witness.Public()
	if err != nil {
		return t.errorf("public witness for verification: %w", err)
	}
	if err := gnarkgroth16.Verify(proof, cfg.verify, pub); err != nil {
		return t.errorf("%w: %w", ErrVerify, err)
	}
	return nil
}
