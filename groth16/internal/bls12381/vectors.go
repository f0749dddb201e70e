package bls12381

import (
	"sync"

	"github.com/g16prover/g16/backend"
	wsolver "github.com/g16prover/g16/solver/bls12381"
)

// vectorList is a batch's free list of solution vectors: a partition's
// Finish hands back its W, a, b and c, and the next partition's solve
// fills them (wsolver.Vectors) instead of allocating, which spares the
// host fresh pages and the GC the churn of a batch's largest vectors. A
// set is made only when the list is empty, so there are never more sets
// than partitions held their vectors at once (at most the batch's host
// slots); the list goes with the batch. A nil list neither gives nor keeps
// (a single proof).
type vectorList struct {
	// inPlace: a device of the batch may read wire vectors in place
	// (solution.vectors).
	inPlace bool

	mu   sync.Mutex
	free []wsolver.Vectors
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

// get takes a set from the list, or gives the zero Vectors (the solve
// allocates) when it is empty.
func (l *vectorList) get() wsolver.Vectors {
	if l == nil {
		return wsolver.Vectors{}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.free) == 0 {
		return wsolver.Vectors{}
	}
	v := l.free[len(l.free)-1]
	l.free[len(l.free)-1] = wsolver.Vectors{}
	l.free = l.free[:len(l.free)-1]
	return v
}

// put hands v back for a later solve; a zero v is dropped.
func (l *vectorList) put(v wsolver.Vectors) {
	if l == nil || v.W == nil && v.A == nil && v.B == nil && v.C == nil {
		return
	}
	l.mu.Lock()
	l.free = append(l.free, v)
	l.mu.Unlock()
}
