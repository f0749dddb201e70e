package cpu

import (
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/g16prover/g16/curve"
)

// TestHostSchedule: the MSMs of a proof run side by side exactly when
// their estimated host scratch fits in half the host memory budget and the
// backend has minSideBySideTasks tasks, and the note says which.
func TestHostSchedule(t *testing.T) {
	g1 := []int{1 << 12, 1 << 12, 1 << 11, 1<<12 - 1}
	g2 := 1 << 12
	var need int64
	for _, n := range g1 {
		need += msmHostScratch(bls, n, false)
	}
	need += msmHostScratch(bls, g2, true)
	for _, c := range []struct {
		host  int64
		tasks int
		want  bool
	}{
		{2 * need, minSideBySideTasks, true},
		{2*need - 2, minSideBySideTasks, false},
		{1, minSideBySideTasks, false},
		{2 * need, minSideBySideTasks - 1, false},
	} {
		side, note := MustNew(WithHostMemory(c.host), WithTasks(c.tasks)).HostSchedule(ecc.BLS12_381, 12, g1, g2)
		want := map[bool]string{true: "MSMs side by side", false: "MSMs one at a time"}[c.want]
		if side != c.want || !strings.Contains(note, want) {
			t.Errorf("host memory %d (need %d), %d tasks: side by side %v, note %q; want %v, %q", c.host, need, c.tasks, side, note, c.want, want)
		}
	}
}

// TestMSMHostScratch: the estimate grows with the points, is at least the
// compacted points and scalars, and picks gnark-crypto's windows (16 bits
// at 2^20 points and beyond, small ones for few points).
func TestMSMHostScratch(t *testing.T) {
	if c := multiExpWindow(1 << 20); c != 16 {
		t.Errorf("window at 2^20: %d, want 16", c)
	}
	if c := multiExpWindow(64); c > 8 {
		t.Errorf("window at 64 points: %d, want at most 8", c)
	}
	if s := msmHostScratch(bls, 0, false); s != 0 {
		t.Errorf("scratch of an empty MSM: %d", s)
	}
	prev := int64(0)
	for logN := 4; logN <= 27; logN++ {
		n := 1 << logN
		s := msmHostScratch(bls, n, false)
		if s <= prev || s < int64(n)*(96+32) {
			t.Fatalf("2^%d points: scratch %d (previous %d)", logN, s, prev)
		}
		prev = s
	}
	// 2^27 points in G2: more than the 2^27 compacted points themselves.
	if s := msmHostScratch(bls, 1<<27, true); s < (1<<27)*(192+32) {
		t.Errorf("G2 2^27: %d", s)
	}
}

var bls = curve.Must(ecc.BLS12_381)
