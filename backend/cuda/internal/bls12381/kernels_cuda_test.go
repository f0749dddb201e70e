//go:build cuda

package bls12381_test

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"math/big"
	mrand "math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc"
	curve "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/backend/cuda"
	"github.com/g16prover/g16/backend/cuda/internal/hooks"
)

// The CUDA kernels on BLS12-381, against gnark-crypto (the MSMs) and the
// CPU backend (the NTT and the quotient step, gnark-crypto's transforms),
// on fresh random inputs (seed logged): the host emulation of the kernels
// (tests named Host, no GPU needed) and the device (skipped without one).
// internal/generator writes these tests for every curve the kernels
// compute on.

const thisCurve = ecc.BLS12_381

// needKernels fails t when the kernels do not compute on thisCurve: these
// tests are generated for the curves the kernels compute on, so a kernel
// library without thisCurve is a broken build. It is the first call of
// every test and benchmark here.
func needKernels(t testing.TB) {
	t.Helper()
	if err := cuda.SupportsCurve(thisCurve); err != nil {
		t.Fatalf("the CUDA kernels must compute on %s: %v", thisCurve, err)
	}
}

// seeded returns a generator seeded from G16_SEED or fresh randomness, the
// seed logged so that a failure can be replayed.
func seeded(t testing.TB) *mrand.Rand {
	t.Helper()
	var seed uint64
	if s := os.Getenv("G16_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("G16_SEED: %v", err)
		}
		seed = v
	} else {
		var b [8]byte
		_, _ = rand.Read(b[:])
		seed = binary.LittleEndian.Uint64(b[:])
	}
	t.Logf("seed %d (set G16_SEED to replay)", seed)
	return mrand.New(mrand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// bytesOf views s as bytes.
func bytesOf[T any](s []T) []byte { return backend.AsBytes(s) }

// as views b, one T long, as a T.
func as[T any](b []byte) *T {
	var zero T
	if len(b) != int(unsafe.Sizeof(zero)) {
		panic(fmt.Sprintf("%d bytes for a %T", len(b), zero))
	}
	return (*T)(unsafe.Pointer(&b[0]))
}

// randScalars returns n scalars nearly uniform modulo r (fr.Bytes + 16
// random bytes reduced).
func randScalars(rng *mrand.Rand, n int) []fr.Element {
	s := make([]fr.Element, n)
	var b [fr.Bytes + 16]byte
	for i := range s {
		for j := 0; j < len(b); j += 8 {
			binary.LittleEndian.PutUint64(b[j:], rng.Uint64())
		}
		s[i].SetBytes(b[:])
	}
	return s
}

// special returns the adversarial scalars: 0, 1, 2, −1 = r−1, (r−1)/2, (r+1)/2.
func special() map[string]fr.Element {
	var zero, one, two, rm1, half, halfUp fr.Element
	one.SetOne()
	two.SetUint64(2)
	rm1.SetInt64(-1)
	h := new(big.Int).Rsh(new(big.Int).Sub(fr.Modulus(), big.NewInt(1)), 1)
	half.SetBigInt(h)
	halfUp.SetBigInt(h.Add(h, big.NewInt(1)))
	return map[string]fr.Element{"0": zero, "1": one, "2": two, "r-1": rm1, "(r-1)/2": half, "(r+1)/2": halfUp}
}

// randG1 and randG2 return n random points, multiples of the generator
// by random scalars.
func randG1(rng *mrand.Rand, n int) []curve.G1Affine {
	_, _, g1, _ := curve.Generators()
	return curve.BatchScalarMultiplicationG1(&g1, randScalars(rng, n))
}

func randG2(rng *mrand.Rand, n int) []curve.G2Affine {
	_, _, _, g2 := curve.Generators()
	return curve.BatchScalarMultiplicationG2(&g2, randScalars(rng, n))
}

func refG1(points []curve.G1Affine, scalars []fr.Element) curve.G1Jac {
	var r curve.G1Jac
	if _, err := r.MultiExp(points, scalars, ecc.MultiExpConfig{}); err != nil {
		panic(err)
	}
	return r
}

func refG2(points []curve.G2Affine, scalars []fr.Element) curve.G2Jac {
	var r curve.G2Jac
	if _, err := r.MultiExp(points, scalars, ecc.MultiExpConfig{}); err != nil {
		panic(err)
	}
	return r
}

// msmCase is one MSM input, G1 and G2 bases built alike.
type msmCase struct {
	name    string
	scalars []fr.Element
	g1      []curve.G1Affine
	g2      []curve.G2Affine
}

// msmCases are the edge cases of Pippenger on n points: every scalar one
// of special's and special's among random ones, mostly zeros, only 0 and
// ±1, infinity among the bases, P beside −P (with the same scalar: pairs
// that cancel in one bucket), a repeated base, a repeated base and scalar
// (a doubling inside a bucket), and random.
func msmCases(rng *mrand.Rand, n int) []msmCase {
	g1, g2 := randG1(rng, n), randG2(rng, n)
	var cases []msmCase
	add := func(name string, s []fr.Element, p1 []curve.G1Affine, p2 []curve.G2Affine) {
		cases = append(cases, msmCase{name, s, p1, p2})
	}
	add("random", randScalars(rng, n), g1, g2)
	for name, v := range special() {
		all, mixed := make([]fr.Element, n), randScalars(rng, n)
		for i := range all {
			all[i] = v
			if i%3 == 0 {
				mixed[i] = v
			}
		}
		add("all "+name, all, g1, g2)
		add("mixed "+name, mixed, g1, g2)
	}
	sparse, signs := make([]fr.Element, n), make([]fr.Element, n)
	for i := range sparse {
		if rng.IntN(16) == 0 {
			sparse[i] = randScalars(rng, 1)[0]
		}
		switch rng.IntN(3) {
		case 1:
			signs[i].SetOne()
		case 2:
			signs[i].SetInt64(-1)
		}
	}
	add("mostly zeros", sparse, g1, g2)
	add("zeros and ±1", signs, g1, g2)
	s := randScalars(rng, n)
	inf1, inf2 := append([]curve.G1Affine(nil), g1...), append([]curve.G2Affine(nil), g2...)
	neg1, neg2 := append([]curve.G1Affine(nil), g1...), append([]curve.G2Affine(nil), g2...)
	rep1, rep2 := append([]curve.G1Affine(nil), g1...), append([]curve.G2Affine(nil), g2...)
	negS, same := append([]fr.Element(nil), s...), make([]fr.Element, n)
	for i := 0; i < n; i++ {
		if i%5 == 0 {
			inf1[i], inf2[i] = curve.G1Affine{}, curve.G2Affine{}
		}
		if i%2 == 1 {
			neg1[i].Neg(&neg1[i-1])
			neg2[i].Neg(&neg2[i-1])
			negS[i] = negS[i-1]
		}
		if i%4 != 0 {
			rep1[i], rep2[i] = rep1[0], rep2[0]
		}
		same[i] = s[0]
	}
	add("infinity bases", s, inf1, inf2)
	add("P beside -P, same scalar", negS, neg1, neg2)
	add("P beside -P, random scalars", s, neg1, neg2)
	add("repeated base", s, rep1, rep2)
	add("repeated base and scalar", same, rep1, rep2)
	return cases
}

// window is w (0: the kernels' choice), raised to the smallest window the
// kernels take on this curve: at most 64 windows over the bits they cut
// scalars into, max(255, fr.Bits) (kernels/msm.cuh's min_window: 4, and 6
// on BW6-761's 377 bits).
func window(w int) int {
	const bits = max(255, fr.Bits)
	if w == 0 {
		return 0
	}
	return max(w, (bits+63)/64)
}

// hostMSM runs the host pipeline (window w, as window raises it) and
// returns its result, of type J.
func hostMSM[J any](t *testing.T, g2 bool, bases, scalars []byte, w, task, flags int) J {
	t.Helper()
	w = window(w)
	r, err := hooks.HostMSM(thisCurve, g2, bases, scalars, w, task, flags)
	if err != nil {
		t.Fatalf("HostMSM(g2=%v, w=%d, task=%d, flags %d): %v", g2, w, task, flags, err)
	}
	return *as[J](r)
}

// TestMSMHost runs the kernels' MSM pipeline on the host against
// gnark-crypto's MultiExp: every edge case, with small windows and task
// caps that force every path (split levels, reduction levels, the host
// tail's pairs), and random inputs of several lengths.
func TestMSMHost(t *testing.T) {
	needKernels(t)
	rng := seeded(t)
	type cfg struct{ w, task, flags int }
	g1Cfgs := []cfg{{0, 0, 0}, {4, 2, 0}, {5, 3, 0}, {7, 2, 0}, {0, 0, hooks.NoSplit}, {5, 2, hooks.NoSplit | hooks.Fanin8}, {12, 0, hooks.HostTail}, {10, 3, hooks.HostTail | hooks.Fanin8}}
	g2Cfgs := []cfg{{6, 2, 0}, {0, 0, hooks.NoSplit}, {12, 0, hooks.HostTail}}
	for _, c := range msmCases(rng, 24) {
		for _, k := range g1Cfgs {
			got := hostMSM[curve.G1Jac](t, false, bytesOf(c.g1), bytesOf(c.scalars), k.w, k.task, k.flags)
			if want := refG1(c.g1, c.scalars); !got.Equal(&want) {
				t.Errorf("G1 %s %+v: host pipeline differs from gnark-crypto", c.name, k)
			}
		}
		for _, k := range g2Cfgs {
			got := hostMSM[curve.G2Jac](t, true, bytesOf(c.g2[:8]), bytesOf(c.scalars[:8]), k.w, k.task, k.flags)
			if want := refG2(c.g2[:8], c.scalars[:8]); !got.Equal(&want) {
				t.Errorf("G2 %s %+v: host pipeline differs from gnark-crypto", c.name, k)
			}
		}
	}
	for _, n := range []int{1, 2, 3, 100, 257} {
		p, s := randG1(rng, n), randScalars(rng, n)
		for _, flags := range []int{0, hooks.NoSplit} {
			got := hostMSM[curve.G1Jac](t, false, bytesOf(p), bytesOf(s), 0, 0, flags)
			if want := refG1(p, s); !got.Equal(&want) {
				t.Errorf("G1 n=%d flags %d: host pipeline differs from gnark-crypto", n, flags)
			}
		}
	}
	p2, s2 := randG2(rng, 40), randScalars(rng, 40)
	for _, flags := range []int{0, hooks.NoSplit} {
		got := hostMSM[curve.G2Jac](t, true, bytesOf(p2), bytesOf(s2), 0, 0, flags)
		if want := refG2(p2, s2); !got.Equal(&want) {
			t.Errorf("G2 n=40 flags %d: host pipeline differs from gnark-crypto", flags)
		}
	}
}

// tableShapes are tables' copies and windows.
var tableShapes = []struct{ copies, w int }{{4, 8}, {12, 6}, {2, 10}, {1, 7}}

// TestTableMSMHost: a table of copies holds copy q = 2^(w·q)·P of each
// base, and the MSM over it equals gnark-crypto's, on G1 and G2.
func TestTableMSMHost(t *testing.T) {
	needKernels(t)
	rng := seeded(t)
	const n1, n2 = 200, 24
	p1, p2 := randG1(rng, n1), randG2(rng, n2)
	p1[7], p2[3] = curve.G1Affine{}, curve.G2Affine{}
	for _, sh := range tableShapes {
		t1, err := hooks.HostTable(thisCurve, false, bytesOf(p1), sh.copies, sh.w)
		if err != nil {
			t.Fatal(err)
		}
		t2, err := hooks.HostTable(thisCurve, true, bytesOf(p2), sh.copies, sh.w)
		if err != nil {
			t.Fatal(err)
		}
		tab1 := unsafe.Slice((*curve.G1Affine)(unsafe.Pointer(&t1[0])), sh.copies*n1)
		tab2 := unsafe.Slice((*curve.G2Affine)(unsafe.Pointer(&t2[0])), sh.copies*n2)
		for q := 0; q < sh.copies; q++ {
			e := new(big.Int).Lsh(big.NewInt(1), uint(sh.w*q))
			for _, i := range []int{0, 7, n2 - 1} {
				var w1 curve.G1Affine
				w1.ScalarMultiplication(&p1[i], e)
				if !tab1[q*n1+i].Equal(&w1) {
					t.Fatalf("G1 table (%d copies, w=%d): copy %d of base %d is not 2^(w·%d)·P", sh.copies, sh.w, q, i, q)
				}
				var w2 curve.G2Affine
				w2.ScalarMultiplication(&p2[i%n2], e)
				if !tab2[q*n2+i%n2].Equal(&w2) {
					t.Fatalf("G2 table (%d copies, w=%d): copy %d of base %d is not 2^(w·%d)·P", sh.copies, sh.w, q, i%n2, q)
				}
			}
		}
		for _, c := range msmCases(rng, n2) {
			s1 := append(append([]fr.Element(nil), c.scalars...), randScalars(rng, n1-n2)...)
			r1, err := hooks.HostTableMSM(thisCurve, false, t1, sh.copies, sh.w, bytesOf(s1), 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			if want := refG1(p1, s1); !as[curve.G1Jac](r1).Equal(&want) {
				t.Errorf("G1 %s over a table (%d copies, w=%d): differs from gnark-crypto", c.name, sh.copies, sh.w)
			}
			r2, err := hooks.HostTableMSM(thisCurve, true, t2, sh.copies, sh.w, bytesOf(c.scalars), 2, 0)
			if err != nil {
				t.Fatal(err)
			}
			if want := refG2(p2, c.scalars); !as[curve.G2Jac](r2).Equal(&want) {
				t.Errorf("G2 %s over a table (%d copies, w=%d): differs from gnark-crypto", c.name, sh.copies, sh.w)
			}
		}
	}
}

// nttSpecs are the eight transforms of NTTSpec on 2^logN scalars, on the
// coset of a random shift where they take one.
func nttSpecs(rng *mrand.Rand, logN int) []backend.NTTSpec {
	var specs []backend.NTTSpec
	for _, inv := range []bool{false, true} {
		for _, o := range []backend.Order{backend.DIF, backend.DIT} {
			for _, coset := range []bool{false, true} {
				sp := backend.NTTSpec{Curve: thisCurve, LogN: logN, Inverse: inv, Order: o}
				if coset {
					g := randScalars(rng, 1)
					sp.Coset, sp.CosetShift = true, bytesOf(g)
				}
				specs = append(specs, sp)
			}
		}
	}
	return specs
}

func specName(sp backend.NTTSpec) string {
	return fmt.Sprintf("2^%d inverse=%v %v coset=%v", sp.LogN, sp.Inverse, sp.Order, sp.Coset)
}

// onBackend uploads data to be, runs f on it, and downloads it back.
func onBackend(t testing.TB, be backend.Backend, data []byte, f func(q backend.Queue, buf backend.Buffer) error) {
	t.Helper()
	q, err := be.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	buf, err := be.Alloc(q, int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	defer be.Free(q, buf)
	if err := be.Upload(q, buf, 0, data); err != nil {
		t.Fatal(err)
	}
	if err := f(q, buf); err != nil {
		t.Fatalf("%v: %v", be, err)
	}
	if err := be.Download(q, data, buf, 0); err != nil {
		t.Fatal(err)
	}
}

func newCPU(t testing.TB) *cpu.Backend {
	t.Helper()
	c, err := cpu.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// cpuNTT is the reference transform: the CPU backend's, on a copy.
func cpuNTT(t testing.TB, c *cpu.Backend, x []fr.Element, spec backend.NTTSpec) []fr.Element {
	out := append([]fr.Element(nil), x...)
	onBackend(t, c, bytesOf(out), func(q backend.Queue, buf backend.Buffer) error { return c.NTT(q, buf, spec) })
	return out
}

// sameScalars fails at the first index where got and want differ.
func sameScalars(t *testing.T, what string, got, want []fr.Element) {
	t.Helper()
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%s: scalar %d of %d: got %s, want %s", what, i, len(want), got[i].String(), want[i].String())
		}
	}
}

// TestNTTHost runs the NTT's passes on the host, every variant, in several
// pass shapes (many short passes on small blocks, the defaults), against
// the CPU backend.
func TestNTTHost(t *testing.T) {
	needKernels(t)
	rng := seeded(t)
	c := newCPU(t)
	maxLog := 11
	if testing.Short() {
		maxLog = 8
	}
	tunes := [][3]int{{0, 0, 0}, {1, 1, 32}, {3, 5, 32}, {4, 4, 64}, {12, 12, 512}}
	for logN := 0; logN <= maxLog; logN++ {
		for _, sp := range nttSpecs(rng, logN) {
			for _, tu := range tunes {
				x := randScalars(rng, 1<<logN)
				want := cpuNTT(t, c, x, sp)
				if err := hooks.HostNTT(bytesOf(x), sp, tu[0], tu[1], tu[2]); err != nil {
					t.Fatalf("%s, pass shape %v: %v", specName(sp), tu, err)
				}
				sameScalars(t, fmt.Sprintf("%s, pass shape %v", specName(sp), tu), x, want)
			}
		}
	}
}

// quotient is a[i] = (a[i]·b[i] − c[i])·z, the reference.
func quotient(a, b, c []fr.Element, z fr.Element) []fr.Element {
	out := make([]fr.Element, len(a))
	for i := range a {
		out[i].Mul(&a[i], &b[i]).Sub(&out[i], &c[i]).Mul(&out[i], &z)
	}
	return out
}

// TestQuotientHost runs QuotientStep's kernel on the host on random
// scalars and the adversarial ones.
func TestQuotientHost(t *testing.T) {
	needKernels(t)
	rng := seeded(t)
	for _, n := range []int{1, 3, 255, 256, 257, 1000} {
		a, b, c := randScalars(rng, n), randScalars(rng, n), randScalars(rng, n)
		i := 0
		for _, v := range special() {
			a[i%n], b[(i+1)%n], c[(i+2)%n] = v, v, v
			i++
		}
		z := randScalars(rng, 1)[0]
		want := quotient(a, b, c, z)
		if err := hooks.HostQuotient(thisCurve, bytesOf(a), bytesOf(b), bytesOf(c), bytesOf([]fr.Element{z})); err != nil {
			t.Fatal(err)
		}
		sameScalars(t, fmt.Sprintf("n=%d", n), a, want)
	}
}

// newGPU opens GPU 0 with opts, or skips the test when there is none.
func newGPU(t testing.TB, opts ...cuda.Option) *cuda.Backend {
	t.Helper()
	if n, err := cuda.DeviceCount(); err != nil || n == 0 {
		t.Skipf("no CUDA device (count %d, %v)", n, err)
	}
	b, err := cuda.New(0, opts...)
	if err != nil {
		t.Fatalf("cuda.New(0): %v", err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return b
}

func upload(t testing.TB, b backend.Backend, data []byte) backend.Buffer {
	t.Helper()
	buf, err := b.Alloc(nil, int64(len(data)))
	if err != nil {
		t.Fatalf("Alloc(%d): %v", len(data), err)
	}
	if err := b.Upload(nil, buf, 0, data); err != nil {
		t.Fatalf("Upload: %v", err)
	}
	t.Cleanup(func() { b.Free(nil, buf) })
	return buf
}

func gpuG1(t testing.TB, b *cuda.Backend, bases backend.Buffer, off int64, scalars backend.Buffer, n int) curve.G1Jac {
	t.Helper()
	var r curve.G1Jac
	if err := b.MSMG1(nil, thisCurve, backend.ValueBytes(&r), bases, off, scalars, n); err != nil {
		t.Fatalf("MSMG1(n=%d): %v", n, err)
	}
	return r
}

func gpuG2(t testing.TB, b *cuda.Backend, bases backend.Buffer, off int64, scalars backend.Buffer, n int) curve.G2Jac {
	t.Helper()
	var r curve.G2Jac
	if err := b.MSMG2(nil, thisCurve, backend.ValueBytes(&r), bases, off, scalars, n); err != nil {
		t.Fatalf("MSMG2(n=%d): %v", n, err)
	}
	return r
}

// TestMSM: the edge cases on the GPU, with the default options and forced
// windows, passes and the host tail, against gnark-crypto.
func TestMSM(t *testing.T) {
	needKernels(t)
	rng := seeded(t)
	n := 300
	if testing.Short() {
		n = 40
	}
	for _, opts := range [][]cuda.Option{nil, {cuda.WithMSMWindow(window(4))}, {cuda.WithMSMChunk(7)}, {cuda.WithMSMWindow(12), cuda.WithMSMHostTail(true)}} {
		b := newGPU(t, opts...)
		for _, c := range msmCases(rng, n) {
			sb := upload(t, b, bytesOf(c.scalars))
			if got, want := gpuG1(t, b, upload(t, b, bytesOf(c.g1)), 0, sb, n), refG1(c.g1, c.scalars); !got.Equal(&want) {
				t.Errorf("G1 %s (%d options): GPU differs from gnark-crypto", c.name, len(opts))
			}
			if got, want := gpuG2(t, b, upload(t, b, bytesOf(c.g2)), 0, sb, n), refG2(c.g2, c.scalars); !got.Equal(&want) {
				t.Errorf("G2 %s (%d options): GPU differs from gnark-crypto", c.name, len(opts))
			}
		}
	}
}

// TestMSMSizes: G1 at every power of two to 2^18 (2^14 with -short) and
// odd lengths, its bases read at an offset; G2 to 2^14 (2^10).
func TestMSMSizes(t *testing.T) {
	needKernels(t)
	b := newGPU(t)
	rng := seeded(t)
	log1, log2 := 18, 14
	if testing.Short() {
		log1, log2 = 14, 10
	}
	const off = 2 // bases: BaseAlign divides off points of either group
	p1, s := randG1(rng, 1<<log1+off), randScalars(rng, 1<<log1)
	p2 := randG2(rng, 1<<log2)
	b1, b2, sb := upload(t, b, bytesOf(p1)), upload(t, b, bytesOf(p2)), upload(t, b, bytesOf(s))
	off1 := int64(off) * int64(unsafe.Sizeof(curve.G1Affine{}))
	if off1%backend.BaseAlign != 0 {
		t.Fatalf("offset %d bytes is not a multiple of %d", off1, backend.BaseAlign)
	}
	sizes := []int{5, 77, 1023, 4097}
	for k := 0; k <= log1; k++ {
		sizes = append(sizes, 1<<k)
	}
	for _, m := range sizes {
		if got, want := gpuG1(t, b, b1, off1, sb, m), refG1(p1[off:off+m], s[:m]); !got.Equal(&want) {
			t.Errorf("G1 n=%d: GPU differs from gnark-crypto", m)
		}
		if m <= 1<<log2 {
			if got, want := gpuG2(t, b, b2, 0, sb, m), refG2(p2[:m], s[:m]); !got.Equal(&want) {
				t.Errorf("G2 n=%d: GPU differs from gnark-crypto", m)
			}
		}
	}
}

// TestTableMSM: PrecomputeBases on the GPU, then the MSMs over its range
// read the table and equal gnark-crypto's; a write into the range retires
// it.
func TestTableMSM(t *testing.T) {
	needKernels(t)
	b := newGPU(t)
	rng := seeded(t)
	n := 1 << 12
	if testing.Short() {
		n = 1 << 9
	}
	p1, p2 := randG1(rng, n), randG2(rng, n)
	p1[5], p2[6] = curve.G1Affine{}, curve.G2Affine{}
	for _, sh := range tableShapes[:3] {
		b1, b2 := upload(t, b, bytesOf(p1)), upload(t, b, bytesOf(p2))
		if err := b.PrecomputeBases(nil, thisCurve, b1, 0, n, backend.KernelMSMG1, sh.copies, sh.w); err != nil {
			t.Fatal(err)
		}
		if err := b.PrecomputeBases(nil, thisCurve, b2, 0, n, backend.KernelMSMG2, sh.copies, sh.w); err != nil {
			t.Fatal(err)
		}
		if got := b.Tables(b1); len(got) != 1 || got[0].Copies != sh.copies || got[0].Window != sh.w ||
			got[0].Bytes != cuda.TableBytes(backend.KernelMSMG1, thisCurve, n, sh.copies) {
			t.Fatalf("Tables after PrecomputeBases (%d copies, w=%d): %+v", sh.copies, sh.w, got)
		}
		for _, c := range msmCases(rng, n)[:6] {
			sb := upload(t, b, bytesOf(c.scalars))
			if got, want := gpuG1(t, b, b1, 0, sb, n), refG1(p1, c.scalars); !got.Equal(&want) {
				t.Errorf("G1 %s over a table (%d copies, w=%d): differs from gnark-crypto", c.name, sh.copies, sh.w)
			}
			if got, want := gpuG2(t, b, b2, 0, sb, n), refG2(p2, c.scalars); !got.Equal(&want) {
				t.Errorf("G2 %s over a table (%d copies, w=%d): differs from gnark-crypto", c.name, sh.copies, sh.w)
			}
		}
		// Overwrite base 1 with its double: the table retires and the MSM
		// sees the new base.
		var d curve.G1Affine
		d.Double(&p1[1])
		if err := b.Upload(nil, b1, int64(unsafe.Sizeof(d)), backend.ValueBytes(&d)); err != nil {
			t.Fatal(err)
		}
		if got := b.Tables(b1); len(got) != 0 {
			t.Errorf("Tables after a write into the range: %+v", got)
		}
		q := append([]curve.G1Affine(nil), p1...)
		q[1] = d
		s := randScalars(rng, n)
		if got, want := gpuG1(t, b, b1, 0, upload(t, b, bytesOf(s)), n), refG1(q, s); !got.Equal(&want) {
			t.Errorf("G1 after the table retired: differs from gnark-crypto")
		}
	}
}

// TestNTT: every variant on the GPU at 2^0..2^16 (2^12 with -short), and
// 2^20, against the CPU backend.
func TestNTT(t *testing.T) {
	needKernels(t)
	b := newGPU(t)
	rng := seeded(t)
	c := newCPU(t)
	sizes := []int{}
	maxLog := 16
	if testing.Short() {
		maxLog = 12
	}
	for k := 0; k <= maxLog; k++ {
		sizes = append(sizes, k)
	}
	if !testing.Short() {
		sizes = append(sizes, 20)
	}
	for _, logN := range sizes {
		for _, sp := range nttSpecs(rng, logN) {
			x := randScalars(rng, 1<<logN)
			want := cpuNTT(t, c, x, sp)
			onBackend(t, b, bytesOf(x), func(q backend.Queue, buf backend.Buffer) error { return b.NTT(q, buf, sp) })
			sameScalars(t, specName(sp), x, want)
		}
	}
	// Past the field's roots of unity (or the kernels' 2^MaxLogN): refused,
	// naming the argument and the curve.
	adicity := int(new(big.Int).Sub(fr.Modulus(), big.NewInt(1)).TrailingZeroBits())
	most := min(adicity, cuda.MaxLogN)
	buf := upload(t, b, make([]byte, 64))
	err := b.NTT(nil, buf, backend.NTTSpec{Curve: thisCurve, LogN: most + 1})
	if err == nil || !strings.Contains(err.Error(), "spec.LogN") || !strings.Contains(err.Error(), fmt.Sprint(most)) {
		t.Errorf("NTT of 2^%d: %v, want an error naming spec.LogN and the bound %d", most+1, err, most)
	}
}

// TestQuotientStep: a = (a·b − c)·zInv on the GPU against the reference,
// on lengths that are not multiples of the block size too.
func TestQuotientStep(t *testing.T) {
	needKernels(t)
	b := newGPU(t)
	rng := seeded(t)
	for _, n := range []int{1, 3, 255, 257, 1 << 12, 1<<16 + 5} {
		va, vb, vc := randScalars(rng, n), randScalars(rng, n), randScalars(rng, n)
		for i, v := range []string{"0", "1", "r-1", "(r-1)/2"} {
			va[i%n], vb[(i+1)%n] = special()[v], special()[v]
		}
		z := randScalars(rng, 1)[0]
		want := quotient(va, vb, vc, z)
		bb, cb := upload(t, b, bytesOf(vb)), upload(t, b, bytesOf(vc))
		onBackend(t, b, bytesOf(va), func(q backend.Queue, buf backend.Buffer) error {
			return b.QuotientStep(q, thisCurve, buf, bb, cb, n, bytesOf([]fr.Element{z}))
		})
		sameScalars(t, fmt.Sprintf("n=%d", n), va, want)
	}
}

// TestContract: the calls' checks that depend on the curve, on the GPU:
// the result, zInv and coset shift sized by this curve's types, the bases
// and scalars spans counted in its points and scalars, a table's group;
// Scratch of each kernel at any size neither panics nor goes negative, and
// grows with a live table. Every refused call names the argument, and the
// buffers keep what was uploaded.
func TestContract(t *testing.T) {
	needKernels(t)
	b := newGPU(t)
	rng := seeded(t)
	if err := b.Supports(thisCurve); err != nil {
		t.Fatalf("Supports: %v", err)
	}
	const n = 8
	p1, p2, s := randG1(rng, n), randG2(rng, n), randScalars(rng, n)
	b1, b2, sb := upload(t, b, bytesOf(p1)), upload(t, b, bytesOf(p2)), upload(t, b, bytesOf(s))
	pLong := randG1(rng, 2*n)
	bLong := upload(t, b, bytesOf(pLong))
	var r1 curve.G1Jac
	var r2 curve.G2Jac
	jac1, jac2 := backend.ValueBytes(&r1), backend.ValueBytes(&r2)
	pt1, pt2 := int64(unsafe.Sizeof(curve.G1Affine{})), int64(unsafe.Sizeof(curve.G2Affine{}))
	one := bytesOf([]fr.Element{fr.One()})
	// Each refused call's error names the argument at fault ("arg:") and
	// says the rest of want.
	cases := []struct {
		name string
		want []string
		call func() error
	}{
		{"MSMG1 out one byte short", []string{"out:"}, func() error { return b.MSMG1(nil, thisCurve, jac1[1:], b1, 0, sb, n) }},
		{"MSMG2 out one byte long", []string{"out:"}, func() error { return b.MSMG2(nil, thisCurve, append(jac2, 0), b2, 0, sb, n) }},
		{"MSMG1 one point past the bases", []string{"n:", "bases buffer"}, func() error { return b.MSMG1(nil, thisCurve, jac1, b1, 16, sb, n) }},
		{"MSMG1 scalars short", []string{"n:", "scalars buffer"}, func() error { return b.MSMG1(nil, thisCurve, jac1, bLong, 0, sb, 2*n) }},
		{"QuotientStep zInv short", []string{"zInv:"}, func() error { return b.QuotientStep(nil, thisCurve, sb, sb, sb, n, one[1:]) }},
		{"QuotientStep past the scalars", []string{"n:"}, func() error { return b.QuotientStep(nil, thisCurve, sb, sb, sb, n+1, one) }},
		{"NTT coset shift long", []string{"spec.CosetShift:"}, func() error {
			return b.NTT(nil, sb, backend.NTTSpec{Curve: thisCurve, LogN: 3, Coset: true, CosetShift: append(one, 0)})
		}},
		{"NTT coset shift zero", []string{"spec.CosetShift:"}, func() error {
			return b.NTT(nil, sb, backend.NTTSpec{Curve: thisCurve, LogN: 3, Coset: true, CosetShift: make([]byte, len(one))})
		}},
		{"NTT past the scalars", []string{"spec.LogN:"}, func() error { return b.NTT(nil, sb, backend.NTTSpec{Curve: thisCurve, LogN: 4}) }},
		{"PrecomputeBases past the bases", []string{"n:", "bases buffer"}, func() error {
			return b.PrecomputeBases(nil, thisCurve, b1, 0, n+1, backend.KernelMSMG1, 2, 6)
		}},
		{"PrecomputeBases of the NTT", []string{"k:"}, func() error { return b.PrecomputeBases(nil, thisCurve, b1, 0, n, backend.KernelNTT, 2, 6) }},
		{"PrecomputeBases window below the curve's least", []string{"w:", "to 24"}, func() error {
			return b.PrecomputeBases(nil, thisCurve, b1, 0, n, backend.KernelMSMG1, 2, window(4)-1)
		}},
	}
	// A G2 point differs from a G1 point in size where G2 is over an
	// extension field; on a curve whose G2 is over the base field (BW6-761)
	// the buffers are the same size and these calls are well formed.
	if len(jac1) != len(jac2) {
		cases = append(cases, []struct {
			name string
			want []string
			call func() error
		}{
			{"MSMG1 out a G2 point", []string{"out:"}, func() error { return b.MSMG1(nil, thisCurve, jac2, b1, 0, sb, n) }},
			{"MSMG2 out a G1 point", []string{"out:"}, func() error { return b.MSMG2(nil, thisCurve, jac1, b2, 0, sb, n) }},
			{"MSMG2 bases of G1", []string{"n:", "bases buffer"}, func() error { return b.MSMG2(nil, thisCurve, jac2, b1, 0, sb, n) }},
		}...)
	}
	for _, c := range cases {
		err := c.call()
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v, want an error saying %q", c.name, err, w)
			}
		}
	}
	check := func(buf backend.Buffer, want []byte, what string) {
		got := make([]byte, len(want))
		if err := b.Download(nil, got, buf, 0); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s changed by refused calls", what)
		}
	}
	check(b1, bytesOf(p1), "G1 bases")
	check(b2, bytesOf(p2), "G2 bases")
	check(bLong, bytesOf(pLong), "the longer G1 bases")
	check(sb, bytesOf(s), "scalars")
	// The good calls work, with the results of gnark-crypto.
	if got, want := gpuG1(t, b, b1, pt1*2, sb, n-2), refG1(p1[2:], s[:n-2]); !got.Equal(&want) {
		t.Errorf("MSMG1 at an offset differs from gnark-crypto")
	}
	if got, want := gpuG2(t, b, b2, pt2*(n-1), sb, 1), refG2(p2[n-1:], s[:1]); !got.Equal(&want) {
		t.Errorf("MSMG2 of the last point differs from gnark-crypto")
	}
	for _, k := range []backend.Kernel{backend.KernelMSMG1, backend.KernelMSMG2, backend.KernelNTT, backend.KernelQuotientStep} {
		for _, m := range []int{0, 1, 1 << 10, 1 << 20, 1 << 26, 1<<31 - 1} {
			if v := b.Scratch(k, thisCurve, m); v < 0 {
				t.Errorf("Scratch(%v, %d) = %d", k, m, v)
			}
		}
	}
	plain := b.Scratch(backend.KernelMSMG1, thisCurve, n)
	if plain <= 0 {
		t.Errorf("Scratch(MSMG1, %d) = %d, want some", n, plain)
	}
	if err := b.PrecomputeBases(nil, thisCurve, b1, 0, n, backend.KernelMSMG1, 4, window(5)); err != nil {
		t.Fatal(err)
	}
	if ts := b.TableScratch(backend.KernelMSMG1, thisCurve, n, 4); ts <= 0 {
		t.Errorf("TableScratch(MSMG1, %d, 4 copies) = %d", n, ts)
	}
	if got, want := gpuG1(t, b, b1, 0, sb, n), refG1(p1, s); !got.Equal(&want) {
		t.Errorf("MSMG1 over a table differs from gnark-crypto")
	}
}

// TestScratchModelHost: the scratch the backend budgets for an MSM pass
// (less CUB's temporaries, which the host mode does not allocate) bounds
// what the host pipeline's buffers hold at once, as the device's pool
// counts them: G1 and G2, random, 0/1-heavy, all ±1 and one-nonzero
// scalars, forced windows, task caps and flags, and tables of copies.
func TestScratchModelHost(t *testing.T) {
	needKernels(t)
	rng := seeded(t)
	p1, p2 := randG1(rng, 2000), randG2(rng, 300)
	dists := func(n int) map[string][]fr.Element {
		heavy, signs, one := randScalars(rng, n), make([]fr.Element, n), make([]fr.Element, n)
		for i := range heavy {
			if i%10 != 0 {
				heavy[i].SetUint64(uint64(i % 2))
			}
			signs[i].SetOne()
			if i%3 == 0 {
				signs[i].SetInt64(-1)
			}
		}
		one[n/2].SetUint64(3)
		return map[string][]fr.Element{"random": randScalars(rng, n), "0/1-heavy": heavy, "all ±1": signs, "one nonzero": one}
	}
	tightest, at := 0.0, ""
	defer func() { t.Logf("tightest: %.2f of the model (%s)", tightest, at) }()
	check := func(g2 bool, table []byte, stride, copies, w int, s []fr.Element, task, flags int, name string) {
		t.Helper()
		n := len(s)
		w = window(w)
		peak, err := hooks.HostMSMPeak(thisCurve, g2, table, stride, copies, w, bytesOf(s), task, flags)
		if err != nil {
			t.Fatalf("G2=%v n=%d %s: %v", g2, n, name, err)
		}
		model := hooks.ScratchModel(thisCurve, g2, n, w, copies, task) - hooks.ScratchCUB
		what := fmt.Sprintf("G2=%v n=%d %s w=%d copies=%d task=%d flags %d", g2, n, name, w, copies, task, flags)
		if r := float64(peak) / float64(model); r > tightest {
			tightest, at = r, what
		}
		if peak > model {
			t.Errorf("%s: the pipeline held %d bytes, the model allows %d", what, peak, model)
		}
	}
	type cfg struct{ w, task, flags int }
	for _, n := range []int{1, 3, 64, 500, 2000} {
		for name, s := range dists(n) {
			for _, k := range []cfg{{0, 0, 0}, {0, 0, hooks.NoSplit}, {6, 2, 0}, {5, 3, hooks.Fanin8}, {0, 0, hooks.HostTail}} {
				check(false, bytesOf(p1[:n]), n, 1, k.w, s, k.task, k.flags, name)
			}
			if n <= 300 {
				for _, k := range []cfg{{0, 0, 0}, {0, 0, hooks.NoSplit}, {5, 2, hooks.Fanin8}} {
					check(true, bytesOf(p2[:n]), n, 1, k.w, s, k.task, k.flags, name)
				}
			}
		}
	}
	for _, sh := range tableShapes[:3] {
		t1, err := hooks.HostTable(thisCurve, false, bytesOf(p1[:500]), sh.copies, sh.w)
		if err != nil {
			t.Fatal(err)
		}
		t2, err := hooks.HostTable(thisCurve, true, bytesOf(p2[:100]), sh.copies, sh.w)
		if err != nil {
			t.Fatal(err)
		}
		for name, s := range dists(500) {
			check(false, t1, 500, sh.copies, sh.w, s, 0, 0, name+", table")
			check(true, t2, 100, sh.copies, sh.w, s[:100], 0, 0, name+", table")
		}
	}
}

// TestScratchBound: on the GPU, the peak of device memory during an MSM,
// less what was in use before it, stays within what Scratch reports, for
// G1 and G2 at a few sizes, random and 0/1-heavy scalars.
func TestScratchBound(t *testing.T) {
	needKernels(t)
	b := newGPU(t)
	rng := seeded(t)
	heavy := func(n int) []fr.Element {
		s := randScalars(rng, n)
		for i := range s {
			if i%10 != 0 {
				s[i].SetUint64(uint64(i % 2))
			}
		}
		return s
	}
	for _, c := range []struct {
		g2    bool
		n     int
		heavy bool
	}{{false, 1 << 12, false}, {false, 1 << 16, false}, {false, 1 << 20, false}, {false, 1 << 16, true}, {true, 1 << 12, false}, {true, 1 << 16, false}, {true, 1 << 12, true}} {
		s := randScalars(rng, c.n)
		if c.heavy {
			s = heavy(c.n)
		}
		k, jac, bases := backend.KernelMSMG1, make([]byte, unsafe.Sizeof(curve.G1Jac{})), []byte(nil)
		if c.g2 {
			p, _ := benchG2(rng, c.n)
			k, jac, bases = backend.KernelMSMG2, make([]byte, unsafe.Sizeof(curve.G2Jac{})), bytesOf(p)
		} else {
			p, _ := benchG1(rng, c.n)
			bases = bytesOf(p)
		}
		bb, sb := upload(t, b, bases), upload(t, b, bytesOf(s))
		before := b.Memory().InUse
		b.PeakMemory(true)
		var err error
		if c.g2 {
			err = b.MSMG2(nil, thisCurve, jac, bb, 0, sb, c.n)
		} else {
			err = b.MSMG1(nil, thisCurve, jac, bb, 0, sb, c.n)
		}
		if err != nil {
			t.Fatal(err)
		}
		used, bound := b.PeakMemory(false)-before, b.Scratch(k, thisCurve, c.n)
		t.Logf("%v n=%d 0/1-heavy=%v: scratch peak %d bytes, Scratch %d (%.2f)", k, c.n, c.heavy, used, bound, float64(used)/float64(bound))
		if used > bound || used <= 0 {
			t.Errorf("%v n=%d 0/1-heavy=%v: scratch peak %d bytes, Scratch says %d", k, c.n, c.heavy, used, bound)
		}
	}
}

// TestScratchBoundTables is TestScratchBound for MSMs over tables of
// precomputed multiples: with the table live, the peak stays within what
// Scratch reports, and the result is (Σ k_i·a_i)·G.
func TestScratchBoundTables(t *testing.T) {
	needKernels(t)
	b := newGPU(t)
	rng := seeded(t)
	_, g2, _, _ := curve.Generators()
	for _, c := range []struct {
		g2            bool
		lg, w, copies int
	}{{false, 16, 0, 12}, {false, 20, 0, 12}, {false, 20, 16, 4}, {false, 16, 0, 2}, {true, 16, 0, 8}, {true, 12, 20, 13}} {
		n := 1 << c.lg
		s := shaScalars(rng, n)
		e := new(big.Int)
		k, jac, bases := backend.KernelMSMG1, make([]byte, unsafe.Sizeof(curve.G1Jac{})), []byte(nil)
		var want func(got []byte) bool
		if c.g2 {
			p, logs := benchG2(rng, n)
			k, jac, bases = backend.KernelMSMG2, make([]byte, unsafe.Sizeof(curve.G2Jac{})), bytesOf(p)
			x := msmLog(logs, s)
			x.BigInt(e)
			want = func(got []byte) bool {
				var w curve.G2Jac
				w.ScalarMultiplication(&g2, e)
				return as[curve.G2Jac](got).Equal(&w)
			}
		} else {
			p, logs := benchG1(rng, n)
			bases = bytesOf(p)
			x := msmLog(logs, s)
			x.BigInt(e)
			want = func(got []byte) bool {
				var w curve.G1Jac
				w.ScalarMultiplicationBase(e)
				return as[curve.G1Jac](got).Equal(&w)
			}
		}
		t.Run(fmt.Sprintf("%v/2^%d/w=%d/copies=%d", k, c.lg, c.w, c.copies), func(t *testing.T) {
			bb, sb := upload(t, b, bases), upload(t, b, bytesOf(s))
			if err := b.PrecomputeBases(nil, thisCurve, bb, 0, n, k, c.copies, c.w); err != nil {
				t.Fatal(err)
			}
			before := b.Memory().InUse
			b.PeakMemory(true)
			var err error
			if c.g2 {
				err = b.MSMG2(nil, thisCurve, jac, bb, 0, sb, n)
			} else {
				err = b.MSMG1(nil, thisCurve, jac, bb, 0, sb, n)
			}
			if err != nil {
				t.Fatal(err)
			}
			if !want(jac) {
				t.Errorf("the MSM over the table differs from (Σ k_i·a_i)·G")
			}
			used, bound := b.PeakMemory(false)-before, b.Scratch(k, thisCurve, n)
			tm := b.LastMSMTiming()
			t.Logf("window %d, %d copies: scratch peak %d bytes, Scratch %d (%.2f)", tm.Window, tm.Copies, used, bound, float64(used)/float64(bound))
			if tm.Copies != c.copies {
				t.Errorf("the MSM read %d copies, the table has %d", tm.Copies, c.copies)
			}
			if used > bound || used <= 0 {
				t.Errorf("scratch peak %d bytes, Scratch says %d", used, bound)
			}
		})
	}
}

// TestMSMShorterPasses: under a memory limit that leaves room for half of
// an MSM's scratch, the MSM runs in shorter passes and still equals
// gnark-crypto's.
func TestMSMShorterPasses(t *testing.T) {
	needKernels(t)
	rng := seeded(t)
	n := 1 << 18
	p, _ := benchG1(rng, n)
	s := randScalars(rng, n)
	probe := newGPU(t)
	inputs := int64(len(bytesOf(p)) + len(bytesOf(s)))
	b := newGPU(t, cuda.WithMemoryLimit(inputs+probe.Scratch(backend.KernelMSMG1, thisCurve, n)/2))
	if got, want := gpuG1(t, b, upload(t, b, bytesOf(p)), 0, upload(t, b, bytesOf(s)), n), refG1(p, s); !got.Equal(&want) {
		t.Fatal("MSM in shorter passes differs from gnark-crypto")
	}
	if tm := b.LastMSMTiming(); tm.Passes < 2 {
		t.Errorf("%d passes; want the MSM split", tm.Passes)
	}
}

// shaScalars returns n scalars distributed as the wires of the sha256
// proof's circuit (gnark's std sha2 of a 1100-byte message): 20.0% zero,
// 5.4% ±1 (one in ten −1), 34.4% from 2 to 255, 0.5% 32-bit, the rest
// uniform.
func shaScalars(rng *mrand.Rand, n int) []fr.Element {
	s := randScalars(rng, n)
	for i := range s {
		switch k := rng.IntN(1000); {
		case k < 200:
			s[i].SetZero()
		case k < 254:
			if rng.IntN(10) == 0 {
				s[i].SetInt64(-1)
			} else {
				s[i].SetOne()
			}
		case k < 598:
			s[i].SetUint64(2 + rng.Uint64N(254))
		case k < 603:
			s[i].SetUint64(rng.Uint64N(1 << 32))
		}
	}
	return s
}

// skewedScalars: one huge bucket (60% of the scalars 2), the rest uniform.
func skewedScalars(rng *mrand.Rand, n int) []fr.Element {
	s := randScalars(rng, n)
	for i := range s {
		if rng.IntN(10) < 6 {
			s[i].SetUint64(2)
		}
	}
	return s
}

// zeroOneHeavy: 90% zeros and ones, the rest uniform.
func zeroOneHeavy(rng *mrand.Rand, n int) []fr.Element {
	s := randScalars(rng, n)
	for i := range s {
		switch k := rng.IntN(20); {
		case k < 9:
			s[i].SetZero()
		case k < 18:
			s[i].SetOne()
		}
	}
	return s
}

// TestMSMShaShapeHost runs the host pipeline on sha256-like, skewed and
// 0/1-heavy scalars against gnark-crypto, with task caps that force
// several accumulation levels and windows that force many reduction
// levels, the host tail among them.
func TestMSMShaShapeHost(t *testing.T) {
	needKernels(t)
	rng := seeded(t)
	const n1, n2 = 1500, 160
	p1, p2 := randG1(rng, n1), randG2(rng, n2)
	type cfg struct{ w, task, flags int }
	for name, s := range map[string][]fr.Element{"sha256-like": shaScalars(rng, n1), "skewed": skewedScalars(rng, n1), "0/1-heavy": zeroOneHeavy(rng, n1)} {
		for _, k := range []cfg{{0, 0, 0}, {8, 2, 0}, {6, 3, 0}, {10, 5, 0}, {9, 0, 0}, {7, 4, hooks.NoSplit}, {8, 3, hooks.Fanin8}, {10, 0, hooks.Fanin8 | hooks.NoSplit},
			{0, 0, hooks.HostTail}, {12, 0, hooks.HostTail}, {10, 3, hooks.HostTail | hooks.Fanin8}, {8, 0, hooks.HostTail | hooks.NoSplit}} {
			got := hostMSM[curve.G1Jac](t, false, bytesOf(p1), bytesOf(s), k.w, k.task, k.flags)
			if want := refG1(p1, s); !got.Equal(&want) {
				t.Errorf("G1 %s %+v: host pipeline differs from gnark-crypto", name, k)
			}
		}
		for _, k := range []cfg{{0, 0, 0}, {6, 2, 0}, {7, 3, hooks.NoSplit}, {5, 0, 0}, {6, 3, hooks.Fanin8},
			{8, 0, hooks.HostTail}, {9, 0, hooks.HostTail}, {10, 2, hooks.HostTail | hooks.NoSplit}} {
			got := hostMSM[curve.G2Jac](t, true, bytesOf(p2), bytesOf(s[:n2]), k.w, k.task, k.flags)
			if want := refG2(p2, s[:n2]); !got.Equal(&want) {
				t.Errorf("G2 %s %+v: host pipeline differs from gnark-crypto", name, k)
			}
		}
	}
}

// TestMSMLargeShapes checks, on the GPU, the sizes the benchmarks time
// (G1 2^16…2^24, G2 2^16…2^22; 2^18 and 2^14 with -short) where
// gnark-crypto's MultiExp would take minutes: the bases have known
// discrete logarithms (benchG1), so Σ k_i·P_i = (Σ k_i·a_i)·G. Random,
// sha256-like and 0/1-heavy scalars; forced windows 20 and 21 and two
// passes beside the defaults.
func TestMSMLargeShapes(t *testing.T) {
	needKernels(t)
	newGPU(t) // skips the test when there is no GPU
	rng := seeded(t)
	max1, max2 := 24, 22
	if testing.Short() {
		max1, max2 = 18, 14
	}
	type shape struct {
		name string
		n    int
		opts []cuda.Option
		s    func(n int) []fr.Element
	}
	uniform := func(n int) []fr.Element { return randScalars(rng, n) }
	sha := func(n int) []fr.Element { return shaScalars(rng, n) }
	heavy := func(n int) []fr.Element { return zeroOneHeavy(rng, n) }
	var shapes []shape
	for _, k := range []int{16, 20, 22, 24} {
		if k <= max1 {
			shapes = append(shapes, shape{"random", 1 << k, nil, uniform}, shape{"sha256-like", 1 << k, nil, sha})
		}
	}
	m := 1 << min(max1, 20)
	shapes = append(shapes, shape{"w=20", m, []cuda.Option{cuda.WithMSMWindow(20)}, uniform},
		shape{"w=21", m, []cuda.Option{cuda.WithMSMWindow(21)}, uniform},
		shape{"two passes", m, []cuda.Option{cuda.WithMSMChunk(m/2 + 1)}, heavy},
		shape{"0/1-heavy", m, nil, heavy})
	p1, logs1 := benchG1(rng, 1<<max1)
	for _, sh := range shapes {
		// A subtest each: its backend and buffers go when it ends.
		t.Run(fmt.Sprintf("G1/%s/n=%d", sh.name, sh.n), func(t *testing.T) {
			b := newGPU(t, sh.opts...)
			s := sh.s(sh.n)
			got := gpuG1(t, b, upload(t, b, bytesOf(p1[:sh.n])), 0, upload(t, b, bytesOf(s)), sh.n)
			e := msmLog(logs1, s)
			var want curve.G1Jac
			want.ScalarMultiplicationBase(e.BigInt(new(big.Int)))
			tm := b.LastMSMTiming()
			t.Logf("window %d, %d passes, %.2f ms", tm.Window, tm.Passes, tm.Total)
			if !got.Equal(&want) {
				t.Errorf("GPU differs from Σ k_i·a_i times the generator")
			}
		})
	}
	p1 = nil
	p2, logs2 := benchG2(rng, 1<<max2)
	_, g2, _, _ := curve.Generators()
	for _, k := range []int{14, 16, 20, 22} {
		if k > max2 {
			continue
		}
		t.Run(fmt.Sprintf("G2/sha256-like/n=2^%d", k), func(t *testing.T) {
			b := newGPU(t)
			s := sha(1 << k)
			got := gpuG2(t, b, upload(t, b, bytesOf(p2[:1<<k])), 0, upload(t, b, bytesOf(s)), 1<<k)
			e := msmLog(logs2, s)
			var want curve.G2Jac
			want.ScalarMultiplication(&g2, e.BigInt(new(big.Int)))
			if !got.Equal(&want) {
				t.Errorf("GPU differs from Σ k_i·a_i times the generator")
			}
		})
	}
}

// Benchmarks on the GPU: BenchmarkMSMG1 and BenchmarkMSMG2 time MSMs over
// resident bases and random scalars, at the sizes of G16_BENCH_LOGS
// (default 16,20), without tables and with a table of each count of
// G16_BENCH_COPIES (default none; e.g. 4,12), with the window the backend
// picks or, on a backend each, each window of G16_BENCH_WINDOWS (e.g.
// 9,10,11,12; every backend keeps its buffers to the end); each reports
// the kernels' time (CUDA events) in all, the preparation's (split,
// digits, sort and plan: prep-ms), the sort's alone (sort-ms, within
// prep-ms), the accumulation's and the reduction's, and the window.
// BenchmarkNTT times the forward coset NTT (DIF) and the inverse (DIT) at
// G16_BENCH_NTT_LOGS (default 16,20,24) and the quotient step at the same
// sizes.

func benchLogs(env, def string) []int {
	s := os.Getenv(env)
	if s == "" {
		s = def
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		if k, err := strconv.Atoi(strings.TrimSpace(f)); err == nil {
			out = append(out, k)
		}
	}
	return out
}

// logRun is a run of points with known discrete logarithms: points lo..hi−1
// are (s + (i−lo)·t)·G for the group's generator G.
type logRun struct {
	lo, hi int
	s, t   fr.Element
}

// runs splits [0, n) into a run a core, each with random s and t.
func runs(rng *mrand.Rand, n int) []logRun {
	step := (n + runtime.NumCPU() - 1) / runtime.NumCPU()
	var out []logRun
	for lo := 0; lo < n; lo += step {
		out = append(out, logRun{lo: lo, hi: min(n, lo+step), s: randScalars(rng, 1)[0], t: randScalars(rng, 1)[0]})
	}
	return out
}

// eachRun runs f on every run on its own goroutine.
func eachRun(rs []logRun, f func(r logRun)) {
	var wg sync.WaitGroup
	for _, r := range rs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(r)
		}()
	}
	wg.Wait()
}

