//go:build !cuda

package cuda

import (
	"errors"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
)

// ErrNotBuilt is what every entry point returns in a build without the cuda tag.
var ErrNotBuilt = errors.New("cuda: backend not built: build with -tags cuda after `make cuda-toolchain && make cuda`")

// Backend is the CUDA backend; in this build it cannot be created.
type Backend struct{}

var _ backend.Backend = (*Backend)(nil)

// New returns ErrNotBuilt.
func New(device int, opts ...Option) (*Backend, error) { return nil, ErrNotBuilt }

// DeviceCount returns ErrNotBuilt.
func DeviceCount() (int, error) { return 0, ErrNotBuilt }

func (b *Backend) String() string                                     { return "cuda:unbuilt" }
func (b *Backend) Alloc(backend.Queue, int64) (backend.Buffer, error) { return nil, ErrNotBuilt }
func (b *Backend) AllocDirect(int64) (backend.Buffer, error)          { return nil, ErrNotBuilt }
func (b *Backend) Free(backend.Queue, backend.Buffer) error           { return ErrNotBuilt }
func (b *Backend) TrimPool(int64) error                               { return ErrNotBuilt }
func (b *Backend) Sync() error                                        { return ErrNotBuilt }
func (b *Backend) Memory() backend.MemStats                           { return backend.MemStats{} }
func (b *Backend) NewQueue() (backend.Queue, error)                   { return nil, ErrNotBuilt }
func (b *Backend) Upload(backend.Queue, backend.Buffer, int64, []byte) error {
	return ErrNotBuilt
}
func (b *Backend) Download(backend.Queue, []byte, backend.Buffer, int64) error {
	return ErrNotBuilt
}
func (b *Backend) NTT(backend.Queue, backend.Buffer, backend.NTTSpec) error { return ErrNotBuilt }
func (b *Backend) QuotientStep(backend.Queue, backend.Buffer, backend.Buffer, backend.Buffer, int, fr.Element) error {
	return ErrNotBuilt
}
func (b *Backend) MSMG1(backend.Queue, *bls12381.G1Jac, backend.Buffer, int64, backend.Buffer, int) error {
	return ErrNotBuilt
}
func (b *Backend) MSMG2(backend.Queue, *bls12381.G2Jac, backend.Buffer, int64, backend.Buffer, int) error {
	return ErrNotBuilt
}
func (b *Backend) Close() error { return ErrNotBuilt }
