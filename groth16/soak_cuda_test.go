//go:build cuda

package groth16_test

import (
	"testing"

	"github.com/g16prover/g16/backend/cuda"
)

// TestSoakGPU: G16_SOAK proofs on GPU 0 (the GPU bundle: 200), device
// memory flat from the first batch to the last.
func TestSoakGPU(t *testing.T) {
	n := soakProofs(t)
	if c, err := cuda.DeviceCount(); err != nil || c == 0 {
		t.Skipf("no CUDA device (count %d, %v)", c, err)
	}
	dev, err := cuda.New(0)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	runSoak(t, dev, n)
}
