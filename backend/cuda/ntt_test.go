//go:build cuda

package cuda

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/curve"
)

// The NTT and QuotientStep are checked against the CPU backend (gnark-crypto)
// bit for bit, on fresh random data each run (testRand logs the seed).

// nttVariant is one of the eight transforms NTTSpec describes.
type nttVariant struct {
	inverse bool
	order   backend.Order
	coset   bool
}

func (v nttVariant) String() string {
	s := "fwd"
	if v.inverse {
		s = "inv"
	}
	s += "-" + v.order.String()
	if v.coset {
		s += "-coset"
	}
	return s
}

func (v nttVariant) spec(logN int, shift fr.Element) backend.NTTSpec {
	return backend.NTTSpec{Curve: ecc.BLS12_381, LogN: logN, Inverse: v.inverse, Order: v.order, Coset: v.coset, CosetShift: backend.ValueBytes(&shift)}
}

func nttVariants() []nttVariant {
	var vs []nttVariant
	for _, inv := range []bool{false, true} {
		for _, o := range []backend.Order{backend.DIF, backend.DIT} {
			for _, c := range []bool{false, true} {
				vs = append(vs, nttVariant{inv, o, c})
			}
		}
	}
	return vs
}

// nttRandom returns n random field elements in Montgomery form: 32 random
// bytes reduced mod r (zero has probability about n/r).
func nttRandom(rng *rand.Rand, n int) []fr.Element {
	v := make([]fr.Element, n)
	var buf [32]byte
	for i := range v {
		for j := 0; j < 32; j += 8 {
			x := rng.Uint64()
			for k := 0; k < 8; k++ {
				buf[j+k] = byte(x >> (8 * k))
			}
		}
		v[i].SetBytes(buf[:])
	}
	return v
}

// nttShift returns a random coset shift g, with g^(2^32) ≠ 1 so that g·⟨ω⟩
// is a proper coset for every domain size.
func nttShift(rng *rand.Rand) fr.Element {
	for {
		g := nttRandom(rng, 1)[0]
		if g32 := square(g, 32); !g32.IsOne() {
			return g
		}
	}
}

// onBackend uploads x to a new buffer of be, runs f on it, and downloads the
// result into x.
func onBackend(tb testing.TB, be backend.Backend, x []fr.Element, f func(q backend.Queue, buf backend.Buffer) error) {
	tb.Helper()
	q, err := be.NewQueue()
	if err != nil {
		tb.Fatal(err)
	}
	defer q.Close()
	buf, err := be.Alloc(q, int64(len(x))*curve.Must(ecc.BLS12_381).FrBytes)
	if err != nil {
		tb.Fatal(err)
	}
	defer be.Free(q, buf)
	if err := be.Upload(q, buf, 0, backend.AsBytes(x)); err != nil {
		tb.Fatal(err)
	}
	if err := f(q, buf); err != nil {
		tb.Fatal(err)
	}
	if err := be.Download(q, backend.AsBytes(x), buf, 0); err != nil {
		tb.Fatal(err)
	}
	if err := q.Wait(); err != nil {
		tb.Fatal(err)
	}
}

func newCPU(tb testing.TB) *cpu.Backend {
	tb.Helper()
	c, err := cpu.New(cpu.WithTasks(runtime.NumCPU()))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	return c
}

// cpuNTT is the reference: the CPU backend's transform of a copy of x.
func cpuNTT(tb testing.TB, c *cpu.Backend, x []fr.Element, spec backend.NTTSpec) []fr.Element {
	tb.Helper()
	out := append([]fr.Element(nil), x...)
	onBackend(tb, c, out, func(q backend.Queue, buf backend.Buffer) error { return c.NTT(q, buf, spec) })
	return out
}

// sameElements reports the first index where got and want differ.
func sameElements(t *testing.T, what string, got, want []fr.Element) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d elements, want %d", what, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: element %d of %d: got %s, want %s", what, i, len(got), got[i].String(), want[i].String())
		}
	}
}

// nttTunes are pass shapes to check besides the default: many short passes
// on small blocks, and the largest blocks.
var nttTunes = []nttTune{{}, {maxK: 1, logBlock: 1, threads: 32}, {maxK: 3, logBlock: 5, threads: 32},
	{maxK: 4, logBlock: 4, threads: 64}, {maxK: 12, logBlock: 12, threads: 512}, {maxK: 8, logBlock: 11, threads: 128},
	{maxK: 10, logBlock: 11, threads: 256}, {maxK: 9, logBlock: 10, threads: 512}}

func (t nttTune) String() string {
	if t == (nttTune{}) {
		return "default"
	}
	return fmt.Sprintf("k%d-b%d-t%d", t.maxK, t.logBlock, t.threads)
}

