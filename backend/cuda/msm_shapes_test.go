//go:build cuda

package cuda

import (
	"math/big"
	mrand "math/rand/v2"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/g16prover/g16/backend"
)

// TestMSMBenchmarkedShapes checks, on the GPU, the sizes and windows that
// the MSM benchmarks and BENCHMARKS.md time (G1 2^16…2^26, the 2^26 one in
// two passes; G2 2^20…2^24; windows up to 20), sizes where gnark's
// MultiExp would take minutes. The bases are known multiples of the
// generator (randG1Logs: a_i·G), so Σ k_i·P_i = (Σ k_i·a_i)·G, which Fr
// arithmetic and one scalar multiplication give. Forced windows, passes,
// kernels (G16_MSM_* flags), witness-like and 0/1-heavy scalars (90% 0 or
// 1, with the split of the ±1 points and without it) run beside the
// defaults.
func TestMSMBenchmarkedShapes(t *testing.T) {
	newTestBackend(t) // skips the test when there is no GPU
	rng := testRand(t)
	maxG1, maxG2 := 26, 24
	if testing.Short() {
		maxG1, maxG2 = 18, 16
	}
	g1, logs1 := randG1Logs(rng, 1<<maxG1)
	s1 := randScalars(rng, 1<<maxG1)
	wit := witnessScalars(rng, 1<<min(maxG1, 24))
	heavy := zeroOneHeavy(rng, 1<<min(maxG1, 24), 90)
	var shapes1 []msmShape
	for _, k := range []int{16, 20, 22, 24, 26} {
		if k <= maxG1 {
			shapes1 = append(shapes1, msmShape{name: "default", n: 1 << k})
		}
	}
	for _, k := range []int{16, 20, 24} {
		if k <= min(maxG1, 24) {
			shapes1 = append(shapes1, msmShape{"0/1-heavy", 1 << k, nil, "01"},
				msmShape{"0/1-heavy, no split", 1 << k, []Option{withMSMFlags(msmNoSplit)}, "01"})
		}
	}
	m := 1 << min(maxG1, 20)
	shapes1 = append(shapes1,
		msmShape{"w=20", m, []Option{WithMSMWindow(20)}, ""},
		msmShape{"w=21", m, []Option{WithMSMWindow(21)}, ""},
		msmShape{"two passes", m, []Option{WithMSMChunk(m/2 + 1)}, ""},
		msmShape{"no split", m, []Option{withMSMFlags(msmNoSplit)}, ""},
		msmShape{"0/1-heavy, two passes, w=20", m, []Option{WithMSMChunk(m/2 + 1), WithMSMWindow(20)}, "01"},
		msmShape{"witness-like", len(wit), nil, "witness"},
	)
	runShapes(t, "G1", shapes1, func(sh msmShape) (bool, MSMTiming) {
		b := shapeBackend(t, sh)
		defer b.Close()
		sc := s1[:sh.n]
		switch sh.dist {
		case "witness":
			sc = wit
		case "01":
			sc = heavy[:sh.n]
		}
		bb, sb := upload(t, b, g1[:sh.n]), upload(t, b, sc)
		defer b.Free(nil, bb)
		defer b.Free(nil, sb)
		var got bls12381.G1Jac
		if err := b.MSMG1(nil, ecc.BLS12_381, backend.ValueBytes(&got), bb, 0, sb, sh.n); err != nil {
			t.Fatalf("MSMG1 %s n=%d: %v", sh.name, sh.n, err)
		}
		e := msmLog(logs1, 0, sc)
		var want bls12381.G1Jac
		want.ScalarMultiplicationBase(e.BigInt(new(big.Int)))
		return got.Equal(&want), b.LastMSMTiming()
	})
	g1, s1, wit, heavy = nil, nil, nil, nil

	g2, logs2 := randG2Logs(rng, 1<<maxG2)
	s2 := randScalars(rng, 1<<maxG2)
	heavy2 := zeroOneHeavy(rng, 1<<maxG2, 90)
	var shapes2 []msmShape
	for _, k := range []int{20, 22, 24} {
		if k <= maxG2 {
			shapes2 = append(shapes2, msmShape{name: "default", n: 1 << k})
		}
	}
	m2 := 1 << min(maxG2, 18)
	shapes2 = append(shapes2,
		msmShape{"w=20", m2, []Option{WithMSMWindow(20)}, ""},
		msmShape{"two passes", m2, []Option{WithMSMChunk(m2/2 + 1)}, ""},
		msmShape{"0/1-heavy", 1 << maxG2, nil, "01"},
		msmShape{"0/1-heavy, no split", 1 << maxG2, []Option{withMSMFlags(msmNoSplit)}, "01"},
		msmShape{"0/1-heavy, two passes, w=20", m2, []Option{WithMSMChunk(m2/2 + 1), WithMSMWindow(20)}, "01"},
	)
	_, g2gen, _, _ := bls12381.Generators()
	runShapes(t, "G2", shapes2, func(sh msmShape) (bool, MSMTiming) {
		b := shapeBackend(t, sh)
		defer b.Close()
		sc := s2[:sh.n]
		if sh.dist == "01" {
			sc = heavy2[:sh.n]
		}
		bb, sb := upload(t, b, g2[:sh.n]), upload(t, b, sc)
		defer b.Free(nil, bb)
		defer b.Free(nil, sb)
		var got bls12381.G2Jac
		if err := b.MSMG2(nil, ecc.BLS12_381, backend.ValueBytes(&got), bb, 0, sb, sh.n); err != nil {
			t.Fatalf("MSMG2 %s n=%d: %v", sh.name, sh.n, err)
		}
		e := msmLog(logs2, 0, sc)
		var want bls12381.G2Jac
		want.ScalarMultiplication(&g2gen, e.BigInt(new(big.Int)))
		return got.Equal(&want), b.LastMSMTiming()
	})
}