// benchG1 returns n distinct points of G1 (affine) and their discrete
// logarithms: per core, a run S, S+T, S+2T, … converted in batches.
func benchG1(rng *mrand.Rand, n int) ([]curve.G1Affine, []logRun) {
	out := make([]curve.G1Affine, n)
	rs := runs(rng, n)
	eachRun(rs, func(r logRun) {
		var acc curve.G1Jac
		var tp curve.G1Affine
		acc.ScalarMultiplicationBase(r.s.BigInt(new(big.Int)))
		tp.ScalarMultiplicationBase(r.t.BigInt(new(big.Int)))
		jac := make([]curve.G1Jac, min(1<<14, r.hi-r.lo))
		for i := r.lo; i < r.hi; i += len(jac) {
			m := min(len(jac), r.hi-i)
			for k := range m {
				jac[k] = acc
				acc.AddMixed(&tp)
			}
			copy(out[i:i+m], curve.BatchJacobianToAffineG1(jac[:m]))
		}
	})
	return out, rs
}

// benchG2 is benchG1 on G2 (each point converted on its own).
func benchG2(rng *mrand.Rand, n int) ([]curve.G2Affine, []logRun) {
	out := make([]curve.G2Affine, n)
	rs := runs(rng, n)
	_, _, _, g2 := curve.Generators()
	eachRun(rs, func(r logRun) {
		var acc curve.G2Jac
		var tp curve.G2Affine
		acc.FromAffine(&g2)
		acc.ScalarMultiplication(&acc, r.s.BigInt(new(big.Int)))
		tp.ScalarMultiplication(&g2, r.t.BigInt(new(big.Int)))
		for i := r.lo; i < r.hi; i++ {
			out[i].FromJacobian(&acc)
			acc.AddMixed(&tp)
		}
	})
	return out, rs
}

