package bls12381

import (
	"runtime"
	"slices"
	"sync"
	"weak"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/internal/hostmem"
	wsolver "github.com/g16prover/g16/solver/bls12381"
)

// vectorList is a Prover's free list of solution vectors, kept for the
// Prover's life: a proof's Finish hands back its W, a, b and c and the
// filtered copies of W (solution.vectors), and the next solve, of the
// same call or a later Prove or ProveBatch, fills them (wsolver.Vectors,
// filterOutInto) instead of allocating, which spares the host fresh pages
// and the GC the churn of a proof's largest vectors.
//
// A solve takes a lease (take) and gives it up once: with the vectors it
// hands back (giveBack), or none when its proof fails (drop). A set is made
// only when the list is empty, and a lease brings back at most the one set
// it took or made, so the sets on the list and under lease together never
// outnumber the leases that were out at once. When the Prover goes idle
// (its last running call ends), the list is trimmed to the most leases
// that were out at once since it was last idle: an idle Prover holds the
// vectors of as many proofs as its last busy stretch had in flight, and
// Close drops them.
//
// Every list is registered process-wide (hostmem.Holder, whatever the
// Prover's curve): a Prover whose planning finds the host short drops the
// lists of the other Provers that are idle (reclaimOthers), never one
// that a running call uses.
type vectorList struct {
	// inPlace: a device of the Prover may read wire vectors in place
	// (solution.vectors).
	inPlace bool
	holder  *hostmem.Holder

	mu    sync.Mutex
	free  []hostVectors
	out   int // leases taken and not yet given up
	peak  int // the most leases out at once since the list was last idle
	calls int // Prove and ProveBatch calls running (begin, end)
}

// hostVectors are the vectors of one proof's solution that a later solve
// fills again: the solver's, and the wire values filtered for the A, B and
// K MSMs. Any may be nil (allocated by the solve that needs it).
type hostVectors struct {
	solver     wsolver.Vectors
	wA, wB, wK []fr.Element
}

// empty reports whether v holds no vector.
func (v hostVectors) empty() bool {
	sv := v.solver
	return sv.W == nil && sv.A == nil && sv.B == nil && sv.C == nil && v.wA == nil && v.wB == nil && v.wK == nil
}

// bytes is the host memory v's vectors hold.
func (v hostVectors) bytes() int64 {
	n := 0
	for _, u := range [][]fr.Element{v.solver.W, v.solver.A, v.solver.B, v.solver.C, v.wA, v.wB, v.wK} {
		n += cap(u)
	}
	return int64(n) * scalarBytes
}

// newVectorList is the list of a Prover on devs.
func newVectorList(devs []*proverDevice) *vectorList {
	l := new(vectorList)
	for _, d := range devs {
		if _, ok := d.dev.(backend.ReadOnlyUploader); ok {
			l.inPlace = true
		}
	}
	// The registry reaches the list through a weak pointer, so a Prover
	// dropped without Close is still collected, and unregistered then.
	wl := weak.Make(l)
	l.holder = hostmem.Hold(func() int64 {
		if l := wl.Value(); l != nil {
			return l.dropIdle()
		}
		return 0
	})
	runtime.AddCleanup(l, (*hostmem.Holder).Close, l.holder)
	return l
}

// dropIdle empties the list when no call of its Prover runs (begin, end)
// and reports the bytes it let go; a list a running call uses is kept.
func (l *vectorList) dropIdle() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.calls > 0 {
		return 0
	}
	var n int64
	for _, v := range l.free {
		n += v.bytes()
	}
	l.free = nil
	return n
}

// reclaimOthers drops the lists of every other idle Prover and returns
// their pages to the host (hostmem.Holder.ReclaimOthers), reporting the
// bytes dropped.
func (l *vectorList) reclaimOthers() int64 {
	if l == nil {
		return 0
	}
	return l.holder.ReclaimOthers()
}

// begin counts a call (Prove, ProveBatch) that will take leases; end
// gives up the leases its partitions still hold and, when no other call
// runs, trims the list (vectorList).
func (l *vectorList) begin() {
	if l == nil {
		return
	}
	l.mu.Lock()
	l.calls++
	l.mu.Unlock()
}

func (l *vectorList) end(parts ...*partition) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, t := range parts {
		if t != nil {
			l.releaseLocked(t)
		}
	}
	l.calls--
	if l.calls > 0 {
		return
	}
	if extra := len(l.free) - l.peak; extra > 0 {
		// get takes from the end: keep the sets handed back last.
		l.free = slices.Clone(l.free[extra:])
	}
	l.peak = l.out
}

// take gives t's solve a set from the list, or none (the solve allocates)
// when it is empty, under t's lease. A nil list gives none and keeps
// none (a partition of no Prover's).
func (l *vectorList) take(t *partition) hostVectors {
	if l == nil {
		return hostVectors{}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !t.leased {
		t.leased = true
		l.out++
		l.peak = max(l.peak, l.out)
	}
	if len(l.free) == 0 {
		return hostVectors{}
	}
	v := l.free[len(l.free)-1]
	l.free[len(l.free)-1] = hostVectors{}
	l.free = l.free[:len(l.free)-1]
	return v
}

// giveBack ends t's lease, handing back v for a later solve; an empty v
// is dropped.
func (l *vectorList) giveBack(t *partition, v hostVectors) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !t.leased {
		return // the lease was given up already: v is not the list's
	}
	l.releaseLocked(t)
	if !v.empty() {
		l.free = append(l.free, v)
	}
}

// giveBackSolution ends t's lease, handing back sol's vectors
// (solution.vectors).
func (l *vectorList) giveBackSolution(t *partition, sol *solution) {
	if l == nil {
		return
	}
	l.giveBack(t, sol.vectors(t.p, l.inPlace))
}

func (l *vectorList) releaseLocked(t *partition) {
	if t.leased {
		t.leased = false
		l.out--
	}
}

// held is the host memory of the sets on the list: vectors a next solve
// fills rather than allocates (hostmem.go counts them as available to the
// Prover's own proofs).
func (l *vectorList) held() int64 {
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	var n int64
	for _, v := range l.free {
		n += v.bytes()
	}
	return n
}

// drop empties the list and unregisters it (Close).
func (l *vectorList) drop() {
	if l == nil {
		return
	}
	l.holder.Close()
	l.mu.Lock()
	l.free = nil
	l.mu.Unlock()
}
