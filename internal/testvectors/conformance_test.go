package testvectors

import (
	"testing"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
)

func newCPU(t *testing.T) backend.Backend {
	b, err := cpu.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// TestCPUConformance: the reference backend passes the whole suite.
func TestCPUConformance(t *testing.T) {
	RunConformance(t, newCPU)
}

// TestCPUContract: the CPU backend rejects every bad call of the contract.
func TestCPUContract(t *testing.T) {
	RunContract(t, newCPU)
}
