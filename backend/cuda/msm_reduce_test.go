//go:build cuda

package cuda

import (
	"math"
	mrand "math/rand/v2"
	"testing"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
)

// The bucket reduction's levels (msm_reduce.cuh) against a plain
// Σ_b (b+1)·S_b in gnark, on the host: every T from 1 to a few hundred, one
// to three windows, empty buckets and equal neighbours among random
// projective bucket sums, each level shape (segments of 16, 8 and 4, pairs,
// and their mixes) and both kernel families.

// xyzzG1 writes p as XYZZ with a random ZZ = z², ZZZ = z³ (infinity: zeros).
func xyzzG1(rng *mrand.Rand, p *bls12381.G1Affine, out []fp.Element) {
	if p.IsInfinity() {
		for i := range out[:4] {
			out[i].SetZero()
		}
		return
	}
	z := randFp(rng)
	out[2].Square(&z)
	out[3].Mul(&out[2], &z)
	out[0].Mul(&p.X, &out[2])
	out[1].Mul(&p.Y, &out[3])
}

// xyzzG2 is xyzzG1 over Fp2 (limbs X.A0, X.A1, Y.A0, …).
func xyzzG2(rng *mrand.Rand, p *bls12381.G2Affine, out []fp.Element) {
	if p.IsInfinity() {
		for i := range out[:8] {
			out[i].SetZero()
		}
		return
	}
	z := bls12381.E2{A0: randFp(rng), A1: randFp(rng)}
	var zz, zzz, x, y bls12381.E2
	zz.Square(&z)
	zzz.Mul(&zz, &z)
	x.Mul(&p.X, &zz)
	y.Mul(&p.Y, &zzz)
	for i, e := range []*bls12381.E2{&x, &y, &zz, &zzz} {
		out[2*i], out[2*i+1] = e.A0, e.A1
	}
}

func randFp(rng *mrand.Rand) fp.Element {
	for {
		var e fp.Element
		e.SetUint64(rng.Uint64() | 1)
		var r fp.Element
		r.SetUint64(rng.Uint64())
		e.Mul(&e, &r)
		if !e.IsZero() {
			return e
		}
	}
}

// bucketPick is the bucket pattern: which base bucket b holds (−1: empty).
func bucketPick(rng *mrand.Rand, T, npts int) []int {
	pick := make([]int, T)
	for b := range pick {
		switch k := rng.IntN(10); {
		case k < 2:
			pick[b] = -1 // empty
		case k < 3 && b > 0 && pick[b-1] >= 0:
			pick[b] = pick[b-1] // equal to its neighbour: a doubling inside an addition
		default:
			pick[b] = rng.IntN(npts)
		}
	}
	return pick
}

// planners are level planners' settings (resident threads, fixed cost of
// a level) that, over the Ts of TestReduceHost, give every level shape:
// one thread (work alone decides: segments of 16, 8 and 4), every thread
// at once at no cost a level (depth alone: pairs, or one segment of 4 for
// the last few), two in between (segments first, pairs after) and a large
// cost a level (few deep segments). TestReduceHost checks that the plans
// it ran took each shape.
func planners(windows, T int) []reduceCase {
	return []reduceCase{{cap: 1}, {cap: 1 << 30}, {cap: max(1, windows*T/6), fixed: 0.5},
		{cap: max(1, windows*T/40), fixed: 2}, {cap: 1 << 30, fixed: 40}}
}

// shapesSeen records the level shapes (lg m) of the plans a test ran.
type shapesSeen map[int]bool

func (s shapesSeen) add(t *testing.T, T, windows int, c reduceCase) {
	t.Helper()
	sh, err := reducePlan(T, windows, c.cap, c.fixed, c.stop)
	if err != nil {
		t.Fatal(err)
	}
	for _, lg := range sh {
		s[lg] = true
	}
}

// check fails unless pairs and segments of 4, 8 and 16 all ran.
func (s shapesSeen) check(t *testing.T, what string) {
	t.Helper()
	for lg := 1; lg <= 4; lg++ {
		if !s[lg] {
			t.Errorf("%s: no level with m = %d among the plans run (%v)", what, 1<<lg, s)
		}
	}
}

