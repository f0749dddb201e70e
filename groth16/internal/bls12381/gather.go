package bls12381

import (
	"errors"
	"fmt"
	"math"
	"sync"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16/bls12-381"

	"github.com/g16prover/g16/backend"
)

// The wire MSMs' values built on the device. On a device that gathers
// (backend.Gatherer), W goes up once and the values each wire MSM reads
// are picked from it there by an index list, so the host neither filters
// nor uploads a copy of W for each MSM: K's values (the private wires but
// the committed ones) always, and A's and B's (the wires whose point is
// not at infinity) when the key leaves some out (layout.gatherW; when A
// and B read every wire, the buffer of A's values holds W itself). The
// index lists depend on the key and the circuit only: they stay on the
// device with the resident key (keyIndex), uploaded by its first
// partition. A streamed key's partitions do not gather.

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

// gatherTable is the wire buffers a device may gather, each with its
// index list in the prover and the points of the MSMs that read it.
var gatherTable = []struct {
	dst    int
	index  func(*prover) []uint32
	points func(*gnarkgroth16.ProvingKey) int
}{
	{bufWK, (*prover).kIndex, func(pk *gnarkgroth16.ProvingKey) int { return len(pk.G1.K) }},
	{bufWA, (*prover).aIndex, func(pk *gnarkgroth16.ProvingKey) int { return len(pk.G1.A) }},
	{bufWB, (*prover).bIndex, func(pk *gnarkgroth16.ProvingKey) int { return len(pk.G1.B) }},
}

// keyIndex is the index lists on the device of a resident key, by the
// buffer each fills (layout.gathered): K's, and A's and B's when the
// layout gathers W_A and W_B. An empty list has no buffer.
type keyIndex struct {
	lists [nbBuffers]indexList
	// hostK is K's list as uploaded: a prover given the same key must
	// have the same (A's and B's follow from the key alone).
	hostK []uint32
}

// indexList is one index list on the device: n indices in buf.
type indexList struct {
	buf backend.Buffer
	n   int
}

// indexBytes is the device memory of the index lists that a key of pk
// resident on dev, the device itself, holds beside its bases: 0 when dev
// does not gather.
func indexBytes(dev backend.Backend, pk *gnarkgroth16.ProvingKey) int64 {
	if dev == nil {
		return 0
	}
	lay := newLayout(dev, pk, false)
	var n int64
	for _, g := range gatherTable {
		if lay.gathered(g.dst) {
			n += int64(g.points(pk))
		}
	}
	return n * backend.IndexBytes
}

// bytes is the device memory of the lists (0 for nil: none loaded).
func (ix *keyIndex) bytes() int64 {
	if ix == nil {
		return 0
	}
	var b int64
	for _, l := range ix.lists {
		if l.buf != nil {
			b += l.buf.Bytes()
		}
	}
	return b
}

// free releases the lists' buffers on dev.
func (ix *keyIndex) free(dev backend.Backend, q backend.Queue) error {
	var errs []error
	for _, l := range ix.lists {
		if l.buf != nil {
			errs = append(errs, dev.Free(q, l.buf))
		}
	}
	return errors.Join(errs...)
}

// loadIndex puts p's index lists on the device beside the resident key k,
// through dev (the device or a wrapper of it) on q, unless they are there
// already: once for all of the key's partitions. It does nothing when k's
// partitions do not gather (a streamed key, a device without Gather).
func (k *deviceKey) loadIndex(p *prover, dev backend.Backend, q backend.Queue) error {
	if k.plan.chunk > 0 || k.dev == nil {
		return nil
	}
	lay := newLayout(k.dev, p.pk, false)
	if lay.gather == nil {
		return nil
	}
	kIdx := p.kIndex()
	k.idxMu.Lock()
	defer k.idxMu.Unlock()
	if k.index != nil {
		if !sameList(k.index.hostK, kIdx) {
			return inputErr("WithDeviceKey: the device key's wire lists on %s were made for another circuit (K's wire indices differ)", k.dev)
		}
		return nil
	}
	ix := &keyIndex{hostK: kIdx}
	fail := func(err error) error {
		return errors.Join(fmt.Errorf("groth16: wire index lists on %s: %w", k.dev, err), ix.free(dev, q))
	}
	for _, g := range gatherTable {
		if !lay.gathered(g.dst) {
			continue
		}
		idx := g.index(p)
		if want := g.points(p.pk); len(idx) != want {
			return fail(fmt.Errorf("internal error: %d %s indices, %d points", len(idx), bufferNames[g.dst], want))
		}
		if len(idx) == 0 {
			continue
		}
		buf, err := dev.Alloc(q, int64(len(idx))*backend.IndexBytes)
		if err != nil {
			return fail(err)
		}
		ix.lists[g.dst] = indexList{buf: buf, n: len(idx)}
		// Nothing writes a list once made: a backend on host memory may
		// read it in place (its buffer keeps it reachable).
		if err := backend.UploadReadOnly(dev, q, buf, 0, backend.AsBytes(idx)); err != nil {
			return fail(err)
		}
	}
	if err := q.Wait(); err != nil {
		return fail(err)
	}
	k.index = ix
	return nil
}

// sameList reports whether a and b hold the same indices; the same slice
// is compared in O(1).
func sameList(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// wireIndexes is the key's index lists on its device; nil before a
// partition loaded them (loadIndex).
func (k *deviceKey) wireIndexes() *keyIndex {
	k.idxMu.Lock()
	defer k.idxMu.Unlock()
	return k.index
}

// gatherWires fills bufs[dst] with the wire values that list picks from
// W in bufs[lay.wiresFrom()] (uploaded before, on q), on g; ordered on q.
func (t *partition) gatherWires(g backend.Gatherer, q backend.Queue, bufs []backend.Buffer, lay layout, dst int, list indexList) error {
	if list.n == 0 {
		return nil
	}
	return g.Gather(q, proverCurve, bufs[dst], bufs[lay.wiresFrom()], list.buf, list.n)
}
