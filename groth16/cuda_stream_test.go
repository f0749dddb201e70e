//go:build cuda

package groth16_test

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/backend/cuda"
	"github.com/g16prover/g16/groth16"
	"github.com/g16prover/g16/internal/synth"
	"github.com/g16prover/g16/pool"
)

// TestCUDAStreamedKey: a synthetic 2^16 circuit with a random key on a GPU
// limited to 9/10 of the key: Prove streams the bases and gives the bytes
// of the CPU backend and of an unlimited GPU, for one proof and a batch.
func TestCUDAStreamedKey(t *testing.T) {
	ccs, shape, err := synth.Compile(synth.Mix, 1<<16)
	if err != nil {
		t.Fatal(err)
	}
	pk, err := synth.RandomKey(ccs)
	if err != nil {
		t.Fatal(err)
	}
	w, err := synth.Witness(shape, 11)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{name: "synth-2^16", ccs: ccs, pk: pk, witness: w}
	key, set := memoryOf(t, f)
	seed := rand.Uint64()
	t.Logf("seed %d; key %d bytes, buffers %d", seed, key, set)
	cpuProof, err := groth16.Prove(ccs, pk, w, groth16.WithBackend(cpu.MustNew()), groth16.WithRandomness(seeded(seed)))
	if err != nil {
		t.Fatal(err)
	}
	free := newGPU(t)
	freeProof, err := groth16.Prove(ccs, pk, w, groth16.WithBackend(free), groth16.WithRandomness(seeded(seed)))
	if err != nil {
		t.Fatal(err)
	}
	limit := key * 9 / 10
	gpu := newGPU(t, cuda.WithMemoryLimit(limit))
	gpu.PeakMemory(true)
	var plan string
	proof, err := groth16.Prove(ccs, pk, w, groth16.WithBackend(gpu), groth16.WithRandomness(seeded(seed)),
		groth16.WithPhaseTimes(func(_ int, pt groth16.PhaseTimes) {
			plan = pt.Plan
			t.Logf("streamed: H %v, MSMs %v (A %v, B1 %v, B2 %v, K %v, Z %v)", pt.H, pt.MSM, pt.MSMA, pt.MSMB1, pt.MSMB2, pt.MSMK, pt.MSMZ)
		}))
	if err != nil {
		t.Fatalf("Prove under a limit of %d bytes: %v", limit, err)
	}
	if !strings.HasPrefix(plan, "key streamed") {
		t.Errorf("plan %q; want the key streamed", plan)
	}
	got := proofBytes(t, proof)
	if !bytes.Equal(got, proofBytes(t, cpuProof)) || !bytes.Equal(got, proofBytes(t, freeProof)) {
		t.Fatal("the streamed GPU proof differs from the CPU backend's or the unlimited GPU's")
	}
	t.Logf("%s; device peak in use %d bytes, limit %d, key %d", plan, gpu.PeakMemory(false), limit, key)

	tr := pool.NewTrace()
	proofs, err := groth16.ProveBatch(context.Background(), ccs, pk, same(f, 3), groth16.WithBackends(gpu),
		groth16.WithBatchRandomness(func(int) io.Reader { return seeded(seed) }), groth16.WithTrace(tr))
	if err != nil {
		t.Fatalf("ProveBatch under the limit: %v", err)
	}
	for i, p := range proofs {
		if !bytes.Equal(proofBytes(t, p), got) {
			t.Errorf("batch partition %d differs from Prove's", i)
		}
	}
	t.Logf("batch:\n%s", tr.Summary())
}