// msmShape is one MSM of TestMSMBenchmarkedShapes: n points, the backend's
// options, and the scalars' distribution: "" random, "witness"
// (witnessScalars), "01" (zeroOneHeavy, 90%).
type msmShape struct {
	name string
	n    int
	opts []Option
	dist string
}

// shapeBackend opens GPU 0 with the shape's options; the caller closes it
// (one backend at a time, so that no backend's cached memory outlives its
// shape).
func shapeBackend(t *testing.T, sh msmShape) *Backend {
	t.Helper()
	b, err := New(0, sh.opts...)
	if err != nil {
		t.Fatalf("New(0) for %s: %v", sh.name, err)
	}
	return b
}

// runShapes runs check on each shape and reports the window and passes used.
func runShapes(t *testing.T, curve string, shapes []msmShape, check func(msmShape) (bool, MSMTiming)) {
	t.Helper()
	for _, sh := range shapes {
		ok, tm := check(sh)
		t.Logf("%s %s n=%d: w=%d, %d passes, %.1f ms (split %.1f: %d ±1 points, %d to Pippenger)", curve, sh.name, sh.n,
			tm.Window, tm.Passes, tm.Total, tm.Split, tm.Ones, tm.Rest)
		if !ok {
			t.Errorf("%s %s n=%d: GPU differs from the discrete-log reference", curve, sh.name, sh.n)
		}
		// The split: 0/1-heavy scalars put about 45% of the points in the
		// ±1 sum and 10% in Pippenger; without the split, all in Pippenger.
		if noSplit := strings.Contains(sh.name, "no split"); sh.dist == "01" && !noSplit {
			if tm.Ones < int64(sh.n)/3 || tm.Rest > int64(sh.n)/5 {
				t.Errorf("%s %s n=%d: %d ±1 points and %d to Pippenger, want about %d and %d", curve, sh.name, sh.n,
					tm.Ones, tm.Rest, sh.n*45/100, sh.n/10)
			}
		} else if noSplit && (tm.Ones != 0 || tm.Rest != int64(sh.n)) {
			t.Errorf("%s %s n=%d: without the split, %d ±1 points and %d to Pippenger", curve, sh.name, sh.n, tm.Ones, tm.Rest)
		}
	}
}

// zeroOneHeavy: scalars of which pct percent are 0 or 1 (half each), the
// others random, as in a hash circuit's wires.
func zeroOneHeavy(rng *mrand.Rand, n, pct int) []fr.Element {
	s := make([]fr.Element, n)
	for i := range s {
		switch k := rng.IntN(200); {
		case k < pct:
		case k < 2*pct:
			s[i].SetOne()
		default:
			s[i] = randFr(rng)
		}
	}
	return s
}

// witnessScalars: scalars as a circuit's wires have them, mostly 0 and 1,
// some small, some random.
func witnessScalars(rng *mrand.Rand, n int) []fr.Element {
	s := make([]fr.Element, n)
	for i := range s {
		switch k := rng.IntN(20); {
		case k < 8:
		case k < 17:
			s[i].SetOne()
		case k < 19:
			s[i].SetUint64(uint64(rng.IntN(1 << 16)))
		default:
			s[i] = randFr(rng)
		}
	}
	return s
}