// TestNTTHost checks the kernels' index logic with no GPU: the passes run on
// the host in every pass shape.
func TestNTTHost(t *testing.T) {
	rng := testRand(t)
	c := newCPU(t)
	maxLog := 12
	if testing.Short() {
		maxLog = 9
	}
	for logN := 0; logN <= maxLog; logN++ {
		for _, v := range nttVariants() {
			for _, tune := range nttTunes {
				name := fmt.Sprintf("n=2^%d/%v/%v", logN, v, tune)
				x := nttRandom(rng, 1<<logN)
				spec := v.spec(logN, nttShift(rng))
				want := cpuNTT(t, c, x, spec)
				if err := hostNTT(x, spec, tune); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				sameElements(t, name, x, want)
			}
		}
	}
}

// TestNTT compares every variant with the CPU backend at sizes 2^0..2^16,
// plus 2^20 (2^0..2^12 alone with -short).
func TestNTT(t *testing.T) {
	b := newTestBackend(t)
	rng := testRand(t)
	c := newCPU(t)
	sizes := []int{}
	maxLog := 16
	if testing.Short() {
		maxLog = 12
	}
	for logN := 0; logN <= maxLog; logN++ {
		sizes = append(sizes, logN)
	}
	if !testing.Short() {
		sizes = append(sizes, 20)
	}
	for _, logN := range sizes {
		for _, v := range nttVariants() {
			name := fmt.Sprintf("n=2^%d/%v", logN, v)
			x := nttRandom(rng, 1<<logN)
			spec := v.spec(logN, nttShift(rng))
			want := cpuNTT(t, c, x, spec)
			onBackend(t, b, x, func(q backend.Queue, buf backend.Buffer) error { return b.NTT(q, buf, spec) })
			sameElements(t, name, x, want)
		}
	}
}

// TestNTTShapes runs the non-default pass shapes on the GPU (many passes on
// small sizes, the largest blocks), against the CPU backend.
func TestNTTShapes(t *testing.T) {
	b := newTestBackend(t)
	rng := testRand(t)
	c := newCPU(t)
	for _, logN := range []int{1, 5, 9, 13, 14} {
		for _, v := range nttVariants() {
			for _, tune := range nttTunes[1:] {
				name := fmt.Sprintf("n=2^%d/%v/%v", logN, v, tune)
				x := nttRandom(rng, 1<<logN)
				spec := v.spec(logN, nttShift(rng))
				want := cpuNTT(t, c, x, spec)
				onBackend(t, b, x, func(q backend.Queue, buf backend.Buffer) error { return b.ntt(q, buf, spec, tune) })
				sameElements(t, name, x, want)
			}
		}
	}
}

// TestNTTRoundTrip runs a forward transform and its inverse in the other
// order on one queue, which must give the input back, the H computation's
// chain (inverse DIF, forward DIT on the coset, inverse DIF on the coset)
// included.
func TestNTTRoundTrip(t *testing.T) {
	b := newTestBackend(t)
	rng := testRand(t)
	sizes := []int{1, 2, 10, 11, 17, 21}
	if testing.Short() {
		sizes = sizes[:4]
	}
	for _, logN := range sizes {
		for _, coset := range []bool{false, true} {
			for _, first := range []backend.Order{backend.DIF, backend.DIT} {
				second := backend.DIT
				if first == backend.DIT {
					second = backend.DIF
				}
				g := nttShift(rng)
				fwd := backend.NTTSpec{Curve: ecc.BLS12_381, LogN: logN, Order: first, Coset: coset, CosetShift: backend.ValueBytes(&g)}
				inv := backend.NTTSpec{Curve: ecc.BLS12_381, LogN: logN, Inverse: true, Order: second, Coset: coset, CosetShift: backend.ValueBytes(&g)}
				x := nttRandom(rng, 1<<logN)
				got := append([]fr.Element(nil), x...)
				onBackend(t, b, got, func(q backend.Queue, buf backend.Buffer) error {
					if err := b.NTT(q, buf, fwd); err != nil {
						return err
					}
					return b.NTT(q, buf, inv)
				})
				sameElements(t, fmt.Sprintf("n=2^%d/%v then inverse %v/coset=%v", logN, first, second, coset), got, x)
			}
		}
	}
}

