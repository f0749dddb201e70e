package cpu

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/curve"
	"github.com/g16prover/g16/internal/hostmem"
)

// The CPU backend's device memory is the host's, and two of its choices
// trade host memory for speed: whether a proof's MSMs run side by side
// (each with its own buckets, digits and compacted points) or one at a
// time, and whether a transform's domain keeps its twiddle and coset
// tables. Both are chosen against a host memory budget: WithHostMemory's
// bytes, or else what the host has available when the choice is made
// (MemAvailable on Linux; unknown elsewhere, which picks the frugal side).

// minSideBySideTasks is the fewest tasks (WithTasks; by default the
// CPUs) with which a proof's MSMs run side by side. With fewer, one MSM at
// a time keeps the cores busy, and side by side took more CPU time and
// wall time (2 cores: BENCHMARKS.md, "memory-aware MSM schedule").
const minSideBySideTasks = 8

// sideBySideShare is the share of the host memory budget the MSMs'
// estimated scratch may take when they run side by side: 1/2.
const sideBySideShare = 2

// tablesShare is the share of the host memory budget one domain's tables
// may take: 1/16 (2 GiB at 2^24 on a host with 32 GiB free).
const tablesShare = 16

// WithHostMemory sets the host memory, in bytes, the backend plans its
// MSM schedule and NTT tables against (0, the default: what the host has
// available at the time). A small value forces the frugal choices (MSMs
// one at a time, no tables above 2^18), a large one the fast ones.
func WithHostMemory(bytes int64) Option {
	return func(c *config) error {
		if bytes < 0 {
			return fmt.Errorf("cpu: WithHostMemory(%d): bytes must not be negative", bytes)
		}
		c.hostMemory = bytes
		return nil
	}
}

// hostBudget is the host memory the backend plans against now, in bytes
// (0: unknown).
func (b *Backend) hostBudget() int64 {
	if b.cfg.hostMemory > 0 {
		return b.cfg.hostMemory
	}
	return max(0, hostmem.Available())
}

// HostSchedule says how a proof of domain 2^logN with MSMs of the given
// lengths (g1 in G1, g2 in G2) should run on this backend, and why, in
// words. The MSMs may run side by side when the backend has at least
// minSideBySideTasks tasks and their estimated host scratch together fits
// in half the host memory budget; otherwise a prover should run them one
// at a time, each with all the tasks. The note also says
// whether the domain keeps its NTT tables (keepTables), as its first
// transform decides.
func (b *Backend) HostSchedule(c ecc.ID, logN int, g1 []int, g2 int) (sideBySide bool, note string) {
	p, k, err := b.curve(OpNTT, "curve", c)
	if err != nil {
		return false, err.Error()
	}
	var need int64
	for _, n := range g1 {
		need += msmHostScratch(p, n, false)
	}
	need += msmHostScratch(p, g2, true)
	budget := b.hostBudget()
	fits := budget > 0 && need <= budget/sideBySideShare
	sideBySide = fits && b.cfg.tasks >= minSideBySideTasks
	switch {
	case sideBySide:
		note = "MSMs side by side"
	case fits:
		note = fmt.Sprintf("MSMs one at a time (%d tasks; side by side from %d)", b.cfg.tasks, minSideBySideTasks)
	default:
		note = "MSMs one at a time"
	}
	tables := "NTT tables kept"
	if !k.HasTables(logN, func(logN int) bool { return b.keepTables(p.FrBytes, logN) }) {
		tables = "NTT tables built as needed"
	}
	return sideBySide, fmt.Sprintf("%s, %s (host scratch side by side about %s, host memory budget %s)",
		note, tables, gib(need), gib(budget))
}

// keepTables says whether a domain of 2^logN keeps its tables: always up
// to 2^maxTablesLogN, above that when its 4n elements fit in the host
// memory budget's share.
func (b *Backend) keepTables(frBytes int64, logN int) bool {
	if logN <= maxTablesLogN {
		return true
	}
	return tableBytes(frBytes, logN) <= b.hostBudget()/tablesShare
}

// tableBytes is the memory of a domain's tables: twiddles and their
// inverses, the coset table and its inverse, n elements of frBytes each.
func tableBytes(frBytes int64, logN int) int64 { return 4 * frBytes << logN }

// msmHostScratch estimates the host memory an MSM of n points in G1 (or
// G2) of curve p takes while it runs, at its worst (no scalar 0 or ±1): the
// split's kinds (a byte a scalar) and indices and compacted points and
// scalars, MultiExp's digits (two bytes a point for each c-bit window) and
// its buckets (extended Jacobian points, four coordinates; 2^(c−1) a
// window, twice over when it halves the MSM), with c chosen as MultiExp
// chooses it.
func msmHostScratch(p *curve.Params, n int, g2 bool) int64 {
	if n <= 0 {
		return 0
	}
	pointBytes, bucketBytes := p.G1AffineBytes, 4*p.FpBytes
	if g2 {
		pointBytes, bucketBytes = p.G2AffineBytes, 8*p.FpBytes
	}
	c := multiExpWindow(n)
	windows := int64((8*int(p.FrBytes) + c - 1) / c)
	perPoint := 1 + 4 + pointBytes + p.FrBytes + 2*windows
	return int64(n)*perPoint + 2*windows*(int64(1)<<(c-1))*bucketBytes
}

// multiExpWindow is the window gnark-crypto's MultiExp picks for n points:
// the c in [4, 16] that minimises 256·(n + 2^c)/c.
func multiExpWindow(n int) int {
	best, cost := 4, 0.0
	for c := 4; c <= 16; c++ {
		if k := float64(n+1<<c) / float64(c); c == 4 || k < cost {
			best, cost = c, k
		}
	}
	return best
}

func gib(bytes int64) string { return fmt.Sprintf("%.2f GiB", float64(bytes)/(1<<30)) }
