//go:build cuda

package cuda

import (
	mrand "math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
)

// batchCfgs are the window, task cap and flags the batch-affine tests run
// with (G16_MSM_BATCH_AFFINE added): several windows, task lengths from 2
// to the default 8, with and without the split and the task sort.
var batchCfgs = []struct{ w, task, flags int }{
	{0, 0, 0}, {4, 2, 0}, {5, 3, 0}, {6, 0, msmNoSplit}, {5, 2, msmNoTaskSort}, {8, 5, msmNoSplit | msmNoTaskSort},
}

// repeatedBases: bases in equal pairs with scalars equal or opposite in
// pairs, and two points at infinity, so that buckets hold P and P, or P and
// −P, and the batch-affine path takes its exceptional cases.
func repeatedBases(rng *mrand.Rand, n int) ([]bls12381.G1Affine, []fr.Element) {
	p := randG1(rng, n)
	for i := 1; i < len(p); i += 2 {
		p[i] = p[i-1]
	}
	p[20], p[21] = bls12381.G1Affine{}, bls12381.G1Affine{}
	s := randScalars(rng, n)
	for i := 1; i < len(s); i += 4 {
		s[i].Neg(&s[i-1])
	}
	for i := 3; i < len(s); i += 4 {
		s[i] = s[i-1]
	}
	return p, s
}

// TestMSMBatchAffineHost runs the batch-affine first level on the host
// against gnark: the edge cases (points at infinity, 0 and ±1 scalars),
// repeated bases, random and 0/1-heavy scalars at several sizes.
func TestMSMBatchAffineHost(t *testing.T) {
	rng := testRand(t)
	check := func(name string, p []bls12381.G1Affine, s []fr.Element) {
		want := refG1(p, s)
		for _, cfg := range batchCfgs {
			got, err := hostMSMG1(p, s, cfg.w, cfg.task, cfg.flags|msmBatchAffine)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(&want) {
				t.Errorf("G1 %s (w=%d task=%d flags %d): batch-affine host pipeline differs from gnark", name, cfg.w, cfg.task, cfg.flags)
			}
		}
	}
	for _, c := range edgeCases(rng, 24) {
		check(c.name, c.g1, c.scalars)
	}
	p, s := repeatedBases(rng, 50)
	check("repeated bases", p, s)
	for _, n := range []int{1, 2, 3, 100, 1000} {
		p := randG1(rng, n)
		check("random", p, randScalars(rng, n))
		check("0/1-heavy", p, zeroOneHeavy(rng, n, 90))
	}
}

// TestMSMBatchAffine is TestMSMBatchAffineHost on the GPU, with larger
// sizes (to 2^18, 2^14 with -short), against gnark.
func TestMSMBatchAffine(t *testing.T) {
	newTestBackend(t) // skips the test when there is no GPU
	rng := testRand(t)
	maxLog := 18
	if testing.Short() {
		maxLog = 14
	}
	for _, cfg := range batchCfgs {
		opts := []Option{withMSMFlags(cfg.flags | msmBatchAffine)}
		if cfg.w != 0 {
			opts = append(opts, WithMSMWindow(cfg.w))
		}
		if cfg.task != 0 {
			opts = append(opts, withMaxTask(cfg.task))
		}
		b := newTestBackend(t, opts...)
		check := func(name string, p []bls12381.G1Affine, s []fr.Element) {
			if got, want := gpuG1(t, b, p, s), refG1(p, s); !got.Equal(&want) {
				t.Errorf("G1 %s n=%d (w=%d task=%d flags %d): batch-affine GPU MSM differs from gnark", name, len(s), cfg.w, cfg.task, cfg.flags)
			}
		}
		for _, c := range edgeCases(rng, 300) {
			check(c.name, c.g1, c.scalars)
		}
		p, s := repeatedBases(rng, 1000)
		check("repeated bases", p, s)
		for _, n := range []int{5, 1023, 1 << 12, 1<<maxLog + 7} {
			p := randG1(rng, n)
			check("random", p, randScalars(rng, n))
			check("0/1-heavy", p, zeroOneHeavy(rng, n, 90))
		}
	}
}

// TestScratchBoundBatchAffine is TestScratchBound's G1 check for the
// batch-affine path: the device's peak stays within Scratch.
func TestScratchBoundBatchAffine(t *testing.T) {
	rng := testRand(t)
	b := newTestBackend(t, withMSMFlags(msmBatchAffine))
	for i, n := range []int{1 << 12, 1 << 16, 1 << 20, 1 << 16} {
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
		t.Logf("G1 batch-affine n=%d: scratch peak %d bytes, Scratch %d (%.2f)", n, used, bound, float64(used)/float64(bound))
		if used > bound || used <= 0 {
			t.Errorf("G1 batch-affine n=%d: scratch peak %d bytes, Scratch says %d", n, used, bound)
		}
		if want := refG1(p, s); !r.Equal(&want) {
			t.Errorf("G1 batch-affine n=%d: GPU differs from gnark", n)
		}
		_ = b.Free(nil, bb)
		_ = b.Free(nil, sb)
	}
}
