package cuda

import (
	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
)

// The shape of tables of precomputed multiples (table.go), in both builds.

// maxTableCopies bounds a table's copies (g16_precompute).
const maxTableCopies = 64

// TableInfo describes a table of precomputed multiples.
type TableInfo struct {
	Points, Copies, Window int
	Bytes                  int64
}

// TableWindow is the window of a table of copies copies over n points: the
// w in [4, 23] that minimises the cost in mixed additions of an MSM with
// it, nw·n + ⌈nw/c⌉·4.4·2^(w−1): the accumulation and a bucket set's
// reduction, which measured (H200, G1 2^24, run 6) about 1.85 ms a million
// buckets beside 0.42 ms a million mixed additions. One copy is
// pickWindow's choice.
//
// The model is that of 255-bit scalars (the curves of 8-limb scalars); a
// Backend picks BW6-761's tables' windows for its 377 bits (tableWindow).
func TableWindow(n, copies int) int { return tableWindowBits(n, copies, 255) }

// tableWindowBits is TableWindow for scalars windowed over bits bits,
// from minWindow(bits).
func tableWindowBits(n, copies, bits int) int {
	if copies <= 1 {
		return pickWindow(int64(n), bits)
	}
	lo := minWindow(bits)
	best, bestCost := lo, 0.0
	for w := lo; w <= 23; w++ {
		nw := (bits + w - 1) / w
		c := min(copies, nw)
		sets := (nw + c - 1) / c
		cost := float64(nw)*float64(n) + float64(sets)*4.4*float64(int64(1)<<(w-1))
		if w == lo || cost < bestCost {
			best, bestCost = w, cost
		}
	}
	return best
}

// TableBytes is the device memory of a table of copies copies of n points
// of k (KernelMSMG1 or KernelMSMG2) on curve c; 0 for another kernel or a
// curve the kernels lack.
func TableBytes(k backend.Kernel, c ecc.ID, n, copies int) int64 {
	g, ok := groupOf(c, k)
	if !ok {
		return 0
	}
	return int64(copies) * int64(n) * g.affineBytes()
}

// Modelled cost of an MSM's accumulation and reduction, in seconds a mixed
// addition on the H200: 0.42 ns in G1 (run 6, G1 2^24), and G2 over Fp2
// 2.9 times that (run 7, 2^24 without tables: 320.2 ms against 110.6).
// Measured on BLS12-381; TableCost uses them on every curve, where they
// compare the tables of one prover's MSMs, all on its curve. BW6-761's G2
// is over Fp, its points the size of G1's, and costs G1's (run 32, H100,
// 2^22: 162.0 ms against 161.5).
const (
	g1AddSeconds = 0.42e-9
	g2AddSeconds = 2.9 * g1AddSeconds
)

// TableCost is the modelled time in seconds of an MSM of n points of k
// (KernelMSMG1 or KernelMSMG2) on curve c over a table of copies copies of
// its bases (1: none) with window w (0: the window a Backend without
// WithMSMWindow picks, TableWindow's for c's scalar bits): the cost
// TableWindow minimises, nw·n + ⌈nw/c⌉·4.4·2^(w−1) mixed additions, nw
// windows over c's scalar bits (windowBits: 255, or BW6-761's 377), at
// the measured time of one. It compares tables of different MSMs and
// sizes; the sort and the host's share are left out. 0 for another kernel
// or a curve the kernels lack.
func TableCost(k backend.Kernel, c ecc.ID, n, copies, w int) float64 {
	g, ok := groupOf(c, k)
	if !ok {
		return 0
	}
	per := g1AddSeconds
	if g.g2 && g.affineBytes() > curve.Must(c).G1AffineBytes {
		per = g2AddSeconds
	}
	bits := g.windowBits()
	if w == 0 {
		w = tableWindowBits(n, copies, bits)
	}
	nw := (bits + w - 1) / w
	cp := min(max(copies, 1), nw)
	sets := (nw + cp - 1) / cp
	return per * (float64(nw)*float64(n) + float64(sets)*4.4*float64(int64(1)<<(w-1)))
}
