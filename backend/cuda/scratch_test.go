package cuda

import (
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
)

// TestMSMScratchModel: the MSM scratch bound grows with the pass, stops at
// the chunk, and is of the size msm.cu's arrays have (16 bytes a digit
// pair and more; a 2^25 G1 pass takes gigabytes).
func TestMSMScratchModel(t *testing.T) {
	const chunk = 1 << 25
	bls1, bls2 := group{ecc.BLS12_381, false}, group{ecc.BLS12_381, true}
	prev := int64(0)
	for lg := 10; lg <= 25; lg++ {
		s := msmScratch(bls1, 1<<lg, chunk, 0, 0)
		if s <= prev {
			t.Errorf("n=2^%d: scratch %d not above 2^%d's %d", lg, s, lg-1, prev)
		}
		prev = s
	}
	if a, b := msmScratch(bls1, 1<<26, chunk, 0, 0), msmScratch(bls1, chunk, chunk, 0, 0); a != b {
		t.Errorf("2^26 points in passes of 2^25: scratch %d, want one pass's %d", a, b)
	}
	g1, g2 := msmScratch(bls1, 1<<25, chunk, 0, 0), msmScratch(bls2, 1<<25, chunk, 0, 0)
	w := pickWindow(1<<25, 255)
	nw := int64((255 + w - 1) / w)
	if least := 25 * nw << 25; g1 < least || g1 > 4*least {
		t.Errorf("G1 2^25: scratch %d, want about 25 bytes a digit pair (%d)", g1, least)
	}
	if g2 <= g1 {
		t.Errorf("G2 scratch %d not above G1's %d", g2, g1)
	}
	t.Logf("2^25 points, window %d: G1 %.2f GiB, G2 %.2f GiB", w, float64(g1)/(1<<30), float64(g2)/(1<<30))
	if msmScratch(bls1, 0, chunk, 0, 0) != 0 {
		t.Error("an empty MSM takes scratch")
	}
	// BN254's XYZZ points are two thirds of BLS12-381's: less scratch in
	// each group, G2 still above G1.
	bn1 := msmScratch(group{ecc.BN254, false}, 1<<25, chunk, 0, 0)
	bn2 := msmScratch(group{ecc.BN254, true}, 1<<25, chunk, 0, 0)
	if bn1 >= g1 || bn2 >= g2 || bn2 <= bn1 {
		t.Errorf("BN254 2^25: G1 %d, G2 %d scratch; BLS12-381 G1 %d, G2 %d", bn1, bn2, g1, g2)
	}
}
