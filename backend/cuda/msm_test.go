//go:build cuda

package cuda

import (
	"errors"
	"math/big"
	mrand "math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
)

// MSM tests: against gnark-crypto's MultiExp (the reference) on fresh
// random inputs, at every power of two and at odd lengths, and on the edge
// cases of Pippenger: scalars 0, 1, 2, r−1, (r±1)/2; the point at infinity;
// P beside −P; a repeated base; buckets far larger than the rest. The host
// pipeline's tests on every curve are internal/bls12381's (TestMSMHost,
// TestMSMShaShapeHost, and their generated copies).

func refG1(points []bls12381.G1Affine, scalars []fr.Element) bls12381.G1Jac {
	var r bls12381.G1Jac
	if _, err := r.MultiExp(points, scalars, ecc.MultiExpConfig{}); err != nil {
		panic(err)
	}
	return r
}

func refG2(points []bls12381.G2Affine, scalars []fr.Element) bls12381.G2Jac {
	var r bls12381.G2Jac
	if _, err := r.MultiExp(points, scalars, ecc.MultiExpConfig{}); err != nil {
		panic(err)
	}
	return r
}

// special returns the named scalars of the edge cases.
func special() map[string]fr.Element {
	var zero, one, two, rm1, half, halfUp fr.Element
	one.SetOne()
	two.SetUint64(2)
	rm1.SetInt64(-1)
	r := fr.Modulus()
	h := new(big.Int).Rsh(new(big.Int).Sub(r, big.NewInt(1)), 1)
	half.SetBigInt(h)
	halfUp.SetBigInt(h.Add(h, big.NewInt(1)))
	return map[string]fr.Element{"0": zero, "1": one, "2": two, "r-1": rm1, "(r-1)/2": half, "(r+1)/2": halfUp}
}

// edgeCase is one MSM input: scalars and points (G1 and G2 built alike).
type edgeCase struct {
	name    string
	scalars []fr.Element
	g1      []bls12381.G1Affine
	g2      []bls12381.G2Affine
}

func edgeCases(rng *mrand.Rand, n int) []edgeCase {
	g1 := randG1(rng, n)
	g2 := randG2(rng, n)
	var cases []edgeCase
	add := func(name string, s []fr.Element, p1 []bls12381.G1Affine, p2 []bls12381.G2Affine) {
		cases = append(cases, edgeCase{name, s, p1, p2})
	}
	for name, v := range special() {
		// Every scalar the special value, and the special value among random ones.
		all := make([]fr.Element, n)
		mixed := randScalars(rng, n)
		for i := range all {
			all[i] = v
			if i%3 == 0 {
				mixed[i] = v
			}
		}
		if name != "0" {
			add("all "+name, all, g1, g2)
		}
		add("mixed "+name, mixed, g1, g2)
	}
	// Mostly zeros, a few random.
	sparse := make([]fr.Element, n)
	for i := range sparse {
		if rng.IntN(16) == 0 {
			sparse[i] = randFr(rng)
		}
	}
	add("mostly zeros", sparse, g1, g2)
	// Witness-like: zeros and ones, small values, some random.
	wit := make([]fr.Element, n)
	for i := range wit {
		switch k := rng.IntN(10); {
		case k < 4:
		case k < 8:
			wit[i].SetOne()
		case k < 9:
			wit[i].SetUint64(uint64(rng.IntN(1000)))
		default:
			wit[i] = randFr(rng)
		}
	}
	add("witness-like", wit, g1, g2)
	// Only 0, 1 and −1: the split leaves Pippenger nothing.
	signs := make([]fr.Element, n)
	for i := range signs {
		switch rng.IntN(3) {
		case 1:
			signs[i].SetOne()
		case 2:
			signs[i].SetInt64(-1)
		}
	}
	add("zeros and ±1", signs, g1, g2)
	add("0/1-heavy", zeroOneHeavy(rng, n, 90), g1, g2)
	// Infinity among the bases, P beside −P, a repeated base.
	s := randScalars(rng, n)
	inf1 := append([]bls12381.G1Affine(nil), g1...)
	inf2 := append([]bls12381.G2Affine(nil), g2...)
	neg1 := append([]bls12381.G1Affine(nil), g1...)
	neg2 := append([]bls12381.G2Affine(nil), g2...)
	rep1 := append([]bls12381.G1Affine(nil), g1...)
	rep2 := append([]bls12381.G2Affine(nil), g2...)
	negS := append([]fr.Element(nil), s...)
	for i := 0; i < n; i++ {
		if i%5 == 0 {
			inf1[i] = bls12381.G1Affine{}
			inf2[i] = bls12381.G2Affine{}
		}
		if i%2 == 1 {
			neg1[i].Neg(&neg1[i-1])
			neg2[i].Neg(&neg2[i-1])
			negS[i] = negS[i-1] // P·s + (−P)·s = 0 pairwise, and all land in one bucket
		}
		if i%4 != 0 {
			rep1[i] = rep1[0]
			rep2[i] = rep2[0]
		}
	}
	add("infinity bases", s, inf1, inf2)
	add("P beside -P, same scalar", negS, neg1, neg2)
	add("P beside -P, random scalars", s, neg1, neg2)
	add("repeated base", s, rep1, rep2)
	sameAll := make([]fr.Element, n)
	for i := range sameAll {
		sameAll[i] = s[0]
	}
	add("repeated base and scalar", sameAll, rep1, rep2) // P = Q inside one bucket: doubling
	return cases
}