func TestReduceHost(t *testing.T) {
	rng := testRand(t)
	const npts = 64
	p1 := randG1(rng, npts)
	p1[0] = bls12381.G1Affine{} // the point at infinity as a bucket sum
	var Ts []int
	for T := 1; T <= 160; T++ {
		Ts = append(Ts, T)
	}
	Ts = append(Ts, 255, 256, 257, 300, 513)
	seen := shapesSeen{}
	for _, T := range Ts {
		windows := 1 + rng.IntN(3)
		buckets := make([]fp.Element, windows*T*4)
		want := make([]bls12381.G1Jac, windows)
		for j := 0; j < windows; j++ {
			pick := bucketPick(rng, T, npts)
			var running, total bls12381.G1Jac
			for b := T - 1; b >= 0; b-- {
				if pick[b] >= 0 {
					xyzzG1(rng, &p1[pick[b]], buckets[(j*T+b)*4:])
					running.AddMixed(&p1[pick[b]])
				} else {
					xyzzG1(rng, &bls12381.G1Affine{}, buckets[(j*T+b)*4:])
				}
				total.AddAssign(&running) // Σ_b (b+1)·S_b
			}
			want[j] = total
		}
		for _, c := range reduceCases(rng, windows, T) {
			seen.add(t, T, windows, c)
			got, pairs, err := hostReduce(1, buckets, T, windows, c.cap, c.fixed, c.stop)
			if err != nil {
				t.Fatal(err)
			}
			checkPairs(t, "G1", T, windows, c, pairs)
			for j := 0; j < windows; j++ {
				if g := windowSumG1(got, j, windows, pairs); !g.Equal(&want[j]) {
					t.Fatalf("G1 T=%d windows=%d cap=%d fixed=%g stop=%d (%d pairs): window %d differs from Σ(b+1)·S_b", T, windows, c.cap, c.fixed, c.stop, pairs, j)
				}
			}
		}
	}
	seen.check(t, "G1")

	p2 := randG2(rng, npts)
	p2[0] = bls12381.G2Affine{}
	Ts = Ts[:0]
	for T := 1; T <= 40; T++ {
		Ts = append(Ts, T)
	}
	Ts = append(Ts, 63, 64, 65, 129, 300)
	seen = shapesSeen{}
	for _, T := range Ts {
		windows := 1 + rng.IntN(2)
		buckets := make([]fp.Element, windows*T*8)
		want := make([]bls12381.G2Jac, windows)
		for j := 0; j < windows; j++ {
			pick := bucketPick(rng, T, npts)
			var running, total bls12381.G2Jac
			for b := T - 1; b >= 0; b-- {
				if pick[b] >= 0 {
					xyzzG2(rng, &p2[pick[b]], buckets[(j*T+b)*8:])
					running.AddMixed(&p2[pick[b]])
				} else {
					xyzzG2(rng, &bls12381.G2Affine{}, buckets[(j*T+b)*8:])
				}
				total.AddAssign(&running)
			}
			want[j] = total
		}
		for _, c := range reduceCases(rng, windows, T) {
			seen.add(t, T, windows, c)
			got, pairs, err := hostReduce(2, buckets, T, windows, c.cap, c.fixed, c.stop)
			if err != nil {
				t.Fatal(err)
			}
			checkPairs(t, "G2", T, windows, c, pairs)
			for j := 0; j < windows; j++ {
				if g := windowSumG2(got, j, windows, pairs); !g.Equal(&want[j]) {
					t.Fatalf("G2 T=%d windows=%d cap=%d fixed=%g stop=%d (%d pairs): window %d differs from Σ(b+1)·S_b", T, windows, c.cap, c.fixed, c.stop, pairs, j)
				}
			}
		}
	}
	seen.check(t, "G2")
}

// reduceCase is one run of the reduction: its level planner's resident
// threads and cost of a level, and where the device stops (1: at one pair
// a window).
type reduceCase struct {
	cap   int
	fixed float64
	stop  int
}

// reduceCases are every planners setting run to the end, and one of them (drawn)
// stopped at a drawn stop in [2, windows·T + 1], as G16_MSM_HOST_TAIL stops
// (the last level's pairs left to the host; none run when the stop is at
// least windows·T).
func reduceCases(rng *mrand.Rand, windows, T int) []reduceCase {
	var cs []reduceCase
	ps := planners(windows, T)
	for _, p := range ps {
		p.stop = 1
		cs = append(cs, p)
	}
	p := ps[rng.IntN(len(ps))]
	p.stop = 2 + rng.IntN(windows*T)
	return append(cs, p)
}

// checkPairs checks the pairs a window the reduction left: one when run to
// the end; else at most the stop in all, and more than one only where the
// stop was reached with more than one a window.
func checkPairs(t *testing.T, curve string, T, windows int, c reduceCase, pairs int) {
	t.Helper()
	switch {
	case pairs < 1 || pairs > T:
		t.Fatalf("%s T=%d windows=%d stop=%d: %d pairs a window", curve, T, windows, c.stop, pairs)
	case c.stop == 1 && pairs != 1:
		t.Fatalf("%s T=%d windows=%d: run to the end, %d pairs a window", curve, T, windows, pairs)
	case pairs > 1 && windows*pairs > c.stop:
		t.Fatalf("%s T=%d windows=%d stop=%d: %d pairs a window, past the stop", curve, T, windows, c.stop, pairs)
	case windows*T <= c.stop && pairs != T:
		t.Fatalf("%s T=%d windows=%d stop=%d: %d pairs a window, want all %d (no level)", curve, T, windows, c.stop, pairs, T)
	}
}

