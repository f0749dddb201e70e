package testvectors

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/logger"
	_ "github.com/consensys/gnark/std/rangecheck" // registers the hints the range-sum circuit's solver needs

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
	"github.com/g16prover/g16/groth16"
)

func proofChecks(vecs []ProofVector) []Check {
	var checks []Check
	for i := range vecs {
		v := &vecs[i]
		checks = append(checks, Check{Group: GroupProof, Name: curve.Name(v.Curve) + "/" + v.Name, Curve: v.Curve, run: func(b backend.Backend) error {
			return checkProof(b, v)
		}})
	}
	return checks
}

// checkProof proves v's witness with g16's prover on b, reading the
// prover's randomness from v's seeded stream, and requires gnark's bytes
// and gnark's verifier's approval.
func checkProof(b backend.Backend, v *ProofVector) error {
	ccs := gnarkgroth16.NewCS(v.Curve)
	if _, err := ccs.ReadFrom(bytes.NewReader(v.R1CS)); err != nil {
		return fmt.Errorf("reading the R1CS: %w", err)
	}
	pk := gnarkgroth16.NewProvingKey(v.Curve)
	if _, err := pk.UnsafeReadFrom(bytes.NewReader(v.PK)); err != nil {
		return fmt.Errorf("reading the proving key: %w", err)
	}
	vk := gnarkgroth16.NewVerifyingKey(v.Curve)
	if _, err := vk.ReadFrom(bytes.NewReader(v.VK)); err != nil {
		return fmt.Errorf("reading the verifying key: %w", err)
	}
	w, err := witness.New(v.Curve.ScalarField())
	if err != nil {
		return err
	}
	if err := w.UnmarshalBinary(v.Witness); err != nil {
		return fmt.Errorf("reading the witness: %w", err)
	}
	pub, err := w.Public()
	if err != nil {
		return err
	}

	proof, err := groth16.Prove(ccs, pk, w, groth16.WithBackend(b), groth16.WithRandomness(rand.NewChaCha8(v.Seed)))
	if err != nil {
		return fmt.Errorf("groth16.Prove: %w", err)
	}
	var got bytes.Buffer
	if _, err := proof.WriteTo(&got); err != nil {
		return fmt.Errorf("serializing the proof: %w", err)
	}
	verr := quietly(func() error { return gnarkgroth16.Verify(proof, vk, pub) })
	if !bytes.Equal(got.Bytes(), v.Proof) {
		i := 0
		for i < min(got.Len(), len(v.Proof)) && got.Bytes()[i] == v.Proof[i] {
			i++
		}
		verdict := "gnark's Verify accepts it"
		if verr != nil {
			verdict = fmt.Sprintf("gnark's Verify rejects it: %v", verr)
		}
		return fmt.Errorf("proof differs from gnark's from byte %d (%d bytes, want %d); %s", i, got.Len(), len(v.Proof), verdict)
	}
	if verr != nil {
		return fmt.Errorf("proof matches gnark's bytes, but gnark's Verify rejects it: %w", verr)
	}
	return nil
}

// quietly runs f with gnark's logger off (Verify logs at debug level).
func quietly(f func() error) error {
	saved := logger.Logger()
	logger.Disable()
	defer logger.Set(saved)
	return f()
}
