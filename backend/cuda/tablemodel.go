package cuda

import "github.com/g16prover/g16/backend"

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
// it, nw·n + ⌈nw/c⌉·3.2·2^(w−1) (pickWindow's model, with bucket sets in
// place of windows: c = 1 is pickWindow's up to its cap of 21).
func TableWindow(n, copies int) int {
	c := max(copies, 1)
	best, bestCost := 4, 0.0
	for w := 4; w <= 23; w++ {
		if c == 1 && w > 21 {
			break
		}
		nw := (255 + w - 1) / w
		sets := (nw + min(c, nw) - 1) / min(c, nw)
		cost := float64(nw)*float64(n) + float64(sets)*3.2*float64(int64(1)<<(w-1))
		if w == 4 || cost < bestCost {
			best, bestCost = w, cost
		}
	}
	return best
}

// TableBytes is the device memory of a table of copies copies of n points
// of k (KernelMSMG1 or KernelMSMG2); 0 for another kernel.
func TableBytes(k backend.Kernel, n, copies int) int64 {
	switch k {
	case backend.KernelMSMG1:
		return int64(copies) * int64(n) * backend.G1AffineBytes
	case backend.KernelMSMG2:
		return int64(copies) * int64(n) * backend.G2AffineBytes
	}
	return 0
}
