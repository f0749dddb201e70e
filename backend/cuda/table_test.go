//go:build cuda

package cuda

import (
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
)

// Tables of precomputed multiples (table.go): the table against gnark's
// scalar multiplication, and MSMs over tables against gnark's MultiExp,
// with copies c = 1, 2, 3, c = nw and c > nw, windows where c does not
// divide nw, random, 0/1-heavy and edge-case scalars, infinity among the
// bases.

// tableShape is one (window, copies) of a table test.
type tableShape struct{ w, copies int }

// tableShapes returns shapes for n points: c = 1, 2, 3, nw and nw + 3 at
// window 5 (nw = 51: 2 and 3 do not both divide it), c = 5 at window 8
// (nw = 32), c = nw at window 13 and the window TableWindow picks for 4
// copies.
func tableShapes(n int) []tableShape {
	return []tableShape{{5, 1}, {5, 2}, {5, 3}, {5, 51}, {5, 54}, {8, 5}, {13, 20}, {TableWindow(n, 4), 4}}
}

// pow2 is 2^e as a big.Int.
func pow2(e int) *big.Int { return new(big.Int).Lsh(big.NewInt(1), uint(e)) }

func TestTablePrecomputeHost(t *testing.T) {
	rng := testRand(t)
	const n, copies, w = 70, 4, 7
	p1, p2 := randG1(rng, n), randG2(rng, n)
	p1[3], p2[5] = bls12381.G1Affine{}, bls12381.G2Affine{} // infinity stays infinity
	t1, err := hostTable(p1, copies, w)
	if err != nil {
		t.Fatal(err)
	}
	t2, err := hostTable(p2, copies, w)
	if err != nil {
		t.Fatal(err)
	}
	for q := 0; q < copies; q++ {
		for i := 0; i < n; i++ {
			var e1 bls12381.G1Affine
			var e2 bls12381.G2Affine
			e1.ScalarMultiplication(&p1[i], pow2(w*q))
			e2.ScalarMultiplication(&p2[i], pow2(w*q))
			if !t1[q*n+i].Equal(&e1) {
				t.Fatalf("G1 copy %d point %d: table differs from 2^%d·P", q, i, w*q)
			}
			if !t2[q*n+i].Equal(&e2) {
				t.Fatalf("G2 copy %d point %d: table differs from 2^%d·P", q, i, w*q)
			}
		}
	}
}

