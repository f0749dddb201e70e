package hostmem

import (
	"runtime/debug"
	"sync"
)

// A Holder is a process-wide registration of host memory that its owner
// keeps for later use and can give up while idle (a Prover's free list of
// solution vectors, whatever its curve). Another owner that finds the host
// short of memory asks every other Holder to give up what it holds
// (ReclaimOthers) before it shrinks or refuses its own work.
type Holder struct {
	drop func() int64
}

var registry struct {
	mu      sync.Mutex
	holders map[*Holder]struct{}
}

// Hold registers drop, which gives up what its owner holds if the owner is
// idle and reports the bytes it let go (0 when busy or holding nothing).
// drop must not call ReclaimOthers. Close unregisters the Holder.
func Hold(drop func() int64) *Holder {
	h := &Holder{drop: drop}
	registry.mu.Lock()
	defer registry.mu.Unlock()
	if registry.holders == nil {
		registry.holders = make(map[*Holder]struct{})
	}
	registry.holders[h] = struct{}{}
	return h
}

// Close unregisters h; closing twice, or a nil h, is not an error.
func (h *Holder) Close() {
	if h == nil {
		return
	}
	registry.mu.Lock()
	delete(registry.holders, h)
	registry.mu.Unlock()
}

// ReclaimOthers asks every registered Holder but h (which may be nil) to
// give up what it holds while idle and, when any did, returns the freed
// pages to the operating system (debug.FreeOSMemory) so that the host's
// available memory shows them. It reports the bytes given up. The drops
// run outside the registry's lock, so an owner may register or close
// while holding its own lock.
func (h *Holder) ReclaimOthers() int64 {
	registry.mu.Lock()
	others := make([]*Holder, 0, len(registry.holders))
	for o := range registry.holders {
		if o != h {
			others = append(others, o)
		}
	}
	registry.mu.Unlock()
	var freed int64
	for _, o := range others {
		freed += o.drop()
	}
	if freed > 0 {
		debug.FreeOSMemory()
	}
	return freed
}
