package main

import (
	"errors"

	"github.com/g16prover/g16/backend/cuda"
)

// cudaBuilt reports whether this test binary has the CUDA backend.
func cudaBuilt() bool {
	_, err := cuda.DeviceCount()
	return !errors.Is(err, cuda.ErrNotBuilt)
}