// TestReduceErrorsHost: the entry point's argument checks.
func TestReduceErrorsHost(t *testing.T) {
	for _, c := range []struct {
		curve, T, windows, cap int
		fixed                  float64
		stop                   int
	}{{9, 1, 1, 1, 0, 1}, {0, 1, 1, 1, 0, 1}, {1, 1, 1, 0, 0, 1}, {1, 1, 65, 1, 0, 1}, {1, 2, 1, 1, 0, 0}, {1, 2, 1, 1, -1, 1}, {1, 2, 1, 1, math.NaN(), 1}} {
		b := make([]fp.Element, 8*c.T*c.windows)
		if _, _, err := hostReduce(c.curve, b, c.T, c.windows, c.cap, c.fixed, c.stop); err == nil {
			t.Errorf("hostReduce(curve %d, T %d, windows %d, cap %d, fixed %g, stop %d): no error", c.curve, c.T, c.windows, c.cap, c.fixed, c.stop)
		}
		if c.curve == 1 {
			if _, err := reducePlan(c.T, c.windows, c.cap, c.fixed, c.stop); err == nil {
				t.Errorf("reducePlan(T %d, windows %d, cap %d, fixed %g, stop %d): no error", c.T, c.windows, c.cap, c.fixed, c.stop)
			}
		}
	}
}

// TestReducePlanHost: the level planner (msm_reduce.cuh's plan_levels) on
// random shapes, from a few buckets to 2^24 a window: its levels reduce to
// one pair a window (or stop where windows·T ≤ stop, and not before); from
// 2^20 buckets the first level is a segment of 16, as the scratch model
// (scratch.go) counts. And its two regimes: where every level fits the
// device at once and a level costs nothing beside its additions, depth
// decides and the levels after the first are pairs; on one thread, work
// decides and no level of more than 16 pairs a window is pairs. A higher
// cost a level never gives more levels.
func TestReducePlanHost(t *testing.T) {
	rng := testRand(t)
	check := func(T, windows, cap int, fixed float64, stop int) []int {
		t.Helper()
		sh, err := reducePlan(T, windows, cap, fixed, stop)
		if err != nil {
			t.Fatal(err)
		}
		n := T
		for i, lg := range sh {
			if lg < 1 || lg > 4 {
				t.Fatalf("T=%d windows=%d cap=%d fixed=%g stop=%d: level %d has lg m = %d", T, windows, cap, fixed, stop, i, lg)
			}
			if n <= 1 || n*windows <= stop {
				t.Fatalf("T=%d windows=%d cap=%d fixed=%g stop=%d: level %d of %v runs on %d pairs a window", T, windows, cap, fixed, stop, i, sh, n)
			}
			n = (n + 1<<lg - 1) >> lg
		}
		if n > 1 && n*windows > stop {
			t.Fatalf("T=%d windows=%d cap=%d fixed=%g stop=%d: plan %v leaves %d pairs a window", T, windows, cap, fixed, stop, sh, n)
		}
		if T*windows >= 1<<20 && stop < T*windows && sh[0] != 4 {
			t.Fatalf("T=%d windows=%d cap=%d fixed=%g: %d buckets, first level m = %d (the scratch model counts 16)", T, windows, cap, fixed, T*windows, 1<<sh[0])
		}
		return sh
	}
	for range 300 {
		T := 1 + rng.IntN(1<<(1+rng.IntN(24)))
		windows := 1 + rng.IntN(64)
		stop := 1
		if rng.IntN(3) == 0 {
			stop = 1 + rng.IntN(64)
		}
		cap := 1 + rng.IntN(1<<(1+rng.IntN(20)))
		fixed := rng.Float64() * 8
		if more := check(T, windows, cap, 4*fixed, stop); len(more) > len(check(T, windows, cap, fixed, stop)) {
			t.Errorf("T=%d windows=%d cap=%d: fixed %g gives %d levels, %g fewer", T, windows, cap, 4*fixed, len(more), fixed)
		}
	}
	for _, T := range []int{256, 2048, 1 << 12, 1 << 16, 1 << 21} {
		for _, windows := range []int{1, 8, 32} {
			if sh := check(T, windows, T*windows*2, 0, 1); T*windows < 1<<20 {
				for i, lg := range sh[1:] {
					if lg != 1 {
						t.Errorf("T=%d windows=%d, every level in one wave: level %d of %v is not pairs", T, windows, i+1, sh)
					}
				}
			}
			sh, n := check(T, windows, 1, 0, 1), T
			for i, lg := range sh {
				if lg == 1 && n > 16 {
					t.Errorf("T=%d windows=%d on one thread: level %d of %v is pairs over %d a window", T, windows, i, sh, n)
				}
				n = (n + 1<<lg - 1) >> lg
			}
		}
	}
}
