package pool

import (
	"sync"
	"sync/atomic"

	"github.com/g16prover/g16/backend"
)

// bufSet is one job's device buffers. Sets outlive jobs: a released set
// waits, idle, for the next job of the same sizes on its device.
type bufSet struct {
	sizes  []int64
	bufs   []backend.Buffer
	bytes  int64
	direct bool // allocated outside the pool: freeing it is device-global
}

func total(sizes []int64) int64 {
	var n int64
	for _, s := range sizes {
		n += s
	}
	return n
}

func sameSizes(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// device is one Backend's share of a Run: its two regions, its memory
// accounting and its idle buffer sets.
type device[K any] struct {
	idx  int
	b    backend.Backend
	name string

	// The regions, as semaphores so that waiting for them can be cancelled.
	staging chan struct{}
	compute chan struct{}

	// budget bounds held; unlimited when the device reports no capacity
	// and none was set.
	budget    int64
	unlimited bool
	capped    bool // the budget was set (WithMemoryBudget): never exceeded

	// spec is the resident state chosen for this device (Resident.Fit).
	spec Resident[K]

	mu      sync.Mutex
	cond    *sync.Cond // broadcast when a set is released, or on stop
	held    int64      // resident bytes + scratch + every set: staged, running or idle
	active  int        // sets staged or running: they will be released
	freeing int        // evicted sets whose buffers are being freed
	gen     uint64     // counts releases and evictions, so waiters see a change
	idle    []*bufSet
	stopped bool

	// The resident state, written in the compute region; resLoaded is
	// set after res, so a worker that sees it true may read res.
	res       K
	resLoaded atomic.Bool

	// cachedAtStart is what the pool cached when the Run began; the
	// cleanup trims back to it.
	cachedAtStart int64
}

// newDevice sets up d's regions and budget. Its resident state is set by
// the Run (setResident) before any worker starts.
func newDevice[K any](idx int, b backend.Backend, cfg *config) *device[K] {
	d := &device[K]{
		idx: idx, b: b, name: b.String(),
		staging: make(chan struct{}, 1),
		compute: make(chan struct{}, 1),
	}
	d.cond = sync.NewCond(&d.mu)
	m := b.Memory()
	d.cachedAtStart = m.Cached
	if cfg.budget > 0 {
		d.budget, d.capped = cfg.budget, true
	} else {
		d.budget = DefaultBudget(m)
		d.unlimited = d.budget == 0
	}
	return d
}

// DefaultBudget is the budget a Run gives a device that reports m when no
// WithMemoryBudget is set: its capacity, less what is in use, less a
// margin of 1/16 (at most 1 GiB); 0 (unlimited) when it reports no
// capacity.
func DefaultBudget(m backend.MemStats) int64 {
	if m.Capacity <= 0 {
		return 0
	}
	avail := m.Capacity - m.InUse
	return max(1, avail-min(avail/16, 1<<30))
}

// budgetBytes is the budget Resident.Fit is given: 0 when unlimited.
func (d *device[K]) budgetBytes() int64 {
	if d.unlimited {
		return 0
	}
	return d.budget
}

// setResident makes spec d's resident state and reserves its bytes and
// the jobs' scratch.
func (d *device[K]) setResident(spec Resident[K]) {
	d.spec = spec
	d.held = max(0, spec.Bytes) + max(0, spec.Scratch)
}

// fitsLocked says whether the budget admits need more bytes.
func (d *device[K]) fitsLocked(need int64) bool {
	return d.unlimited || d.held+need <= d.budget
}

// takeIdleLocked removes and returns an idle set of the given sizes.
func (d *device[K]) takeIdleLocked(sizes []int64) *bufSet {
	for i, s := range d.idle {
		if sameSizes(s.sizes, sizes) {
			d.idle = append(d.idle[:i], d.idle[i+1:]...)
			d.active++
			return s
		}
	}
	return nil
}

// evictLocked removes idle sets from the accounting and returns them, for
// the caller to free and then report with evicted: every idle set when
// direct is true (the caller holds the compute region), else only those
// from the pool, whose frees are not device-global. Until evicted is
// called they count as freeing, so that a worker waiting for memory waits
// for them.
func (d *device[K]) evictLocked(direct bool) []*bufSet {
	var ev, keep []*bufSet
	for _, s := range d.idle {
		if s.direct && !direct {
			keep = append(keep, s)
			continue
		}
		ev = append(ev, s)
		d.held -= s.bytes
	}
	d.idle = keep
	if len(ev) > 0 {
		d.freeing++
	}
	return ev
}

// evicted reports that sets returned by evictLocked have been freed.
func (d *device[K]) evicted(ev []*bufSet) {
	if len(ev) == 0 {
		return
	}
	d.mu.Lock()
	d.freeing--
	d.gen++
	d.cond.Broadcast()
	d.mu.Unlock()
}

// release returns a set that was staged or running. Kept sets go idle for
// reuse; the others leave the accounting and the caller frees them.
func (d *device[K]) release(s *bufSet, keep bool) {
	d.mu.Lock()
	d.active--
	d.gen++
	if keep {
		d.idle = append(d.idle, s)
	} else {
		d.held -= s.bytes
	}
	d.cond.Broadcast()
	d.mu.Unlock()
}

// pooledIdleLocked says whether an idle set could be evicted outside the
// compute region.
func (d *device[K]) pooledIdleLocked() bool {
	for _, s := range d.idle {
		if !s.direct {
			return true
		}
	}
	return false
}

// unreserve gives back bytes reserved for a set that was never made.
func (d *device[K]) unreserve(bytes int64) {
	d.mu.Lock()
	d.active--
	d.held -= bytes
	d.gen++
	d.cond.Broadcast()
	d.mu.Unlock()
}

func (d *device[K]) stop() {
	d.mu.Lock()
	d.stopped = true
	d.cond.Broadcast()
	d.mu.Unlock()
}
