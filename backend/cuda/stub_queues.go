//go:build !cuda

package cuda

// The methods of urgent.go and gather.go in the build without the cuda
// tag, each returning ErrNotBuilt.

import (
	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
)

var _ backend.UrgentQueuer = (*Backend)(nil)

// NewUrgentQueue returns ErrNotBuilt.
func (b *Backend) NewUrgentQueue() (backend.Queue, error) { return nil, ErrNotBuilt }

var _ backend.Gatherer = (*Backend)(nil)

// Gather returns ErrNotBuilt.
func (b *Backend) Gather(backend.Queue, ecc.ID, backend.Buffer, backend.Buffer, backend.Buffer, int) error {
	return ErrNotBuilt
}
