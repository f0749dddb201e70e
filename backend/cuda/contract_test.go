//go:build cuda

package cuda_test

import (
	"testing"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cuda"
	"github.com/g16prover/g16/internal/testvectors"
)

// TestContract: GPU 0 rejects every bad call of the Backend contract, as
// the CPU backend does (internal/testvectors TestCPUContract).
func TestContract(t *testing.T) {
	testvectors.RunContract(t, func(t *testing.T) backend.Backend {
		b, err := cuda.New(0)
		if err != nil {
			t.Skipf("cuda.New(0): %v", err)
		}
		t.Cleanup(func() { b.Close() })
		return b
	})
}
