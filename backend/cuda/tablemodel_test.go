package cuda

import (
	"math"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
)

func TestTableWindow(t *testing.T) {
	for _, lg := range []int{10, 16, 20, 24, 26} {
		if got, want := TableWindow(1<<lg, 1), pickWindow(1<<lg, 255); got != want {
			t.Errorf("2^%d, one copy: window %d, pickWindow %d", lg, got, want)
		}
	}
	// 2^24 points, 12 copies: w = 22 gives nw = 12 windows in one bucket set
	// (12·n + 4.4·2^21), against w = 21 (13 windows, two sets) and w = 23
	// (12 windows, one set of twice the buckets); 4 copies: w = 20 (13
	// windows in 4 sets of 2^19 buckets) against w = 22 (12 in 3 of 2^21).
	if w := TableWindow(1<<24, 12); w != 22 {
		t.Errorf("2^24, 12 copies: window %d, want 22", w)
	}
	if w := TableWindow(1<<24, 4); w != 20 {
		t.Errorf("2^24, 4 copies: window %d, want 20", w)
	}
	// More copies than windows change nothing.
	if a, b := TableWindow(1<<20, 64), TableWindow(1<<20, 40); a != b {
		t.Errorf("2^20: window %d with 64 copies, %d with 40", a, b)
	}
	if got := TableBytes(backend.KernelMSMG2, ecc.BLS12_381, 1000, 3); got != 3000*curve.Must(ecc.BLS12_381).G2AffineBytes {
		t.Errorf("TableBytes G2: %d", got)
	}
	if got := TableBytes(backend.KernelNTT, ecc.BLS12_381, 1000, 3); got != 0 {
		t.Errorf("TableBytes NTT: %d", got)
	}
}

// TestGroups: each kernel curve's MSM groups, their codes in the kernels'
// calls (G16_GROUP) and their sizes from package curve.
func TestGroups(t *testing.T) {
	want := []struct {
		c                ecc.ID
		k                backend.Kernel
		code             int
		affine, jac, xyz int64
	}{
		{ecc.BLS12_381, backend.KernelMSMG1, 1, 96, 144, 192},
		{ecc.BLS12_381, backend.KernelMSMG2, 2, 192, 288, 384},
		{ecc.BN254, backend.KernelMSMG1, 3, 64, 96, 128},
		{ecc.BN254, backend.KernelMSMG2, 4, 128, 192, 256},
		{ecc.BLS12_377, backend.KernelMSMG1, 5, 96, 144, 192},
		{ecc.BLS12_377, backend.KernelMSMG2, 6, 192, 288, 384},
		{ecc.BW6_761, backend.KernelMSMG1, 7, 192, 288, 384},
		{ecc.BW6_761, backend.KernelMSMG2, 8, 192, 288, 384},
	}
	for _, w := range want {
		g, ok := groupOf(w.c, w.k)
		if !ok {
			t.Fatalf("%v %v: no group", w.c, w.k)
		}
		if g.code() != w.code || g.affineBytes() != w.affine || g.jacBytes() != w.jac || g.xyzzBytes() != w.xyz || g.kernel() != w.k {
			t.Errorf("%v: code %d, affine %d, Jacobian %d, XYZZ %d bytes, kernel %v; want %+v", g, g.code(), g.affineBytes(), g.jacBytes(), g.xyzzBytes(), g.kernel(), w)
		}
		if got := TableBytes(w.k, w.c, 10, 3); got != 30*w.affine {
			t.Errorf("%v: TableBytes(10 points, 3 copies) = %d, want %d", g, got, 30*w.affine)
		}
	}
	if _, ok := groupOf(ecc.BLS24_315, backend.KernelMSMG1); ok {
		t.Error("BLS24-315 has a kernel group")
	}
	if _, ok := groupOf(ecc.BN254, backend.KernelNTT); ok {
		t.Error("the NTT has a kernel group")
	}
	if got := TableBytes(backend.KernelMSMG1, ecc.BLS24_315, 10, 3); got != 0 {
		t.Errorf("TableBytes on BLS24-315: %d", got)
	}
	if got := kernelCurveNames(); got != "bls12-381, bn254, bls12-377 and bw6-761" {
		t.Errorf("kernelCurveNames() = %q", got)
	}
}

