// Package inflight counts the solves in flight in the process, of every
// curve's solver, so that concurrent solves share the cores, and the host
// work marked as running beside them.
package inflight

import "sync/atomic"

var n, beside atomic.Int32

// Begin counts one more solve in flight and returns how many are, itself
// included. Each Begin is matched by one End.
func Begin() int { return int(n.Add(1)) }

// End counts a solve begun by Begin as finished.
func End() { n.Add(-1) }

// Alone reports whether one solve at most is in flight and no host work
// is marked beside it.
func Alone() bool { return n.Load() <= 1 && beside.Load() == 0 }

// Beside marks host work that runs beside the solves until the returned
// func is called (once).
func Beside() (done func()) {
	beside.Add(1)
	var once atomic.Bool
	return func() {
		if once.CompareAndSwap(false, true) {
			beside.Add(-1)
		}
	}
}