// TestNTTErrors checks that bad arguments are errors, not crashes.
func TestNTTErrors(t *testing.T) {
	b := newTestBackend(t)
	q, err := b.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	buf, err := b.Alloc(q, 4*curve.Must(ecc.BLS12_381).FrBytes)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Free(q, buf)
	for _, spec := range []backend.NTTSpec{
		{Curve: ecc.BLS12_381, LogN: -1},
		{Curve: ecc.BLS12_381, LogN: MaxLogN + 1},
		{Curve: ecc.BLS12_381, LogN: 3},                                            // 8 elements in a buffer of 4
		{Curve: ecc.BLS12_381, LogN: 2, Order: backend.Order(7)},                   // no such order
		{Curve: ecc.BLS12_381, LogN: 2, Coset: true, CosetShift: make([]byte, 32)}, // zero shift
	} {
		if err := b.NTT(q, buf, spec); err == nil {
			t.Errorf("NTT(%+v): no error", spec)
		}
	}
	if err := b.QuotientStep(q, ecc.BLS12_381, buf, buf, buf, 5, scalarOf(fr.One())); err == nil {
		t.Errorf("QuotientStep past the buffer's end: no error")
	}
	if err := q.Wait(); err != nil {
		t.Fatalf("queue after refused calls: %v", err)
	}
}

// TestQuotientStep compares a = (a·b − c)·zInv with the CPU backend, on
// lengths that are not multiples of the block size too.
func TestQuotientStep(t *testing.T) {
	b := newTestBackend(t)
	rng := testRand(t)
	c := newCPU(t)
	sizes := []int{0, 1, 3, 255, 256, 257, 1 << 12, 1<<16 + 5, 1 << 20}
	if testing.Short() {
		sizes = sizes[:7]
	}
	for _, n := range sizes {
		va, vb, vc := nttRandom(rng, n), nttRandom(rng, n), nttRandom(rng, n)
		z := nttRandom(rng, 1)[0]
		want := quotientOn(t, c, va, vb, vc, n, z)
		got := quotientOn(t, b, va, vb, vc, n, z)
		sameElements(t, fmt.Sprintf("n=%d", n), got, want)
		if n <= 1<<12 {
			host := append([]fr.Element(nil), va...)
			if err := hostQuotient(host, vb, vc, z); err != nil {
				t.Fatal(err)
			}
			sameElements(t, fmt.Sprintf("host n=%d", n), host, want)
		}
	}
}

func quotientOn(t *testing.T, be backend.Backend, a, b, c []fr.Element, n int, z fr.Element) []fr.Element {
	t.Helper()
	q, err := be.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	bytes := max(int64(n)*curve.Must(ecc.BLS12_381).FrBytes, 1)
	var bufs [3]backend.Buffer
	for i, v := range [][]fr.Element{a, b, c} {
		if bufs[i], err = be.Alloc(q, bytes); err != nil {
			t.Fatal(err)
		}
		defer be.Free(q, bufs[i])
		if err := be.Upload(q, bufs[i], 0, backend.AsBytes(v)); err != nil {
			t.Fatal(err)
		}
	}
	if err := be.QuotientStep(q, ecc.BLS12_381, bufs[0], bufs[1], bufs[2], n, backend.ValueBytes(&z)); err != nil {
		t.Fatal(err)
	}
	out := make([]fr.Element, n)
	if err := be.Download(q, backend.AsBytes(out), bufs[0], 0); err != nil {
		t.Fatal(err)
	}
	return out
}

// benchData fills a device buffer with n random elements (cheap ones: 254
// random bits, below r) and returns it with a queue and the host copy.
func benchData(b *testing.B, be *Backend, n int) (backend.Queue, backend.Buffer, []fr.Element) {
	b.Helper()
	q, err := be.NewQueue()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { q.Close() })
	rng := rand.New(rand.NewPCG(uint64(n), 1))
	x := make([]fr.Element, n)
	for i := range x {
		x[i] = fr.Element{rng.Uint64(), rng.Uint64(), rng.Uint64(), rng.Uint64() >> 2}
	}
	buf, err := be.Alloc(q, int64(n)*curve.Must(ecc.BLS12_381).FrBytes)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { be.Free(q, buf) })
	if err := be.Upload(q, buf, 0, backend.AsBytes(x)); err != nil {
		b.Fatal(err)
	}
	if err := q.Wait(); err != nil {
		b.Fatal(err)
	}
	return q, buf, x
}

// BenchmarkNTT times transforms on data resident on the device: b.N
// transforms enqueued back to back on one queue, then one wait. The
// variants are the two the prover runs most (an inverse DIF, a forward DIT
// on a coset). Each size then checks a round trip (forward DIF on a coset,
// inverse DIT on it) on its data, since the tests stop at 2^20.
func BenchmarkNTT(b *testing.B) { benchNTTSizes(b, []int{20, 22, 24, 26}) }

// BenchmarkNTTLarge is BenchmarkNTT at 2^28 (8 GiB of data, 16 GiB of host
// memory).
func BenchmarkNTTLarge(b *testing.B) { benchNTTSizes(b, []int{28}) }