func TestTableMSMHost(t *testing.T) {
	rng := testRand(t)
	check1 := func(name string, p []bls12381.G1Affine, s []fr.Element, sh tableShape, task, flags int) {
		t.Helper()
		tb, err := hostTable(p, sh.copies, sh.w)
		if err != nil {
			t.Fatal(err)
		}
		win, nsums, pairs, shift, err := hostTableMSM(tb, sh.copies, sh.w, s, task, flags)
		if err != nil {
			t.Fatal(err)
		}
		got, want := combineG1(win, nsums, pairs, shift), refG1(p, s)
		if !got.Equal(&want) {
			t.Errorf("G1 %s n=%d w=%d copies=%d task=%d flags=%d: differs from gnark", name, len(p), sh.w, sh.copies, task, flags)
		}
		if nw := (255 + sh.w - 1) / sh.w; nsums > (nw+min(sh.copies, nw)-1)/min(sh.copies, nw) {
			t.Errorf("G1 %s w=%d copies=%d: %d bucket sets", name, sh.w, sh.copies, nsums)
		}
	}
	for _, c := range edgeCases(rng, 24) {
		for _, sh := range tableShapes(24) {
			check1(c.name, c.g1, c.scalars, sh, 0, 0)
		}
		check1(c.name, c.g1, c.scalars, tableShape{6, 3}, 2, msmNoSplit)
		check1(c.name, c.g1, c.scalars, tableShape{6, 7}, 3, msmFanin8)
		check1(c.name, c.g1, c.scalars, tableShape{7, 12}, 0, msmHostTail)
	}
	for _, n := range []int{1, 3, 300} {
		p := randG1(rng, n)
		for _, s := range [][]fr.Element{randScalars(rng, n), zeroOneHeavy(rng, n, 90)} {
			for _, sh := range tableShapes(n) {
				check1("random", p, s, sh, 0, 0)
			}
		}
	}
	// 2^12 points, a table over more points than the MSM reads (stride
	// above n).
	p := randG1(rng, 1<<12)
	p[17] = bls12381.G1Affine{}
	s := randScalars(rng, 1<<12)
	check1("2^12", p, s, tableShape{9, 3}, 0, 0)
	check1("2^12, host tail", p, s, tableShape{9, 12}, 0, msmHostTail)
	{
		// 3 sets of 256 buckets: pairs down to 16 a set (48 ≤ 64), left to the host.
		tb, err := hostTable(p, 12, 9)
		if err != nil {
			t.Fatal(err)
		}
		win, nsums, pairs, shift, err := hostTableMSM(tb, 12, 9, s, 0, msmHostTail)
		if err != nil {
			t.Fatal(err)
		}
		if nsums != 3 || pairs != 16 {
			t.Errorf("2^12, w=9, 12 copies, host tail: %d sets of %d pairs, want 3 of 16", nsums, pairs)
		}
		if got, want := combineG1(win, nsums, pairs, shift), refG1(p, s); !got.Equal(&want) {
			t.Error("2^12, w=9, 12 copies, host tail: differs from gnark")
		}
	}
	check1("2^12, host tail, tasks of 3", p, s, tableShape{6, 8}, 3, msmHostTail)
	tb, err := hostTable(p, 4, 10)
	if err != nil {
		t.Fatal(err)
	}
	win, nsums, pairs, shift, err := hostTableMSM(tb, 4, 10, s[:1000], 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := combineG1(win, nsums, pairs, shift), refG1(p[:1000], s[:1000]); !got.Equal(&want) {
		t.Errorf("G1 stride 2^12, n=1000: differs from gnark")
	}
	// G2: the slot kernels.
	for _, c := range edgeCases(rng, 8) {
		for _, sh := range []tableShape{{6, 1}, {6, 4}, {6, 43}, {7, 50}} {
			tb, err := hostTable(c.g2, sh.copies, sh.w)
			if err != nil {
				t.Fatal(err)
			}
			win, nsums, pairs, shift, err := hostTableMSM(tb, sh.copies, sh.w, c.scalars, 2, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := combineG2(win, nsums, pairs, shift), refG2(c.g2, c.scalars); !got.Equal(&want) {
				t.Errorf("G2 %s w=%d copies=%d: differs from gnark", c.name, sh.w, sh.copies)
			}
		}
	}
}

func TestTableErrorsHost(t *testing.T) {
	p := randG1(testRand(t), 4)
	for _, c := range []struct {
		copies, w int
		want      string
	}{{0, 8, "copies"}, {65, 8, "copies"}, {2, 3, "window"}, {2, 25, "window"}} {
		if _, err := hostTable(p, c.copies, c.w); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("copies %d w %d: error %v, want one naming %s", c.copies, c.w, err, c.want)
		}
	}
	s := randScalars(testRand(t), 4)
	tb, err := hostTable(p, 2, 8)
	if err != nil {
		t.Fatal(err)
	}
	// A table of copies > 1 needs its window; copies out of range (over a
	// table long enough that the stride stays 4 points).
	for _, c := range []struct {
		copies, w int
		want      string
	}{{2, 0, "window"}, {0, 8, "copies"}, {65, 8, "copies"}} {
		long := make([]bls12381.G1Affine, 4*max(c.copies, 1))
		copy(long, tb)
		if _, _, _, _, err := hostTableMSM(long, c.copies, c.w, s, 0, 0); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("msm copies %d w %d: error %v, want one naming %s", c.copies, c.w, err, c.want)
		}
	}
	// Flags that g16cuda.h does not list (those of kernels that left the
	// library among them) are refused, not ignored.
	for _, f := range []int{1, 2, 8, 32, 1 << 17, 1 << 20, 1 << 23} {
		if _, _, _, _, err := hostTableMSM(tb, 1, 0, s, 0, f); err == nil || !strings.Contains(err.Error(), "unknown flags") {
			t.Errorf("msm flags %d: error %v, want one naming unknown flags", f, err)
		}
	}
}