// msmLog is Σ_i k_i·a_i over the first len(k) points of the runs, a_i
// point i's discrete logarithm: the MSM of those points with scalars k is
// this times the generator.
func msmLog(rs []logRun, k []fr.Element) fr.Element {
	var sum fr.Element
	for _, r := range rs {
		hi := min(r.hi, len(k))
		if r.lo >= hi {
			continue
		}
		// Σ k_i·(s + (i−lo)·t) = s·Σ k_i + t·Σ (i−lo)·k_i
		var sk, jk, j, x, one fr.Element
		one.SetOne()
		for i := r.lo; i < hi; i++ {
			sk.Add(&sk, &k[i])
			x.Mul(&j, &k[i])
			jk.Add(&jk, &x)
			j.Add(&j, &one)
		}
		sk.Mul(&sk, &r.s)
		jk.Mul(&jk, &r.t)
		sum.Add(&sum, &sk).Add(&sum, &jk)
	}
	return sum
}

func benchMSM(b *testing.B, g2 bool) {
	needKernels(b)
	logs := benchLogs("G16_BENCH_LOGS", "16,20")
	copies := benchLogs("G16_BENCH_COPIES", "")
	windows := benchLogs("G16_BENCH_WINDOWS", "")
	if len(windows) == 0 {
		windows = []int{0}
	}
	rng := seeded(b)
	n := 1 << slices.Max(logs)
	s := randScalars(rng, n)
	var bases []byte
	k, jac := backend.KernelMSMG1, make([]byte, unsafe.Sizeof(curve.G1Jac{}))
	if g2 {
		p, _ := benchG2(rng, n)
		bases, k, jac = bytesOf(p), backend.KernelMSMG2, make([]byte, unsafe.Sizeof(curve.G2Jac{}))
	} else {
		p, _ := benchG1(rng, n)
		bases = bytesOf(p)
	}
	for _, w := range windows {
		var opts []cuda.Option
		name := ""
		if w > 0 {
			opts, name = append(opts, cuda.WithMSMWindow(w)), fmt.Sprintf("/w=%d", w)
		}
		gpu := newGPU(b, opts...)
		sb := upload(b, gpu, bytesOf(s))
		for _, c := range append([]int{1}, copies...) {
			bb := upload(b, gpu, bases)
			for _, lg := range logs {
				m := 1 << lg
				if c > 1 {
					if err := gpu.PrecomputeBases(nil, thisCurve, bb, 0, m, k, c, 0); err != nil {
						b.Fatalf("PrecomputeBases(2^%d, %d copies): %v", lg, c, err)
					}
				}
				b.Run(fmt.Sprintf("n=2^%d/copies=%d%s", lg, c, name), func(b *testing.B) {
					for b.Loop() {
						var err error
						if g2 {
							err = gpu.MSMG2(nil, thisCurve, jac, bb, 0, sb, m)
						} else {
							err = gpu.MSMG1(nil, thisCurve, jac, bb, 0, sb, m)
						}
						if err != nil {
							b.Fatal(err)
						}
					}
					tm := gpu.LastMSMTiming()
					b.ReportMetric(float64(tm.Total), "kernel-ms")
					b.ReportMetric(float64(tm.Window), "window")
					b.ReportMetric(tm.Split+tm.Digits+tm.Sort+tm.Plan, "prep-ms")
					b.ReportMetric(tm.Sort, "sort-ms")
					b.ReportMetric(tm.Accumulate, "accum-ms")
					b.ReportMetric(tm.Reduce, "reduce-ms")
				})
			}
		}
	}
}