func benchNTTSizes(b *testing.B, sizes []int) {
	be := newTestBackend(b)
	g := fr.NewElement(7)
	for _, logN := range sizes {
		q, buf, x := benchData(b, be, 1<<logN)
		for _, spec := range []backend.NTTSpec{
			{Curve: ecc.BLS12_381, LogN: logN, Inverse: true, Order: backend.DIF},
			{Curve: ecc.BLS12_381, LogN: logN, Order: backend.DIT, Coset: true, CosetShift: backend.ValueBytes(&g)},
		} {
			name := fmt.Sprintf("backend=cuda/n=2^%d/%v", logN, nttVariant{spec.Inverse, spec.Order, spec.Coset})
			b.Run(name, func(b *testing.B) { benchNTT(b, be, q, buf, spec, nttTune{}) })
		}
		// The round trip.
		if err := be.Upload(q, buf, 0, backend.AsBytes(x)); err != nil {
			b.Fatal(err)
		}
		if err := be.NTT(q, buf, backend.NTTSpec{Curve: ecc.BLS12_381, LogN: logN, Order: backend.DIF, Coset: true, CosetShift: backend.ValueBytes(&g)}); err != nil {
			b.Fatal(err)
		}
		if err := be.NTT(q, buf, backend.NTTSpec{Curve: ecc.BLS12_381, LogN: logN, Inverse: true, Order: backend.DIT, Coset: true, CosetShift: backend.ValueBytes(&g)}); err != nil {
			b.Fatal(err)
		}
		got := make([]fr.Element, len(x))
		if err := be.Download(q, backend.AsBytes(got), buf, 0); err != nil {
			b.Fatal(err)
		}
		for i := range got {
			if got[i] != x[i] {
				b.Fatalf("n=2^%d: round trip differs at element %d", logN, i)
			}
		}
		b.Logf("n=2^%d: round trip ok", logN)
		if err := be.Free(q, buf); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNTTShapes times pass shapes against each other at 2^24.
func BenchmarkNTTShapes(b *testing.B) {
	be := newTestBackend(b)
	const logN = 24
	q, buf, _ := benchData(b, be, 1<<logN)
	spec := backend.NTTSpec{Curve: ecc.BLS12_381, LogN: logN, Inverse: true, Order: backend.DIF}
	for _, tune := range []nttTune{{}, {maxK: 12, logBlock: 12, threads: 512}, {maxK: 10, logBlock: 11, threads: 256},
		{maxK: 10, logBlock: 11, threads: 512}, {maxK: 10, logBlock: 10, threads: 256}, {maxK: 9, logBlock: 10, threads: 128},
		{maxK: 10, logBlock: 10, threads: 64}} {
		b.Run(fmt.Sprintf("n=2^%d/%v", logN, tune), func(b *testing.B) { benchNTT(b, be, q, buf, spec, tune) })
	}
}

func benchNTT(b *testing.B, be *Backend, q backend.Queue, buf backend.Buffer, spec backend.NTTSpec, tune nttTune) {
	// One untimed run builds and uploads the tables.
	if err := be.ntt(q, buf, spec, tune); err != nil {
		b.Fatal(err)
	}
	if err := q.Wait(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := be.ntt(q, buf, spec, tune); err != nil {
			b.Fatal(err)
		}
	}
	if err := q.Wait(); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(b.N), "ms/ntt")
}

// BenchmarkQuotientStep times the pointwise step on resident data.
func BenchmarkQuotientStep(b *testing.B) {
	be := newTestBackend(b)
	for _, logN := range []int{20, 24} {
		n := 1 << logN
		q, a, _ := benchData(b, be, n)
		_, bb, _ := benchData(b, be, n)
		_, c, _ := benchData(b, be, n)
		z := fr.NewElement(5)
		b.Run(fmt.Sprintf("backend=cuda/n=2^%d", logN), func(b *testing.B) {
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := be.QuotientStep(q, ecc.BLS12_381, a, bb, c, n, backend.ValueBytes(&z)); err != nil {
					b.Fatal(err)
				}
			}
			if err := q.Wait(); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(b.N), "ms/op")
		})
	}
}

// TestQuotientHost checks the quotient kernel's arithmetic on the host.
func TestQuotientHost(t *testing.T) {
	rng := testRand(t)
	const n = 1000
	a, b, c := nttRandom(rng, n), nttRandom(rng, n), nttRandom(rng, n)
	z := nttRandom(rng, 1)[0]
	want := make([]fr.Element, n)
	for i := range want {
		want[i].Mul(&a[i], &b[i]).Sub(&want[i], &c[i]).Mul(&want[i], &z)
	}
	if err := hostQuotient(a, b, c, z); err != nil {
		t.Fatal(err)
	}
	sameElements(t, "host quotient", a, want)
}

// scalarOf is x's bytes, as the Backend takes a scalar.
func scalarOf(x fr.Element) []byte { return backend.ValueBytes(&x) }
