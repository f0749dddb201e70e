package groth16_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/g16prover/g16/groth16"
	"github.com/g16prover/g16/pool"
)

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// TestWithVerify: a good proof passes gnark's verifier and reports the
// check's time; with the verifying key of another circuit, Prove and every
// partition of a batch fail with ErrVerify and return no proof.
func TestWithVerify(t *testing.T) {
	f := fixtureNamed(t, "rangecheck-bsb22")
	wrong := fixtureNamed(t, "mulchain")
	var verifyTime groth16.PhaseTimes
	proof, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithVerify(f.vk),
		groth16.WithPhaseTimes(func(_ int, pt groth16.PhaseTimes) { verifyTime = pt }))
	if err != nil || proof == nil {
		t.Fatalf("a good proof: %v, %v", proof, err)
	}
	if verifyTime.Verify <= 0 {
		t.Fatalf("PhaseTimes.Verify = %v", verifyTime.Verify)
	}
	proof, err = groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithVerify(wrong.vk))
	if proof != nil || !errors.Is(err, groth16.ErrVerify) {
		t.Fatalf("wrong key: want no proof and ErrVerify, got %v, %v", proof, err)
	}
	t.Logf("wrong key: %v", err)
	// A single proof has no partition to name.
	if msg := err.Error(); !strings.HasPrefix(msg, "groth16: "+groth16.ErrVerify.Error()) || strings.Contains(msg, "partition") {
		t.Errorf("wrong key: Prove's error %q, want it to open with %q and name no partition", msg, "groth16: "+groth16.ErrVerify.Error())
	}

	ctx, cancel := context.WithTimeout(context.Background(), batchDeadline)
	defer cancel()
	proofs, err := groth16.ProveBatch(ctx, f.ccs, f.pk, same(f, 2), groth16.WithVerify(f.vk))
	if err != nil || proofs[0] == nil || proofs[1] == nil {
		t.Fatalf("good batch: %v", err)
	}
	proofs, err = groth16.ProveBatch(ctx, f.ccs, f.pk, same(f, 2), groth16.WithVerify(wrong.vk))
	var errs pool.Errors
	if !errors.As(err, &errs) || len(errs) != 2 || !errors.Is(err, groth16.ErrVerify) {
		t.Fatalf("batch with the wrong key: want two partitions failing ErrVerify, got %v", err)
	}
	for i, p := range proofs {
		if p != nil {
			t.Errorf("partition %d: a rejected proof was returned", i)
		}
	}
	for _, je := range errs {
		if want := fmt.Sprintf("pool: partition %d", je.Job); !strings.HasPrefix(je.Error(), want) || strings.Count(je.Error(), "partition") != 1 {
			t.Errorf("batch with the wrong key: partition %d's error %q, want it to open with %q and name the partition once", je.Job, je.Error(), want)
		}
		if want := "groth16: " + groth16.ErrVerify.Error(); !strings.HasPrefix(je.Err.Error(), want) {
			t.Errorf("batch with the wrong key: partition %d's error %q, want it to open with %q", je.Job, je.Err, want)
		}
	}
}