// TestTableCostBits: TableCost counts the windows over the curve's scalar
// bits: the curves of 255-bit windowing cost the same, BW6-761's 377 bits
// take ⌈377/w⌉ windows (the formula checked at a fixed window), its
// default window is its own table window (6 or more) and its MSMs take
// more additions than the others' of the same size; its G2, over Fp,
// costs G1's, and G2 over Fp2 2.9 times G1's; another kernel or curve
// costs 0.
func TestTableCostBits(t *testing.T) {
	for _, k := range []backend.Kernel{backend.KernelMSMG1, backend.KernelMSMG2} {
		per, perBW6 := g1AddSeconds, g1AddSeconds
		if k == backend.KernelMSMG2 {
			per = g2AddSeconds
		}
		for _, n := range []int{1 << 10, 1 << 16, 1 << 22} {
			for _, copies := range []int{1, 2, 4, 12} {
				ref := TableCost(k, ecc.BLS12_381, n, copies, 0)
				if ref != TableCost(k, ecc.BLS12_381, n, copies, TableWindow(n, copies)) {
					t.Errorf("%v n=%d copies=%d: the default window is not TableWindow's", k, n, copies)
				}
				for _, c := range []ecc.ID{ecc.BN254, ecc.BLS12_377} {
					if got := TableCost(k, c, n, copies, 0); got != ref {
						t.Errorf("%v %v n=%d copies=%d: cost %g, BLS12-381's %g (both 255-bit windows)", k, c, n, copies, got, ref)
					}
				}
				bw6 := TableCost(k, ecc.BW6_761, n, copies, 0)
				if w := tableWindowBits(n, copies, 377); w < 6 || bw6 != TableCost(k, ecc.BW6_761, n, copies, w) {
					t.Errorf("%v BW6-761 n=%d copies=%d: default window %d, want BW6-761's table window (6 or more)", k, n, copies, w)
				}
				if bw6/perBW6 <= ref/per {
					t.Errorf("%v n=%d copies=%d: BW6-761's 377-bit MSM takes %g additions, not more than BLS12-381's %g", k, n, copies, bw6/perBW6, ref/per)
				}
			}
		}
		// w = 8, 3 copies: 48 windows in 16 bucket sets of 128 buckets over
		// 377 bits; 32 windows in 11 sets over 255.
		n := 1000
		if got, want := TableCost(k, ecc.BW6_761, n, 3, 8), perBW6*(48*float64(n)+16*4.4*128); got != want {
			t.Errorf("%v BW6-761 w=8 3 copies: cost %g, want %g", k, got, want)
		}
		if got, want := TableCost(k, ecc.BLS12_381, n, 3, 8), per*(32*float64(n)+11*4.4*128); got != want {
			t.Errorf("%v BLS12-381 w=8 3 copies: cost %g, want %g", k, got, want)
		}
	}
	for _, n := range []int{1 << 12, 1 << 22} {
		g1, g2 := TableCost(backend.KernelMSMG1, ecc.BW6_761, n, 4, 0), TableCost(backend.KernelMSMG2, ecc.BW6_761, n, 4, 0)
		if g1 != g2 {
			t.Errorf("BW6-761 n=%d: G1 costs %g, G2 over Fp %g: want the same", n, g1, g2)
		}
		g1, g2 = TableCost(backend.KernelMSMG1, ecc.BN254, n, 4, 0), TableCost(backend.KernelMSMG2, ecc.BN254, n, 4, 0)
		if math.Abs(g2/g1-2.9) > 1e-9 {
			t.Errorf("BN254 n=%d: G2 over Fp2 costs %g, %g times G1's, want 2.9", n, g2, g2/g1)
		}
	}
	if got := TableCost(backend.KernelNTT, ecc.BW6_761, 1000, 1, 0); got != 0 {
		t.Errorf("TableCost NTT: %g", got)
	}
	if got := TableCost(backend.KernelMSMG1, ecc.BLS24_315, 1000, 1, 0); got != 0 {
		t.Errorf("TableCost on BLS24-315: %g", got)
	}
}
