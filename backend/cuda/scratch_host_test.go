//go:build cuda

package cuda

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// TestScratchModelHost checks the scratch model (msmScratch,
// msmTableScratch) against what the pipeline allocates: the host mode
// counts every buffer's bytes as the device's pool does, and its peak must
// stay within the model less the model's 2 MiB for CUB's temporaries
// (which the host mode does not allocate). Small and mid sizes, every
// scalar shape (random, sha256-like, 0/1-heavy, skewed, all ±1, all zero),
// forced windows and task caps, the kernel flags, and tables of copies.
func TestScratchModelHost(t *testing.T) {
	rng := testRand(t)
	const cub = 2 << 20
	p1 := randG1(rng, 2000)
	p2 := randG2(rng, 300)
	dists := func(n int) map[string][]fr.Element {
		ones := make([]fr.Element, n)
		for i := range ones {
			ones[i].SetOne()
			if i%3 == 0 {
				ones[i].SetInt64(-1)
			}
		}
		zeros := make([]fr.Element, n)
		zeros[n/2].SetUint64(3) // one nonzero: Pippenger on one point
		return map[string][]fr.Element{
			"random": randScalars(rng, n), "sha256-like": sha256Scalars(rng, n), "0/1-heavy": zeroOneHeavy(rng, n, 90),
			"skewed": skewedScalars(rng, n), "all ±1": ones, "one nonzero": zeros,
		}
	}
	tightest, at := 0.0, ""
	check := func(curve, n, copies, w, task, flags int, name string, peak int64, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("curve %d n=%d %s: %v", curve, n, name, err)
		}
		model := msmTableScratch(blsGroup(curve), n, n, w, copies, task) - cub
		if r := float64(peak) / float64(model); r > tightest {
			tightest, at = r, fmt.Sprintf("G%d n=%d %s w=%d copies=%d task=%d flags %d", curve, n, name, w, copies, task, flags)
		}
		if peak > model {
			t.Errorf("G%d n=%d %s (w=%d copies=%d task=%d flags %d): the pipeline held %d bytes, the model allows %d",
				curve, n, name, w, copies, task, flags, peak, model)
		}
	}
	for _, n := range []int{1, 3, 64, 500, 2000} {
		for name, s := range dists(n) {
			for _, cfg := range []struct{ w, task, flags int }{{0, 0, 0}, {0, 0, msmNoSplit}, {6, 2, 0}, {5, 3, msmFanin8}, {0, 2, msmFanin8 | msmNoSplit}, {0, 0, msmHostTail}} {
				peak, err := hostMSMPeak(1, unsafe.Pointer(&p1[0]), n, 1, cfg.w, s, cfg.task, cfg.flags)
				check(1, n, 1, cfg.w, cfg.task, cfg.flags, name, peak, err)
			}
			if n <= 300 {
				for _, cfg := range []struct{ w, task, flags int }{{0, 0, 0}, {0, 0, msmNoSplit}, {5, 2, msmFanin8}} {
					peak, err := hostMSMPeak(2, unsafe.Pointer(&p2[0]), n, 1, cfg.w, s, cfg.task, cfg.flags)
					check(2, n, 1, cfg.w, cfg.task, cfg.flags, name, peak, err)
				}
			}
		}
	}
	defer func() { t.Logf("tightest: %.2f of the model (%s)", tightest, at) }()
	// Tables of copies (G1, 500 points; G2, 100).
	for _, sh := range []struct{ copies, w int }{{4, 8}, {12, 6}, {2, 10}} {
		t1, err := hostTable(p1[:500], sh.copies, sh.w)
		if err != nil {
			t.Fatal(err)
		}
		t2, err := hostTable(p2[:100], sh.copies, sh.w)
		if err != nil {
			t.Fatal(err)
		}
		for name, s := range dists(500) {
			peak, err := hostMSMPeak(1, unsafe.Pointer(&t1[0]), 500, sh.copies, sh.w, s, 0, 0)
			check(1, 500, sh.copies, sh.w, 0, 0, name+", table", peak, err)
			peak, err = hostMSMPeak(2, unsafe.Pointer(&t2[0]), 100, sh.copies, sh.w, s[:100], 0, 0)
			check(2, 100, sh.copies, sh.w, 0, 0, name+", table", peak, err)
		}
	}
}