// TestTableMSM is TestTableMSMHost on the GPU, through PrecomputeBases and
// MSMG1/MSMG2: the results against gnark and against the plain MSM, a
// table over part of a buffer, the table retired by an Upload into its
// range, and its memory back after Free.
func TestTableMSM(t *testing.T) {
	g := newTestBackend(t)
	rng := testRand(t)
	const n = 1 << 12
	p1, p2 := randG1(rng, n), randG2(rng, n)
	p1[9], p2[11] = bls12381.G1Affine{}, bls12381.G2Affine{}
	for _, sc := range []struct {
		name string
		s    []fr.Element
	}{{"random", randScalars(rng, n)}, {"0/1-heavy", zeroOneHeavy(rng, n, 90)}} {
		sb := upload(t, g, sc.s)
		for _, sh := range append(tableShapes(n), tableShape{20, 13}, tableShape{22, 12}, tableShape{16, 4}) {
			b1, b2 := upload(t, g, p1), upload(t, g, p2)
			if err := g.PrecomputeBases(nil, ecc.BLS12_381, b1, 0, n, backend.KernelMSMG1, sh.copies, sh.w); err != nil {
				t.Fatal(err)
			}
			if err := g.PrecomputeBases(nil, ecc.BLS12_381, b2, 0, n, backend.KernelMSMG2, sh.copies, sh.w); err != nil {
				t.Fatal(err)
			}
			for _, m := range []int{n, n - 5} {
				var r1 bls12381.G1Jac
				if err := g.MSMG1(nil, ecc.BLS12_381, backend.ValueBytes(&r1), b1, 0, sb, m); err != nil {
					t.Fatal(err)
				}
				if tm := g.LastMSMTiming(); tm.Copies != sh.copies || tm.Window != sh.w {
					t.Errorf("G1 w=%d copies=%d: the MSM ran with w=%d copies=%d", sh.w, sh.copies, tm.Window, tm.Copies)
				}
				if want := refG1(p1[:m], sc.s[:m]); !r1.Equal(&want) {
					t.Errorf("G1 %s m=%d w=%d copies=%d: differs from gnark", sc.name, m, sh.w, sh.copies)
				}
				var r2 bls12381.G2Jac
				if err := g.MSMG2(nil, ecc.BLS12_381, backend.ValueBytes(&r2), b2, 0, sb, m); err != nil {
					t.Fatal(err)
				}
				if want := refG2(p2[:m], sc.s[:m]); !r2.Equal(&want) {
					t.Errorf("G2 %s m=%d w=%d copies=%d: differs from gnark", sc.name, m, sh.w, sh.copies)
				}
			}
			g.Free(nil, b1)
			g.Free(nil, b2)
		}
		g.Free(nil, sb)
	}

	// A table over the second half of a buffer: MSMs inside it use it,
	// MSMs reaching outside it do not; an Upload into it retires it.
	s := randScalars(rng, n)
	sb := upload(t, g, s)
	b1 := upload(t, g, p1)
	half := int64(n/2) * curve.Must(ecc.BLS12_381).G1AffineBytes
	before := g.Memory().InUse
	if err := g.PrecomputeBases(nil, ecc.BLS12_381, b1, half, n/2, backend.KernelMSMG1, 6, 0); err != nil {
		t.Fatal(err)
	}
	if used, want := g.Memory().InUse-before, TableBytes(backend.KernelMSMG1, ecc.BLS12_381, n/2, 6); used < want {
		t.Errorf("a table of %d bytes took %d bytes of the device's accounting", want, used)
	}
	if info := g.Tables(b1); len(info) != 1 || info[0].Copies != 6 || info[0].Window != TableWindow(n/2, 6) {
		t.Errorf("Tables: %+v", info)
	}
	run := func(off int64, m int, want bls12381.G1Jac, copies int, what string) {
		t.Helper()
		var r bls12381.G1Jac
		if err := g.MSMG1(nil, ecc.BLS12_381, backend.ValueBytes(&r), b1, off, sb, m); err != nil {
			t.Fatal(err)
		}
		if !r.Equal(&want) {
			t.Errorf("%s: differs from gnark", what)
		}
		if tm := g.LastMSMTiming(); tm.Copies != copies {
			t.Errorf("%s: ran with %d copies, want %d", what, tm.Copies, copies)
		}
	}
	run(half, n/2, refG1(p1[n/2:], s[:n/2]), 6, "second half")
	run(half+64*curve.Must(ecc.BLS12_381).G1AffineBytes, 100, refG1(p1[n/2+64:n/2+164], s[:100]), 6, "inside the second half")
	run(0, n, refG1(p1, s), 1, "whole buffer")
	// Rewrite one point of the table's range: the table is retired.
	q := randG1(rng, 1)
	if err := g.Upload(nil, b1, half+curve.Must(ecc.BLS12_381).G1AffineBytes, backend.AsBytes(q)); err != nil {
		t.Fatal(err)
	}
	p1[n/2+1] = q[0]
	run(half, n/2, refG1(p1[n/2:], s[:n/2]), 1, "after an Upload into the range")
	if info := g.Tables(b1); len(info) != 0 {
		t.Errorf("Tables after the Upload: %+v", info)
	}
	g.Free(nil, b1)
	g.Free(nil, sb)
	if err := g.Sync(); err != nil {
		t.Fatal(err)
	}
	if used := g.Memory().InUse; used > before {
		t.Errorf("after Free: %d bytes used, %d before the table", used, before)
	}
}

