package bls12381

import (
	"fmt"
	"math"
	"sync"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16/bls12-381"

	"github.com/g16prover/g16/backend"
)

// The K MSM's wire values built on the device. When A and B read every
// wire (the key has no point at infinity in either), the buffer of A's
// wire values holds W itself, and on a device that gathers
// (backend.Gatherer) K's values, the private wires but the committed ones,
// are picked from it there by an index list (uploaded with the partition:
// 4 bytes a value instead of 32), so the host neither filters nor uploads
// a copy of W for K.

// gathersK reports whether a partition with pk's key resident on dev, the
// device itself, gathers K's wire values on dev.
func gathersK(dev backend.Backend, pk *gnarkgroth16.ProvingKey) bool {
	_, ok := dev.(backend.Gatherer)
	return ok && pk.NbInfinityA == 0 && pk.NbInfinityB == 0 && len(pk.G1.K) > 0 && len(pk.InfinityA) <= math.MaxUint32
}

// kIndexes are the indices in W of K's wire values, in order: the wires
// from nbPublic on that kRemove keeps. Made on first use, then shared.
type kIndexes struct {
	once sync.Once
	idx  []uint32
}

// kIndex returns the prover's K index list.
func (p *prover) kIndex() []uint32 {
	p.kIdx.once.Do(func() {
		idx := make([]uint32, 0, len(p.pk.G1.K))
		for j, skip := range p.kRemove {
			if !skip {
				idx = append(idx, uint32(p.nbPublic+j))
			}
		}
		p.kIdx.idx = idx
	})
	return p.kIdx.idx
}

// gatherK fills bufs[bufWK] with K's wire values from W in bufs[bufWA]
// (uploaded before, on q) through the index list, uploaded to
// bufs[bufIdx], on g; ordered on q.
func (t *partition) gatherK(g backend.Gatherer, dev backend.Backend, q backend.Queue, bufs []backend.Buffer) error {
	idx := t.p.kIndex()
	if len(idx) != len(t.p.pk.G1.K) {
		return fmt.Errorf("groth16: internal error: %d K indices, %d K points", len(idx), len(t.p.pk.G1.K))
	}
	// The list outlives the buffer (the prover holds it) and nothing
	// writes it.
	if err := backend.UploadReadOnly(dev, q, bufs[bufIdx], 0, backend.AsBytes(idx)); err != nil {
		return err
	}
	return g.Gather(q, proverCurve, bufs[bufWK], bufs[bufWA], bufs[bufIdx], len(idx))
}
