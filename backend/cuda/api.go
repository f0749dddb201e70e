package cuda

import (
	"errors"

	"github.com/g16prover/g16/backend"
)

// What this file declares exists in both builds, with and without the cuda
// tag; cuda.go and stub.go implement the rest of the same API.

// ErrNotBuilt is what every entry point returns in a build without the cuda
// tag (errors.Is matches it). A cuda build never returns it.
var ErrNotBuilt = errors.New("cuda: backend not built: build with -tags cuda after installing the kernel library (`go run github.com/g16prover/g16/cmd/g16-cuda-install`, or `make cuda` in the repository)")

// MaxLogN is the largest transform size, 2^MaxLogN, the NTT kernels take
// (G16_NTT_MAX_LOG of kernels/ntt.h).
const MaxLogN = 30

// Status codes of kernels/g16cuda.h, as Error.Code holds them.
const (
	codeOK       = 0
	codeOOM      = 1 // out of device memory, or over WithMemoryLimit
	codeCUDA     = 2 // any other CUDA error
	codeInvalid  = 3 // a bad argument
	codeInternal = 4
	codeLost     = 5 // a sticky CUDA error: the context is unusable until the GPU is reset
)

// Error is an error reported by the CUDA side. Its message names the failing
// call, where it was made, and the device. Code is the status code of
// kernels/g16cuda.h: 1 out of memory (or over WithMemoryLimit), 2 any other
// CUDA error, 3 a bad argument, 4 an internal error, 5 a sticky CUDA error
// (an illegal address, a launch failure) that lost the device. Errors with
// code 1 match backend.ErrOutOfMemory, with code 5 backend.ErrDeviceLost.
type Error struct {
	Code int
	Msg  string
}

// Error returns the message.
func (e *Error) Error() string { return e.Msg }

// Is matches backend.ErrOutOfMemory and backend.ErrDeviceLost by code.
func (e *Error) Is(target error) bool {
	switch target {
	case backend.ErrOutOfMemory:
		return e.Code == codeOOM
	case backend.ErrDeviceLost:
		return e.Code == codeLost
	}
	return false
}
