//go:build !cuda

package cuda

import "github.com/g16prover/g16/backend"

var _ backend.UrgentQueuer = (*Backend)(nil)

// NewUrgentQueue returns ErrNotBuilt.
func (b *Backend) NewUrgentQueue() (backend.Queue, error) { return nil, ErrNotBuilt }
