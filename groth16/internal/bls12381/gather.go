package bls12381

import (
	"fmt"
	"math"
	"sync"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16/bls12-381"

	"github.com/g16prover/g16/backend"
)

// The wire MSMs' values built on the device. On a device that gathers
// (backend.Gatherer), W goes up once and the values each wire MSM reads
// are picked from it there by an index list (uploaded with the partition:
// 4 bytes a value instead of 32), so the host neither filters nor uploads
// a copy of W for each MSM: K's values (the private wires but the
// committed ones) always, and A's and B's (the wires whose point is not at
// infinity) when the key leaves some out (layout.gatherW; when A and B
// read every wire, the buffer of A's values holds W itself).

// gathersK reports whether a partition with pk's key resident on dev, the
// device itself, gathers its wire MSMs' values on dev.
func gathersK(dev backend.Backend, pk *gnarkgroth16.ProvingKey) bool {
	_, ok := dev.(backend.Gatherer)
	return ok && len(pk.G1.K) > 0 && len(pk.InfinityA) <= math.MaxUint32
}

// wireIndex is an index list in W, in order. Made on first use, then
// shared by the prover's partitions.
type wireIndex struct {
	once sync.Once
	idx  []uint32
}

// of returns the list, the indices from first on of the len(skip) wires
// that skip leaves in, made by the first call.
func (w *wireIndex) of(first int, skip []bool, want int) []uint32 {
	w.once.Do(func() {
		idx := make([]uint32, 0, want)
		for j, s := range skip {
			if !s {
				idx = append(idx, uint32(first+j))
			}
		}
		w.idx = idx
	})
	return w.idx
}

// The prover's index lists: K's (the wires from nbPublic on that kRemove
// keeps), A's and B's (the wires whose point is not at infinity).
func (p *prover) kIndex() []uint32 { return p.kIdx.of(p.nbPublic, p.kRemove, len(p.pk.G1.K)) }
func (p *prover) aIndex() []uint32 { return p.aIdx.of(0, p.pk.InfinityA, len(p.pk.G1.A)) }
func (p *prover) bIndex() []uint32 { return p.bIdx.of(0, p.pk.InfinityB, len(p.pk.G1.B)) }

// gatherWires fills bufs[dst] with the wire values of index list idx (its
// MSM's points, want of them) from W in bufs[lay.wiresFrom()] (uploaded
// before, on q), the list uploaded to bufs[at], on g; ordered on q.
func (t *partition) gatherWires(g backend.Gatherer, dev backend.Backend, q backend.Queue, bufs []backend.Buffer, lay layout, dst, at int, idx []uint32, want int) error {
	if len(idx) != want {
		return fmt.Errorf("groth16: internal error: %d %s entries, %d points", len(idx), bufferNames[at], want)
	}
	if want == 0 {
		return nil
	}
	// The list outlives the buffer (the prover holds it) and nothing
	// writes it.
	if err := backend.UploadReadOnly(dev, q, bufs[at], 0, backend.AsBytes(idx)); err != nil {
		return err
	}
	return g.Gather(q, proverCurve, bufs[dst], bufs[lay.wiresFrom()], bufs[at], len(idx))
}