func TestTableErrors(t *testing.T) {
	g := newTestBackend(t)
	b := upload(t, g, randG1(testRand(t), 16))
	defer g.Free(nil, b)
	for _, c := range []struct {
		off       int64
		n         int
		k         backend.Kernel
		copies, w int
		want      string
	}{
		{0, 16, backend.KernelMSMG1, 0, 8, "copies"},
		{0, 16, backend.KernelMSMG1, 65, 8, "copies"},
		{0, 16, backend.KernelMSMG1, 2, 3, "window"},
		{0, 16, backend.KernelMSMG1, 2, 25, "window"},
		{0, 17, backend.KernelMSMG1, 2, 8, "n"},
		{0, 0, backend.KernelMSMG1, 2, 8, "n"},
		{8, 8, backend.KernelMSMG1, 2, 8, "off"},
		{0, 9, backend.KernelMSMG2, 2, 8, "n: 9 values"},
		{0, 16, backend.Kernel(9), 2, 8, "not an MSM"},
		{0, 1 << 27, backend.KernelMSMG1, 16, 8, "2^31"},
	} {
		err := g.PrecomputeBases(nil, ecc.BLS12_381, b, c.off, c.n, c.k, c.copies, c.w)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one naming %q", c, err, c.want)
		}
	}
}

