package bls12381

import (
	"sync"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
	wsolver "github.com/g16prover/g16/solver/bls12381"
)

// vectorList is a batch's free list of solution vectors: a partition's
// Finish hands back its W, a, b and c and the filtered copies of W
// (solution.vectors), and the next partition's solve fills them
// (wsolver.Vectors, filterOutInto) instead of allocating, which spares
// the host fresh pages and the GC the churn of a batch's largest vectors. A
// set is made only when the list is empty, so there are never more sets
// than partitions held their vectors at once (at most the batch's host
// slots); the list goes with the batch. A nil list neither gives nor keeps
// (a single proof).
type vectorList struct {
	// inPlace: a device of the batch may read wire vectors in place
	// (solution.vectors).
	inPlace bool

	mu   sync.Mutex
	free []hostVectors
}

// hostVectors are the vectors of one partition's solution that a batch
// fills again: the solver's, and the wire values filtered for the A, B and
// K MSMs. Any may be nil (allocated by the solve that needs it).
type hostVectors struct {
	solver     wsolver.Vectors
	wA, wB, wK []fr.Element
}

// newVectorList is the list of a batch on devs.
func newVectorList(devs []*proverDevice) *vectorList {
	l := new(vectorList)
	for _, d := range devs {
		if _, ok := d.dev.(backend.ReadOnlyUploader); ok {
			l.inPlace = true
		}
	}
	return l
}

// putSolution hands back sol's vectors (solution.vectors).
func (l *vectorList) putSolution(p *prover, sol *solution) {
	if l != nil {
		l.put(sol.vectors(p, l.inPlace))
	}
}

// get takes a set from the list, or gives none (the solve allocates)
// when it is empty.
func (l *vectorList) get() hostVectors {
	if l == nil {
		return hostVectors{}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.free) == 0 {
		return hostVectors{}
	}
	v := l.free[len(l.free)-1]
	l.free[len(l.free)-1] = hostVectors{}
	l.free = l.free[:len(l.free)-1]
	return v
}

// put hands v back for a later solve; an empty v is dropped.
func (l *vectorList) put(v hostVectors) {
	sv := v.solver
	if l == nil || sv.W == nil && sv.A == nil && sv.B == nil && sv.C == nil && v.wA == nil && v.wB == nil && v.wK == nil {
		return
	}
	l.mu.Lock()
	l.free = append(l.free, v)
	l.mu.Unlock()
}
