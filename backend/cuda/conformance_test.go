//go:build cuda

package cuda_test

import (
	"testing"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cuda"
	"github.com/g16prover/g16/internal/testvectors"
)

// TestConformance runs the shared vectors and the random cross-checks
// against the CPU backend on GPU 0.
func TestConformance(t *testing.T) {
	testvectors.RunConformance(t, func(t *testing.T) backend.Backend {
		b, err := cuda.New(0)
		if err != nil {
			t.Fatalf("cuda.New(0): %v", err)
		}
		t.Cleanup(func() { b.Close() })
		return b
	})
}
