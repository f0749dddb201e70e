// Package inflight counts the solves in flight in the process, of every
// curve's solver, so that concurrent solves share the cores.
package inflight

import "sync/atomic"

var n atomic.Int32

// Begin counts one more solve in flight and returns how many are, itself
// included. Each Begin is matched by one End.
func Begin() int { return int(n.Add(1)) }

// End counts a solve begun by Begin as finished.
func End() { n.Add(-1) }

// Count is how many solves are in flight now.
func Count() int { return int(n.Load()) }
