//go:build !cuda

package cuda

// The methods of urgent.go, gather.go and copy.go in the build without the
// cuda tag, each returning ErrNotBuilt.

import "github.com/g16prover/g16/backend"

var _ backend.UrgentQueuer = (*Backend)(nil)

// NewUrgentQueue returns ErrNotBuilt.
func (b *Backend) NewUrgentQueue() (backend.Queue, error) { return nil, ErrNotBuilt }

var _ backend.Gatherer = (*Backend)(nil)

// Gather returns ErrNotBuilt.
func (b *Backend) Gather(backend.Queue, backend.Buffer, backend.Buffer, backend.Buffer, int) error {
	return ErrNotBuilt
}

var _ backend.Copier = (*Backend)(nil)

// Copy returns ErrNotBuilt.
func (b *Backend) Copy(backend.Queue, backend.Buffer, int64, backend.Buffer, int64, int64) error {
	return ErrNotBuilt
}