// gpuInputs holds bases and scalars resident on the device.
type gpuInputs struct {
	bases, scalars backend.Buffer
}

func upload[T any](t testing.TB, b *Backend, v []T) backend.Buffer {
	t.Helper()
	raw := backend.AsBytes(v)
	buf, err := b.Alloc(nil, int64(len(raw)))
	if err != nil {
		t.Fatalf("Alloc(%d): %v", len(raw), err)
	}
	if err := b.Upload(nil, buf, 0, raw); err != nil {
		t.Fatalf("Upload: %v", err)
	}
	return buf
}

func gpuG1(t testing.TB, b *Backend, p []bls12381.G1Affine, s []fr.Element) bls12381.G1Jac {
	t.Helper()
	bb, sb := upload(t, b, p), upload(t, b, s)
	defer b.Free(nil, bb)
	defer b.Free(nil, sb)
	var r bls12381.G1Jac
	if err := b.MSMG1(nil, ecc.BLS12_381, backend.ValueBytes(&r), bb, 0, sb, len(s)); err != nil {
		t.Fatalf("MSMG1(n=%d): %v", len(s), err)
	}
	return r
}

func gpuG2(t testing.TB, b *Backend, p []bls12381.G2Affine, s []fr.Element) bls12381.G2Jac {
	t.Helper()
	bb, sb := upload(t, b, p), upload(t, b, s)
	defer b.Free(nil, bb)
	defer b.Free(nil, sb)
	var r bls12381.G2Jac
	if err := b.MSMG2(nil, ecc.BLS12_381, backend.ValueBytes(&r), bb, 0, sb, len(s)); err != nil {
		t.Fatalf("MSMG2(n=%d): %v", len(s), err)
	}
	return r
}

// TestMSMSmall is the quick GPU check (also run under compute-sanitizer):
// edge cases and a few sizes, with forced windows and task caps too.
func TestMSMSmall(t *testing.T) {
	rng := testRand(t)
	optSets := [][]Option{nil, {WithMSMWindow(4), withMaxTask(2)}, {WithMSMChunk(7), withMSMFlags(msmNoSplit)},
		// The reduction's last pairs summed on the host: a window of 8 or more (at most 32 windows) leaves pairs
		// to the host (w = 12: 22 windows of 2 pairs; w = 10: 26 windows of 2 pairs).
		{WithMSMWindow(12), withMSMFlags(msmHostTail)}, {WithMSMWindow(10), withMaxTask(3), withMSMFlags(msmHostTail | msmFanin8)}}
	n := 300
	if testing.Short() { // also the size for compute-sanitizer; with a task cap of 2 and the host tail
		optSets, n = append(optSets[:2:2], optSets[3]), 40
	}
	for _, opts := range optSets {
		b := newTestBackend(t, opts...)
		for _, c := range edgeCases(rng, n) {
			if got, want := gpuG1(t, b, c.g1, c.scalars), refG1(c.g1, c.scalars); !got.Equal(&want) {
				t.Errorf("G1 %s (%d options): GPU differs from gnark", c.name, len(opts))
			}
			if got, want := gpuG2(t, b, c.g2, c.scalars), refG2(c.g2, c.scalars); !got.Equal(&want) {
				t.Errorf("G2 %s (%d options): GPU differs from gnark", c.name, len(opts))
			}
		}
	}
}

// TestMSMG1Sizes: every power of two 2^0..2^22 (2^16 with -short) and odd
// lengths, bases resident and read at an offset.
func TestMSMG1Sizes(t *testing.T) {
	b := newTestBackend(t)
	rng := testRand(t)
	maxLog := 22
	if testing.Short() {
		maxLog = 16
	}
	const off = 3
	n := 1<<maxLog + off
	p := randG1(rng, n)
	s := randScalars(rng, n)
	bb := upload(t, b, p)
	sb := upload(t, b, s[off:])
	sizes := []int{5, 77, 1023, 65537, 333333}
	for k := 0; k <= maxLog; k++ {
		sizes = append(sizes, 1<<k)
	}
	for _, m := range sizes {
		if m > n-off {
			continue
		}
		var got bls12381.G1Jac
		if err := b.MSMG1(nil, ecc.BLS12_381, backend.ValueBytes(&got), bb, off*curve.Must(ecc.BLS12_381).G1AffineBytes, sb, m); err != nil {
			t.Fatalf("MSMG1(n=%d): %v", m, err)
		}
		if want := refG1(p[off:off+m], s[off:off+m]); !got.Equal(&want) {
			t.Errorf("G1 n=%d: GPU differs from gnark", m)
		}
	}
}