// TestScratchBoundTables is TestScratchBound for MSMs over tables: the
// peak stays within msmTableScratch of the table's shape, and so within
// Scratch once the table is live; the result equals gnark's.
func TestScratchBoundTables(t *testing.T) {
	rng := testRand(t)
	b := newTestBackend(t)
	for _, c := range []struct {
		curve, lg, w, copies int
	}{{1, 16, 0, 12}, {1, 20, 0, 12}, {1, 20, 16, 4}, {1, 16, 0, 2}, {2, 16, 0, 8}, {2, 12, 20, 13}} {
		n := 1 << c.lg
		s := randScalars(rng, n)
		sb := upload(t, b, s)
		k := backend.KernelMSMG1
		var bb backend.Buffer
		var run func(bb backend.Buffer) bool
		if c.curve == 1 {
			p := randG1(rng, n)
			bb = upload(t, b, p)
			run = func(bb backend.Buffer) bool {
				var r bls12381.G1Jac
				if err := b.MSMG1(nil, ecc.BLS12_381, backend.ValueBytes(&r), bb, 0, sb, n); err != nil {
					t.Fatal(err)
				}
				want := refG1(p, s)
				return r.Equal(&want)
			}
		} else {
			k = backend.KernelMSMG2
			p := randG2(rng, n)
			bb = upload(t, b, p)
			run = func(bb backend.Buffer) bool {
				var r bls12381.G2Jac
				if err := b.MSMG2(nil, ecc.BLS12_381, backend.ValueBytes(&r), bb, 0, sb, n); err != nil {
					t.Fatal(err)
				}
				want := refG2(p, s)
				return r.Equal(&want)
			}
		}
		t0 := time.Now()
		if err := b.PrecomputeBases(nil, ecc.BLS12_381, bb, 0, n, k, c.copies, c.w); err != nil {
			t.Fatal(err)
		}
		built := time.Since(t0)
		info := b.Tables(bb)[0]
		before := b.Memory().InUse
		b.PeakMemory(true)
		if !run(bb) {
			t.Errorf("%v 2^%d w=%d copies=%d: differs from gnark", k, c.lg, info.Window, c.copies)
		}
		used := b.PeakMemory(false) - before
		bound := msmTableScratch(blsGroup(c.curve), n, b.cfg.msmChunk, info.Window, c.copies, b.cfg.msmMaxTask)
		t.Logf("%v 2^%d w=%d copies=%d: table built in %v; scratch peak %d bytes, bound %d (%.2f)", k, c.lg, info.Window, c.copies, built, used, bound, float64(used)/float64(bound))
		if used > bound || used <= 0 {
			t.Errorf("%v 2^%d w=%d copies=%d: scratch peak %d bytes, bound %d", k, c.lg, info.Window, c.copies, used, bound)
		}
		if s := b.Scratch(k, ecc.BLS12_381, n); s < bound {
			t.Errorf("%v 2^%d: Scratch %d with the table live, below its bound %d", k, c.lg, s, bound)
		}
		_ = b.Free(nil, bb)
		_ = b.Free(nil, sb)
	}
}

// TestTableConfiguredWindow: on a backend with WithMSMWindow, a table built
// with w = 0 has that window, and the MSMs read it.
func TestTableConfiguredWindow(t *testing.T) {
	g := newTestBackend(t, WithMSMWindow(11))
	rng := testRand(t)
	const n = 1000
	p, s := randG1(rng, n), randScalars(rng, n)
	bb, sb := upload(t, g, p), upload(t, g, s)
	defer g.Free(nil, bb)
	defer g.Free(nil, sb)
	if err := g.PrecomputeBases(nil, ecc.BLS12_381, bb, 0, n, backend.KernelMSMG1, 5, 0); err != nil {
		t.Fatal(err)
	}
	if info := g.Tables(bb); len(info) != 1 || info[0].Window != 11 {
		t.Fatalf("Tables: %+v, want one of window 11", info)
	}
	var r bls12381.G1Jac
	if err := g.MSMG1(nil, ecc.BLS12_381, backend.ValueBytes(&r), bb, 0, sb, n); err != nil {
		t.Fatal(err)
	}
	if tm := g.LastMSMTiming(); tm.Copies != 5 || tm.Window != 11 {
		t.Errorf("the MSM ran with %d copies at w=%d, want 5 at 11", tm.Copies, tm.Window)
	}
	if want := refG1(p, s); !r.Equal(&want) {
		t.Error("differs from gnark")
	}
}