func BenchmarkMSMG1(b *testing.B) { benchMSM(b, false) }
func BenchmarkMSMG2(b *testing.B) { benchMSM(b, true) }

func BenchmarkNTT(b *testing.B) {
	needKernels(b)
	logs := benchLogs("G16_BENCH_NTT_LOGS", "16,20,24")
	gpu := newGPU(b)
	rng := seeded(b)
	n := 1 << slices.Max(logs)
	data := upload(b, gpu, bytesOf(randScalars(rng, n)))
	other := upload(b, gpu, bytesOf(randScalars(rng, n)))
	shift := bytesOf(randScalars(rng, 1))
	z := bytesOf(randScalars(rng, 1))
	q, err := gpu.NewQueue()
	if err != nil {
		b.Fatal(err)
	}
	defer q.Close()
	for _, lg := range logs {
		for _, sp := range []backend.NTTSpec{
			{Curve: thisCurve, LogN: lg, Order: backend.DIF, Coset: true, CosetShift: shift},
			{Curve: thisCurve, LogN: lg, Inverse: true, Order: backend.DIT},
		} {
			b.Run(fmt.Sprintf("n=2^%d/inverse=%v/coset=%v", lg, sp.Inverse, sp.Coset), func(b *testing.B) {
				for b.Loop() {
					if err := gpu.NTT(q, data, sp); err != nil {
						b.Fatal(err)
					}
					if err := q.Wait(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		b.Run(fmt.Sprintf("n=2^%d/quotient", lg), func(b *testing.B) {
			for b.Loop() {
				if err := gpu.QuotientStep(q, thisCurve, data, other, other, 1<<lg, z); err != nil {
					b.Fatal(err)
				}
				if err := q.Wait(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