// TestMSMG2Sizes: every power of two 2^0..2^20 (2^12 with -short) and odd lengths.
func TestMSMG2Sizes(t *testing.T) {
	b := newTestBackend(t)
	rng := testRand(t)
	maxLog := 20
	if testing.Short() {
		maxLog = 12
	}
	n := 1 << maxLog
	p := randG2(rng, n)
	s := randScalars(rng, n)
	bb, sb := upload(t, b, p), upload(t, b, s)
	sizes := []int{5, 77, 1023, 65537}
	for k := 0; k <= maxLog; k++ {
		sizes = append(sizes, 1<<k)
	}
	for _, m := range sizes {
		if m > n {
			continue
		}
		var got bls12381.G2Jac
		if err := b.MSMG2(nil, ecc.BLS12_381, backend.ValueBytes(&got), bb, 0, sb, m); err != nil {
			t.Fatalf("MSMG2(n=%d): %v", m, err)
		}
		if want := refG2(p[:m], s[:m]); !got.Equal(&want) {
			t.Errorf("G2 n=%d: GPU differs from gnark", m)
		}
	}
}

// TestMSMLargeBucket: 2^18 scalars equal to 1 (one bucket holds every point)
// and a witness-like mix, which the task split must spread.
func TestMSMLargeBucket(t *testing.T) {
	b := newTestBackend(t)
	rng := testRand(t)
	n := 1 << 18
	if testing.Short() {
		n = 1 << 14
	}
	p := randG1(rng, n)
	ones := make([]fr.Element, n)
	for i := range ones {
		ones[i].SetOne()
		if i%1000 == 999 {
			ones[i] = randFr(rng)
		}
	}
	if got, want := gpuG1(t, b, p, ones), refG1(p, ones); !got.Equal(&want) {
		t.Errorf("G1 mostly ones, n=%d: GPU differs from gnark", n)
	}
}

// TestOutOfMemory: an MSM that does not fit under the memory limit fails
// with ErrOutOfMemory, and the backend goes on working.
func TestOutOfMemory(t *testing.T) {
	rng := testRand(t)
	n := 1 << 16
	p := randG1(rng, n)
	s := randScalars(rng, n)
	inputs := int64(n) * (curve.Must(ecc.BLS12_381).G1AffineBytes + curve.Must(ecc.BLS12_381).FrBytes)
	b := newTestBackend(t, WithMemoryLimit(inputs+1<<20))
	if _, err := b.Alloc(nil, inputs+2<<20); !errors.Is(err, backend.ErrOutOfMemory) {
		t.Fatalf("Alloc past the limit: %v, want ErrOutOfMemory", err)
	}
	bb, sb := upload(t, b, p), upload(t, b, s)
	var r bls12381.G1Jac
	err := b.MSMG1(nil, ecc.BLS12_381, backend.ValueBytes(&r), bb, 0, sb, n)
	if !errors.Is(err, backend.ErrOutOfMemory) {
		t.Fatalf("MSMG1 past the limit: %v, want ErrOutOfMemory", err)
	}
	t.Logf("MSM past the limit: %v", err)
	if st := b.Memory(); st.InUse != inputs {
		t.Errorf("after the failed MSM, %d bytes in use, want %d (the inputs)", st.InUse, inputs)
	}
	// The backend still works: a small MSM fits.
	var small bls12381.G1Jac
	if err := b.MSMG1(nil, ecc.BLS12_381, backend.ValueBytes(&small), bb, 0, sb, 64); err != nil {
		t.Fatalf("small MSM after OOM: %v", err)
	}
	if want := refG1(p[:64], s[:64]); !small.Equal(&want) {
		t.Errorf("small MSM after OOM differs from gnark")
	}
	// Allocation failures from CUDA itself (no limit) are ErrOutOfMemory too.
	big := newTestBackend(t)
	if _, err := big.AllocDirect(1 << 50); !errors.Is(err, backend.ErrOutOfMemory) {
		t.Errorf("AllocDirect(2^50): %v, want ErrOutOfMemory", err)
	}
	if _, err := big.Alloc(nil, 1<<50); !errors.Is(err, backend.ErrOutOfMemory) {
		t.Errorf("Alloc(2^50): %v, want ErrOutOfMemory", err)
	} else {
		t.Logf("Alloc(2^50): %v", err)
	}
	if err := big.Sync(); err != nil {
		t.Errorf("Sync after OOM: %v", err)
	}
}

func withMaxTask(n int) Option {
	return func(c *config) error { c.msmMaxTask = n; return nil }
}
