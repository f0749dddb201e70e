//go:build cuda

package cuda

import (
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
)

// TestScratchBound: the peak of device memory during an MSM, less what was
// in use before it, stays within what Scratch reports, for G1 and G2 at a
// few sizes (random scalars and distinct bases; and 0/1-heavy scalars, which
// take the split's path).
func TestScratchBound(t *testing.T) {
	rng := testRand(t)
	b := newTestBackend(t)
	for i, n := range []int{1 << 12, 1 << 16, 1 << 20, 1 << 12, 1 << 16} {
		p, s := randG1(rng, n), randScalars(rng, n)
		if i >= 3 {
			s = zeroOneHeavy(rng, n, 90)
		}
		bb, sb := upload(t, b, p), upload(t, b, s)
		before := b.Memory().InUse
		b.PeakMemory(true)
		var r bls12381.G1Jac
		if err := b.MSMG1(nil, ecc.BLS12_381, backend.ValueBytes(&r), bb, 0, sb, n); err != nil {
			t.Fatal(err)
		}
		used, bound := b.PeakMemory(false)-before, b.Scratch(backend.KernelMSMG1, ecc.BLS12_381, n)
		t.Logf("G1 n=%d: scratch peak %d bytes, Scratch %d (%.2f)", n, used, bound, float64(used)/float64(bound))
		if used > bound || used <= 0 {
			t.Errorf("G1 n=%d: scratch peak %d bytes, Scratch says %d", n, used, bound)
		}
		_ = b.Free(nil, bb)
		_ = b.Free(nil, sb)
	}
	for i, n := range []int{1 << 12, 1 << 16, 1 << 12} {
		p, s := randG2(rng, n), randScalars(rng, n)
		if i >= 2 {
			s = zeroOneHeavy(rng, n, 90)
		}
		bb, sb := upload(t, b, p), upload(t, b, s)
		before := b.Memory().InUse
		b.PeakMemory(true)
		var r bls12381.G2Jac
		if err := b.MSMG2(nil, ecc.BLS12_381, backend.ValueBytes(&r), bb, 0, sb, n); err != nil {
			t.Fatal(err)
		}
		used, bound := b.PeakMemory(false)-before, b.Scratch(backend.KernelMSMG2, ecc.BLS12_381, n)
		t.Logf("G2 n=%d: scratch peak %d bytes, Scratch %d (%.2f)", n, used, bound, float64(used)/float64(bound))
		if used > bound || used <= 0 {
			t.Errorf("G2 n=%d: scratch peak %d bytes, Scratch says %d", n, used, bound)
		}
		_ = b.Free(nil, bb)
		_ = b.Free(nil, sb)
	}
}

// TestMSMShorterPasses: under a memory limit that leaves room for half of
// an MSM's scratch, the MSM runs in shorter passes and still equals
// gnark-crypto's.
func TestMSMShorterPasses(t *testing.T) {
	rng := testRand(t)
	n := 1 << 18
	p, s := randG1(rng, n), randScalars(rng, n)
	probe := newTestBackend(t)
	inputs := int64(n) * (curve.Must(ecc.BLS12_381).G1AffineBytes + curve.Must(ecc.BLS12_381).FrBytes)
	b := newTestBackend(t, WithMemoryLimit(inputs+probe.Scratch(backend.KernelMSMG1, ecc.BLS12_381, n)/2))
	got := gpuG1(t, b, p, s)
	if want := refG1(p, s); !got.Equal(&want) {
		t.Fatal("MSM in shorter passes differs from gnark")
	}
	if tm := b.LastMSMTiming(); tm.Passes < 2 {
		t.Errorf("%d passes; want the MSM split", tm.Passes)
	}
}

// TestOwnPool: each Backend has its own memory pool: bytes one caches are
// not in the other's count, though both are on GPU 0.
func TestOwnPool(t *testing.T) {
	a, b := newTestBackend(t), newTestBackend(t)
	if err := a.TrimPool(0); err != nil {
		t.Fatal(err)
	}
	if err := b.TrimPool(0); err != nil {
		t.Fatal(err)
	}
	buf, err := a.Alloc(nil, 64<<20)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Free(nil, buf); err != nil {
		t.Fatal(err)
	}
	if err := a.Sync(); err != nil {
		t.Fatal(err)
	}
	if m := a.Memory(); m.Cached < 64<<20 {
		t.Errorf("a caches %d bytes after freeing 64 MiB", m.Cached)
	}
	if m := b.Memory(); m.Cached != 0 {
		t.Errorf("b's pool caches %d bytes that a freed", m.Cached)
	}
}
