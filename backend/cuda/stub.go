//go:build !cuda

package cuda

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
)

// This file is the build without the cuda tag: the API of cuda.go, msm.go
// and ntt.go, each entry point returning ErrNotBuilt.

// Backend is one GPU. In this build none can be opened: New returns
// ErrNotBuilt, and so does every method.
type Backend struct{}

var _ backend.Backend = (*Backend)(nil)

// New opens GPU number device (among those CUDA_VISIBLE_DEVICES shows). In
// this build it returns ErrNotBuilt; the options are still checked.
func New(device int, opts ...Option) (*Backend, error) {
	cfg := defaultConfig()
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	return nil, ErrNotBuilt
}

// DeviceCount returns the number of GPUs CUDA sees; in this build, 0 and
// ErrNotBuilt.
func DeviceCount() (int, error) { return 0, ErrNotBuilt }

// SupportsCurve says whether the kernels compute on the curve c; in this
// build there are none: ErrNotBuilt.
func SupportsCurve(c ecc.ID) error { return ErrNotBuilt }

// String names the backend, "cuda:N"; in this build "cuda:unbuilt".
func (b *Backend) String() string { return "cuda:unbuilt" }

// Description names the GPU, e.g. "NVIDIA H200 (sm_90, 132 SMs)"; in this
// build it is empty.
func (b *Backend) Description() string { return "" }

// LastMSMTiming returns the stage timings of the most recent MSM; in this
// build, zero.
func (b *Backend) LastMSMTiming() MSMTiming { return MSMTiming{} }

// Alloc returns ErrNotBuilt.
func (b *Backend) Alloc(backend.Queue, int64) (backend.Buffer, error) { return nil, ErrNotBuilt }

// AllocDirect returns ErrNotBuilt.
func (b *Backend) AllocDirect(int64) (backend.Buffer, error) { return nil, ErrNotBuilt }

// Free returns ErrNotBuilt.
func (b *Backend) Free(backend.Queue, backend.Buffer) error { return ErrNotBuilt }

// TrimPool returns ErrNotBuilt.
func (b *Backend) TrimPool(int64) error { return ErrNotBuilt }

// Sync returns ErrNotBuilt.
func (b *Backend) Sync() error { return ErrNotBuilt }

// Memory reports zero.
func (b *Backend) Memory() backend.MemStats { return backend.MemStats{} }

// PeakMemory is 0: nothing runs in this build.
func (b *Backend) PeakMemory(reset bool) int64 { return 0 }

// Scratch is 0: nothing runs in this build.
func (b *Backend) Scratch(backend.Kernel, ecc.ID, int) int64 { return 0 }

// Supports returns an error matching backend.ErrUnsupportedCurve and
// ErrNotBuilt.
func (b *Backend) Supports(c ecc.ID) error {
	return fmt.Errorf("cuda: Supports: curve: %s: %w: %w", curve.Name(c), backend.ErrUnsupportedCurve, ErrNotBuilt)
}

// NewQueue returns ErrNotBuilt.
func (b *Backend) NewQueue() (backend.Queue, error) { return nil, ErrNotBuilt }

// Upload returns ErrNotBuilt.
func (b *Backend) Upload(backend.Queue, backend.Buffer, int64, []byte) error { return ErrNotBuilt }

// Download returns ErrNotBuilt.
func (b *Backend) Download(backend.Queue, []byte, backend.Buffer, int64) error { return ErrNotBuilt }

// NTT returns ErrNotBuilt.
func (b *Backend) NTT(backend.Queue, backend.Buffer, backend.NTTSpec) error { return ErrNotBuilt }

// QuotientStep returns ErrNotBuilt.
func (b *Backend) QuotientStep(backend.Queue, ecc.ID, backend.Buffer, backend.Buffer, backend.Buffer, int, []byte) error {
	return ErrNotBuilt
}

// MSMG1 returns ErrNotBuilt.
func (b *Backend) MSMG1(backend.Queue, ecc.ID, []byte, backend.Buffer, int64, backend.Buffer, int) error {
	return ErrNotBuilt
}

// MSMG2 returns ErrNotBuilt.
func (b *Backend) MSMG2(backend.Queue, ecc.ID, []byte, backend.Buffer, int64, backend.Buffer, int) error {
	return ErrNotBuilt
}

// Close returns ErrNotBuilt.
func (b *Backend) Close() error { return ErrNotBuilt }

// PrecomputeBases returns ErrNotBuilt.
func (b *Backend) PrecomputeBases(backend.Queue, ecc.ID, backend.Buffer, int64, int, backend.Kernel, int, int) error {
	return ErrNotBuilt
}

// Tables returns nil.
func (b *Backend) Tables(backend.Buffer) []TableInfo { return nil }

// TableCost returns 0.
func (b *Backend) TableCost(backend.Kernel, ecc.ID, int, int) float64 { return 0 }

// TableScratch returns 0.
func (b *Backend) TableScratch(backend.Kernel, ecc.ID, int, int) int64 { return 0 }
