package cuda

import (
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
)

func TestTableWindow(t *testing.T) {
	for _, lg := range []int{10, 16, 20, 24, 26} {
		if got, want := TableWindow(1<<lg, 1), pickWindow(1<<lg); got != want {
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
	if got := TableBytes(backend.KernelMSMG2, 1000, 3); got != 3000*curve.Must(ecc.BLS12_381).G2AffineBytes {
		t.Errorf("TableBytes G2: %d", got)
	}
	if got := TableBytes(backend.KernelNTT, 1000, 3); got != 0 {
		t.Errorf("TableBytes NTT: %d", got)
	}
}
