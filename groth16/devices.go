package groth16

import (
	"fmt"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/backend/cuda"
)

// defaultDevices is what ProveBatch runs on when no backend is given:
// every GPU CUDA sees (CUDA_VISIBLE_DEVICES applies) in a cuda build that
// finds one, else one CPU backend. The caller closes them.
func defaultDevices() ([]backend.Backend, error) {
	n, err := cuda.DeviceCount()
	if err != nil || n == 0 {
		// No cuda build, no driver or no GPU: the CPU backend.
		return []backend.Backend{cpu.MustNew()}, nil
	}
	gpus, err := cuda.OpenAll(0)
	if err != nil {
		return nil, fmt.Errorf("groth16: %w", err)
	}
	return gpus, nil
}
