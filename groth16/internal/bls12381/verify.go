package bls12381

import (
	"time"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	groth16bls "github.com/consensys/gnark/backend/groth16/bls12-381"

	g16curve "github.com/g16prover/g16/curve"
	"github.com/g16prover/g16/groth16/internal/core"
)

// check verifies proof when the call asked for it (WithVerify).
func (pr *Prover) check(cfg *core.CallConfig, t *partition, proof *groth16bls.Proof) error {
	if cfg.Verify == nil {
		return nil
	}
	vk, ok := cfg.Verify.(*groth16bls.VerifyingKey)
	if !ok {
		return inputErr("WithVerify: verifying key is a %T for %s, not a Groth16 key over %s", cfg.Verify, g16curve.Name(cfg.Verify.CurveID()), g16curve.Name(proverCurve))
	}
	start := time.Now()
	defer func() { t.times.Verify = time.Since(start) }()
	pub, err := t.witness.Public()
	if err != nil {
		return t.errorf("public witness for verification: %w", err)
	}
	if err := gnarkgroth16.Verify(proof, vk, pub); err != nil {
		return t.errorf("%w: %w", ErrVerify, err)
	}
	return nil
}
