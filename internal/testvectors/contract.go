package testvectors

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
	"github.com/g16prover/g16/internal/testvectors/internal/bls12377"
	"github.com/g16prover/g16/internal/testvectors/internal/bls12381"
	"github.com/g16prover/g16/internal/testvectors/internal/bn254"
	"github.com/g16prover/g16/internal/testvectors/internal/bw6761"
)

// curveOps is what the contract computes on one curve, over bytes in its
// gnark-crypto layout: internal/bls12381, or a copy of it that
// internal/generator writes.
type curveOps interface {
	Curve() ecc.ID
	Scalars(rng io.Reader, n int) []byte
	WitnessScalars(rng io.Reader, n int) []byte
	One() []byte
	Points(scalars []byte) (g1, g2 []byte)
	MSM(g2 bool, points, scalars []byte) ([]byte, error)
	Affine(g2 bool, jac []byte) ([]byte, error)
}

// contractCurves are the curves the contract runs on, each where the
// backend supports it.
var contractCurves = map[ecc.ID]curveOps{
	ecc.BLS12_381: bls12381.Ops{},
	ecc.BN254:     bn254.Ops{},
	ecc.BLS12_377: bls12377.Ops{},
	ecc.BW6_761:   bw6761.Ops{},
}

// contractLen is how many scalars and points the contract's buffers hold.
const contractLen = 8

// ContractCase is one bad call of the Backend contract: Call makes it on
// the fixture, and it must fail with an error whose message names Method
// and Arg (as "Arg:"), and that matches Is when Is is not nil.
type ContractCase struct {
	Name   string
	Method string
	Arg    string
	Is     error
	Call   func(f *ContractFixture) error
}

// ContractFixture is what the contract's calls run against: a backend B, a
// second backend Other of the same kind (for foreign buffers and queues),
// and buffers of known contents, values of Curve.
type ContractFixture struct {
	Curve    ecc.ID
	B, Other backend.Backend
	Q        backend.Queue // an open queue of B
	Closed   backend.Queue // a closed queue of B
	Foreign  backend.Queue // a queue of Other

	Scalars backend.Buffer // contractLen scalars
	Short   backend.Buffer // contractLen/2 scalars
	G1, G2  backend.Buffer // contractLen affine points each
	Freed   backend.Buffer // freed after Alloc
	Alien   backend.Buffer // a live buffer of Other

	ops     curveOps
	p       *curve.Params
	scalars []byte // the values the buffers hold
	short   []byte
	g1, g2  []byte
}

// fakeBuffer and fakeQueue belong to no backend.
type fakeBuffer struct{}

func (fakeBuffer) Bytes() int64 { return 1 << 20 }

type fakeQueue struct{}

func (fakeQueue) Wait() error  { return nil }
func (fakeQueue) Close() error { return nil }

// RunContract checks the Backend contract for bad calls on the backends
// newBackend returns, on every curve of package curve's table that they
// support, as subtests named after the curve (newBackend is called three
// times a curve; it should register Close with t.Cleanup): every case of
// ContractCases fails, before any work is done, with an error naming the
// method and the argument, and panics nowhere; the buffers the rejected
// calls named still hold what was uploaded; the same calls with good
// arguments (and a nil queue) work, with gnark-crypto's results; Scratch
// neither panics nor goes negative at any size; and a closed backend fails
// every method with backend.ErrClosed. A backend that supports none of the
// curves fails.
func RunContract(t *testing.T, newBackend func(t *testing.T) backend.Backend) {
	t.Helper()
	seed, err := CrossSeed()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("contract seed %d (%s=%d repeats this run)", seed, SeedEnv, seed)
	ran := 0
	for _, id := range curve.Supported() {
		if _, ok := contractCurves[id]; !ok {
			continue
		}
		b := newBackend(t)
		if b.Supports(id) != nil {
			continue
		}
		ran++
		t.Run(curve.Name(id), func(t *testing.T) { runContractOn(t, id, b, newBackend, seed) })
	}
	if ran == 0 {
		t.Fatalf("the backend supports none of %s", curve.SupportedNames())
	}
}

// runContractOn is RunContract on curve id with b.
func runContractOn(t *testing.T, id ecc.ID, b backend.Backend, newBackend func(t *testing.T) backend.Backend, seed uint64) {
	f, err := NewContractFixtureOn(id, b, newBackend(t), seed)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range ContractCases() {
		t.Run(c.Method+"/"+c.Name, func(t *testing.T) {
			if err := f.Check(c); err != nil {
				t.Error(err)
			}
		})
	}
	t.Run("unchanged", func(t *testing.T) {
		if err := f.Unchanged(); err != nil {
			t.Error(err)
		}
	})
	t.Run("good-calls", func(t *testing.T) {
		if err := f.GoodCalls(); err != nil {
			t.Error(err)
		}
	})
	t.Run("scratch", func(t *testing.T) {
		if err := scratchErrors(f.B, id); err != nil {
			t.Error(err)
		}
	})
	t.Run("closed", func(t *testing.T) {
		for _, err := range closedErrors(newBackend(t), id, f.ops.One()) {
			t.Error(err)
		}
	})
}

// NewContractFixture is NewContractFixtureOn BLS12-381.
func NewContractFixture(b, other backend.Backend, seed uint64) (*ContractFixture, error) {
	return NewContractFixtureOn(ecc.BLS12_381, b, other, seed)
}

// NewContractFixtureOn allocates and fills the fixture's buffers on b with
// values of curve id drawn from seed, and a foreign buffer and queue on
// other.
func NewContractFixtureOn(id ecc.ID, b, other backend.Backend, seed uint64) (*ContractFixture, error) {
	ops, ok := contractCurves[id]
	if !ok {
		return nil, fmt.Errorf("testvectors: the contract has no fixture on %s", curve.Name(id))
	}
	var key [8]byte
	binary.LittleEndian.PutUint64(key[:], seed)
	rng := rand.NewChaCha8(sha256.Sum256(append([]byte("contract"), key[:]...)))
	f := &ContractFixture{Curve: id, B: b, Other: other, ops: ops, p: curve.Must(id), scalars: ops.Scalars(rng, contractLen)}
	f.g1, f.g2 = ops.Points(ops.Scalars(rng, contractLen))
	f.short = f.scalars[:contractLen/2*f.p.FrBytes]
	var err error
	if f.Q, err = b.NewQueue(); err != nil {
		return nil, err
	}
	if f.Closed, err = b.NewQueue(); err != nil {
		return nil, err
	}
	if err := f.Closed.Close(); err != nil {
		return nil, err
	}
	if f.Foreign, err = other.NewQueue(); err != nil {
		return nil, err
	}
	up := func(dst *backend.Buffer, dev backend.Backend, data []byte) error {
		x, err := dev.Alloc(nil, int64(len(data)))
		if err != nil {
			return err
		}
		*dst = x
		return dev.Upload(nil, x, 0, data)
	}
	for _, u := range []struct {
		dst  *backend.Buffer
		dev  backend.Backend
		data []byte
	}{
		{&f.Scalars, b, f.scalars},
		{&f.Short, b, f.short},
		{&f.G1, b, f.g1},
		{&f.G2, b, f.g2},
		{&f.Freed, b, f.scalars},
		{&f.Alien, other, f.scalars},
	} {
		if err := up(u.dst, u.dev, u.data); err != nil {
			return nil, err
		}
	}
	if err := b.Free(nil, f.Freed); err != nil {
		return nil, err
	}
	return f, nil
}

// Check makes c's call and says what is wrong with its outcome; nil when it
// failed as the contract says.
func (f *ContractFixture) Check(c ContractCase) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s %s: panicked: %v", c.Method, c.Name, r)
		}
	}()
	got := c.Call(f)
	switch {
	case got == nil:
		return fmt.Errorf("%s %s: no error", c.Method, c.Name)
	case !strings.Contains(got.Error(), c.Method):
		return fmt.Errorf("%s %s: error does not name the method: %v", c.Method, c.Name, got)
	case c.Arg != "" && !strings.Contains(got.Error(), c.Arg+":"):
		return fmt.Errorf("%s %s: error does not name the argument %q: %v", c.Method, c.Name, c.Arg, got)
	case c.Is != nil && !errors.Is(got, c.Is):
		return fmt.Errorf("%s %s: error does not match %v: %v", c.Method, c.Name, c.Is, got)
	}
	return nil
}

// Unchanged checks that the fixture's buffers hold what was uploaded.
func (f *ContractFixture) Unchanged() error {
	for _, c := range []struct {
		name string
		buf  backend.Buffer
		want []byte
	}{
		{"scalars", f.Scalars, f.scalars},
		{"short", f.Short, f.short},
		{"G1", f.G1, f.g1},
		{"G2", f.G2, f.g2},
	} {
		got := make([]byte, len(c.want))
		if err := f.B.Download(f.Q, got, c.buf, 0); err != nil {
			return fmt.Errorf("downloading the %s buffer: %w", c.name, err)
		}
		if !bytes.Equal(got, c.want) {
			return fmt.Errorf("the %s buffer changed: a rejected call wrote to it", c.name)
		}
	}
	return nil
}

// GoodCalls makes the calls the cases spoil, with good arguments, on f.Q
// and on the nil queue, and checks their results against gnark-crypto's.
func (f *ContractFixture) GoodCalls() error {
	want1, err := f.ops.MSM(false, f.g1, f.scalars)
	if err != nil {
		return err
	}
	want2, err := f.ops.MSM(true, f.g2, f.scalars)
	if err != nil {
		return err
	}
	g1Bytes, frBytes := f.p.G1AffineBytes, f.p.FrBytes
	wantLast, err := f.ops.MSM(false, f.g1[(contractLen-1)*g1Bytes:], f.scalars[:frBytes])
	if err != nil {
		return err
	}
	// msm runs MSMG1 (MSMG2 with g2) on q and returns the result, affine.
	msm := func(q backend.Queue, g2 bool, bases backend.Buffer, off int64, n int) ([]byte, error) {
		if g2 {
			out := make([]byte, f.p.G2JacBytes)
			if err := f.B.MSMG2(q, f.Curve, out, bases, off, f.Scalars, n); err != nil {
				return nil, fmt.Errorf("MSMG2: %w", err)
			}
			return f.ops.Affine(true, out)
		}
		out := make([]byte, f.p.G1JacBytes)
		if err := f.B.MSMG1(q, f.Curve, out, bases, off, f.Scalars, n); err != nil {
			return nil, fmt.Errorf("MSMG1: %w", err)
		}
		return f.ops.Affine(false, out)
	}
	for _, q := range []backend.Queue{f.Q, nil} {
		name := "queue"
		if q == nil {
			name = "nil queue"
		}
		for _, c := range []struct {
			what  string
			g2    bool
			bases backend.Buffer
			off   int64
			n     int
			want  []byte
		}{
			{"MSMG1", false, f.G1, 0, contractLen, want1},
			{"MSMG2", true, f.G2, 0, contractLen, want2},
			// Offsets and lengths at the edges are allowed.
			{"MSMG1 of the last point", false, f.G1, (contractLen - 1) * g1Bytes, 1, wantLast},
			{"MSMG1 of no points at the end of the buffer", false, f.G1, contractLen * g1Bytes, 0, make([]byte, g1Bytes)},
		} {
			got, err := msm(q, c.g2, c.bases, c.off, c.n)
			if err != nil {
				return fmt.Errorf("%s: %s: %w", name, c.what, err)
			}
			if !bytes.Equal(got, c.want) {
				return fmt.Errorf("%s: %s differs from gnark-crypto's MultiExp", name, c.what)
			}
		}
		x, err := f.B.Alloc(q, 3*frBytes)
		if err != nil {
			return fmt.Errorf("%s: Alloc: %w", name, err)
		}
		src := f.scalars[:3*frBytes]
		if err := f.B.Upload(q, x, 0, src); err != nil {
			return fmt.Errorf("%s: Upload: %w", name, err)
		}
		if err := f.B.Upload(q, x, x.Bytes(), nil); err != nil {
			return fmt.Errorf("%s: Upload of nothing at the end: %w", name, err)
		}
		got := make([]byte, len(src)-5)
		if err := f.B.Download(q, got, x, 5); err != nil {
			return fmt.Errorf("%s: Download at an odd offset: %w", name, err)
		}
		if !bytes.Equal(got, src[5:]) {
			return fmt.Errorf("%s: Download at offset 5 returned other bytes", name)
		}
		if err := f.B.Free(q, x); err != nil {
			return fmt.Errorf("%s: Free: %w", name, err)
		}
	}
	return nil
}

// closedErrors closes b and says which methods, called on curve id (one its
// scalar 1), did not fail with backend.ErrClosed (or, for Close, failed).
func closedErrors(b backend.Backend, id ecc.ID, one []byte) []error {
	p := curve.Must(id)
	var errs []error
	q, err := b.NewQueue()
	if err != nil {
		return []error{err}
	}
	x, err := b.Alloc(q, 4*p.FrBytes)
	if err != nil {
		return []error{err}
	}
	if err := q.Wait(); err != nil {
		return []error{err}
	}
	if err := b.Close(); err != nil {
		return []error{fmt.Errorf("Close: %w", err)}
	}
	p1, p2 := make([]byte, p.G1JacBytes), make([]byte, p.G2JacBytes)
	calls := []struct {
		method string
		call   func() error
	}{
		{"Alloc", func() error { _, err := b.Alloc(nil, 64); return err }},
		{"AllocDirect", func() error { _, err := b.AllocDirect(64); return err }},
		{"Free", func() error { return b.Free(nil, x) }},
		{"TrimPool", func() error { return b.TrimPool(0) }},
		{"Sync", b.Sync},
		{"NewQueue", func() error { _, err := b.NewQueue(); return err }},
		{"Upload", func() error { return b.Upload(nil, x, 0, make([]byte, 8)) }},
		{"Download", func() error { return b.Download(nil, make([]byte, 8), x, 0) }},
		{"NTT", func() error { return b.NTT(nil, x, backend.NTTSpec{Curve: id, LogN: 2}) }},
		{"QuotientStep", func() error { return b.QuotientStep(nil, id, x, x, x, 4, one) }},
		{"MSMG1", func() error { return b.MSMG1(nil, id, p1, x, 0, x, 0) }},
		{"MSMG2", func() error { return b.MSMG2(nil, id, p2, x, 0, x, 0) }},
	}
	for _, c := range calls {
		err := safeCall(c.call)
		if !errors.Is(err, backend.ErrClosed) || !strings.Contains(err.Error(), c.method) {
			errs = append(errs, fmt.Errorf("%s after Close: want an error naming %s and matching ErrClosed, got %v", c.method, c.method, err))
		}
	}
	if err := safeCall(b.Close); err != nil {
		errs = append(errs, fmt.Errorf("second Close: %w", err))
	}
	if err := safeCall(func() error { b.Memory(); return nil }); err != nil {
		errs = append(errs, fmt.Errorf("Memory after Close: %w", err))
	}
	return errs
}

// scratchErrors checks that Scratch on curve id, for every kernel (and one
// that does not exist) and sizes from MinInt to MaxInt, neither panics nor
// reports a negative size.
func scratchErrors(b backend.Backend, id ecc.ID) error {
	for _, k := range []backend.Kernel{backend.KernelMSMG1, backend.KernelMSMG2, backend.KernelNTT, backend.KernelQuotientStep, 99} {
		for _, n := range []int{math.MinInt, -1, 0, 1, 1 << 20, 1 << 40, math.MaxInt} {
			var v int64
			if err := safeCall(func() error { v = b.Scratch(k, id, n); return nil }); err != nil {
				return fmt.Errorf("Scratch(%v, %d): %w", k, n, err)
			}
			if v < 0 {
				return fmt.Errorf("Scratch(%v, %d) = %d, negative", k, n, v)
			}
		}
	}
	return nil
}

func safeCall(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panicked: %v", r)
		}
	}()
	return f()
}

// over is the least length of values of size bytes whose byte size
// overflows int64.
func over(size int64) int { return int(math.MaxInt64/size + 1) }

// ContractCases lists the bad calls every backend must reject.
func ContractCases() []ContractCase {
	var cs []ContractCase
	add := func(method, name, arg string, is error, call func(f *ContractFixture) error) {
		cs = append(cs, ContractCase{Name: name, Method: method, Arg: arg, Is: is, Call: call})
	}
	bufs := func(method, arg string, call func(f *ContractFixture, x backend.Buffer) error) {
		add(method, arg+"=nil", arg, nil, func(f *ContractFixture) error { return call(f, nil) })
		add(method, arg+"=freed", arg, nil, func(f *ContractFixture) error { return call(f, f.Freed) })
		add(method, arg+"=foreign", arg, nil, func(f *ContractFixture) error { return call(f, f.Alien) })
		add(method, arg+"=fake", arg, nil, func(f *ContractFixture) error { return call(f, fakeBuffer{}) })
	}
	queues := func(method string, call func(f *ContractFixture, q backend.Queue) error) {
		add(method, "q=closed", "q", backend.ErrClosed, func(f *ContractFixture) error { return call(f, f.Closed) })
		add(method, "q=foreign", "q", nil, func(f *ContractFixture) error { return call(f, f.Foreign) })
		add(method, "q=fake", "q", nil, func(f *ContractFixture) error { return call(f, fakeQueue{}) })
	}

	// Alloc, AllocDirect, Free, TrimPool.
	alloc := func(f *ContractFixture, q backend.Queue, n int64) error {
		x, err := f.B.Alloc(q, n)
		if err == nil {
			_ = f.B.Free(q, x)
		}
		return err
	}
	allocDirect := func(f *ContractFixture, n int64) error {
		x, err := f.B.AllocDirect(n)
		if err == nil {
			_ = f.B.Free(nil, x)
		}
		return err
	}
	add("Alloc", "bytes=-1", "bytes", nil, func(f *ContractFixture) error { return alloc(f, f.Q, -1) })
	add("Alloc", "bytes=MinInt64", "bytes", nil, func(f *ContractFixture) error { return alloc(f, f.Q, math.MinInt64) })
	add("Alloc", "bytes=2^62", "bytes", backend.ErrOutOfMemory, func(f *ContractFixture) error { return alloc(f, f.Q, 1<<62) })
	add("Alloc", "bytes=MaxInt64", "bytes", backend.ErrOutOfMemory, func(f *ContractFixture) error { return alloc(f, f.Q, math.MaxInt64) })
	queues("Alloc", func(f *ContractFixture, q backend.Queue) error { return alloc(f, q, 64) })
	add("AllocDirect", "bytes=-1", "bytes", nil, func(f *ContractFixture) error { return allocDirect(f, -1) })
	add("AllocDirect", "bytes=2^60", "bytes", backend.ErrOutOfMemory, func(f *ContractFixture) error { return allocDirect(f, 1<<60) })
	add("AllocDirect", "bytes=MaxInt64", "bytes", backend.ErrOutOfMemory, func(f *ContractFixture) error { return allocDirect(f, math.MaxInt64) })
	bufs("Free", "buf", func(f *ContractFixture, x backend.Buffer) error { return f.B.Free(f.Q, x) })
	queues("Free", func(f *ContractFixture, q backend.Queue) error {
		x, err := f.B.Alloc(nil, 64)
		if err != nil {
			return fmt.Errorf("setup: %w", err)
		}
		err = f.B.Free(q, x)
		if err != nil {
			_ = f.B.Free(nil, x)
		}
		return err
	})
	add("TrimPool", "keep=-1", "keep", nil, func(f *ContractFixture) error { return f.B.TrimPool(-1) })

	// Upload and Download.
	up := func(f *ContractFixture, q backend.Queue, x backend.Buffer, off int64, n int) error {
		return f.B.Upload(q, x, off, make([]byte, n))
	}
	down := func(f *ContractFixture, q backend.Queue, x backend.Buffer, off int64, n int) error {
		return f.B.Download(q, make([]byte, n), x, off)
	}
	for _, tr := range []struct {
		method, buf, host string
		call              func(f *ContractFixture, q backend.Queue, x backend.Buffer, off int64, n int) error
	}{{"Upload", "dst", "src", up}, {"Download", "src", "dst", down}} {
		call := tr.call
		bufs(tr.method, tr.buf, func(f *ContractFixture, x backend.Buffer) error { return call(f, f.Q, x, 0, 8) })
		queues(tr.method, func(f *ContractFixture, q backend.Queue) error { return call(f, q, f.Scalars, 0, 8) })
		size := func(f *ContractFixture) int64 { return f.Scalars.Bytes() }
		add(tr.method, "off=-1", "off", nil, func(f *ContractFixture) error { return call(f, f.Q, f.Scalars, -1, 8) })
		add(tr.method, "off=MinInt64", "off", nil, func(f *ContractFixture) error { return call(f, f.Q, f.Scalars, math.MinInt64, 8) })
		add(tr.method, "off=bytes+1", "off", nil, func(f *ContractFixture) error { return call(f, f.Q, f.Scalars, size(f)+1, 0) })
		add(tr.method, "off=MaxInt64", "off", nil, func(f *ContractFixture) error { return call(f, f.Q, f.Scalars, math.MaxInt64, 8) })
		add(tr.method, "overrun-by-1", tr.host, nil, func(f *ContractFixture) error { return call(f, f.Q, f.Scalars, size(f)-7, 8) })
		add(tr.method, "len=bytes+1", tr.host, nil, func(f *ContractFixture) error { return call(f, f.Q, f.Scalars, 0, int(size(f))+1) })
	}

	// NTT.
	// ntt runs spec on the fixture's curve (unless spec names a curve).
	ntt := func(spec backend.NTTSpec) func(f *ContractFixture) error {
		return func(f *ContractFixture) error {
			if spec.Curve == ecc.UNKNOWN {
				spec.Curve = f.Curve
			}
			return f.B.NTT(f.Q, f.Scalars, spec)
		}
	}
	bufs("NTT", "data", func(f *ContractFixture, x backend.Buffer) error {
		return f.B.NTT(f.Q, x, backend.NTTSpec{Curve: f.Curve, LogN: 3})
	})
	queues("NTT", func(f *ContractFixture, q backend.Queue) error {
		return f.B.NTT(q, f.Scalars, backend.NTTSpec{Curve: f.Curve, LogN: 3})
	})
	// A curve no backend computes on (g16 does not support BW6-633).
	add("NTT", "curve=bw6-633", "spec.Curve", backend.ErrUnsupportedCurve, ntt(backend.NTTSpec{Curve: ecc.BW6_633, LogN: 2}))
	add("QuotientStep", "curve=bw6-633", "curve", backend.ErrUnsupportedCurve, func(f *ContractFixture) error {
		return f.B.QuotientStep(f.Q, ecc.BW6_633, f.Scalars, f.Scalars, f.Scalars, 1, make([]byte, 48))
	})
	add("MSMG1", "curve=bw6-633", "curve", backend.ErrUnsupportedCurve, func(f *ContractFixture) error {
		return f.B.MSMG1(f.Q, ecc.BW6_633, make([]byte, 3*80), f.G1, 0, f.Scalars, 1)
	})
	add("MSMG2", "curve=bw6-633", "curve", backend.ErrUnsupportedCurve, func(f *ContractFixture) error {
		return f.B.MSMG2(f.Q, ecc.BW6_633, make([]byte, 3*80), f.G2, 0, f.Scalars, 1)
	})
	add("NTT", "LogN=-1", "spec.LogN", nil, ntt(backend.NTTSpec{LogN: -1}))
	add("NTT", "LogN=63", "spec.LogN", nil, ntt(backend.NTTSpec{LogN: 63}))
	add("NTT", "LogN=MaxInt", "spec.LogN", nil, ntt(backend.NTTSpec{LogN: math.MaxInt}))
	add("NTT", "LogN=4-over-8-elements", "spec.LogN", nil, ntt(backend.NTTSpec{LogN: 4}))
	add("NTT", "LogN=20-over-8-elements", "spec.LogN", nil, ntt(backend.NTTSpec{LogN: 20}))
	add("NTT", "order=7", "spec.Order", nil, ntt(backend.NTTSpec{LogN: 3, Order: 7}))
	add("NTT", "coset-shift=0", "spec.CosetShift", nil, ntt(backend.NTTSpec{LogN: 3, Coset: true}))

	// QuotientStep.
	qs := func(a, b, c func(f *ContractFixture) backend.Buffer, n int) func(f *ContractFixture) error {
		return func(f *ContractFixture) error {
			return f.B.QuotientStep(f.Q, f.Curve, a(f), b(f), c(f), n, f.ops.One())
		}
	}
	sc := func(f *ContractFixture) backend.Buffer { return f.Scalars }
	short := func(f *ContractFixture) backend.Buffer { return f.Short }
	for i, arg := range []string{"a", "b", "c"} {
		bufs("QuotientStep", arg, func(f *ContractFixture, x backend.Buffer) error {
			in := []backend.Buffer{f.Scalars, f.Scalars, f.Scalars}
			in[i] = x
			return f.B.QuotientStep(f.Q, f.Curve, in[0], in[1], in[2], contractLen, f.ops.One())
		})
	}
	queues("QuotientStep", func(f *ContractFixture, q backend.Queue) error {
		return f.B.QuotientStep(q, f.Curve, f.Scalars, f.Scalars, f.Scalars, contractLen, f.ops.One())
	})
	add("QuotientStep", "n=-1", "n", nil, qs(sc, sc, sc, -1))
	add("QuotientStep", "n=MinInt", "n", nil, qs(sc, sc, sc, math.MinInt))
	add("QuotientStep", "n=len+1", "n", nil, qs(sc, sc, sc, contractLen+1))
	add("QuotientStep", "n=MaxInt64/32+1", "n", nil, qs(sc, sc, sc, over(32)))
	add("QuotientStep", "n=MaxInt", "n", nil, qs(sc, sc, sc, math.MaxInt))
	add("QuotientStep", "c-short", "n", nil, qs(sc, sc, short, contractLen))

	// MSMG1 and MSMG2.
	type msmCall func(f *ContractFixture, q backend.Queue, out bool, bases backend.Buffer, off int64, scalars backend.Buffer, n int) error
	msm1 := func(f *ContractFixture, q backend.Queue, out bool, bases backend.Buffer, off int64, scalars backend.Buffer, n int) error {
		var p []byte
		if out {
			p = make([]byte, f.p.G1JacBytes)
		}
		return f.B.MSMG1(q, f.Curve, p, bases, off, scalars, n)
	}
	msm2 := func(f *ContractFixture, q backend.Queue, out bool, bases backend.Buffer, off int64, scalars backend.Buffer, n int) error {
		var p []byte
		if out {
			p = make([]byte, f.p.G2JacBytes)
		}
		return f.B.MSMG2(q, f.Curve, p, bases, off, scalars, n)
	}
	for _, m := range []struct {
		method string
		call   msmCall
		bases  func(f *ContractFixture) backend.Buffer
		size   func(f *ContractFixture) int64 // an affine point's bytes
	}{
		{"MSMG1", msm1, func(f *ContractFixture) backend.Buffer { return f.G1 }, func(f *ContractFixture) int64 { return f.p.G1AffineBytes }},
		{"MSMG2", msm2, func(f *ContractFixture) backend.Buffer { return f.G2 }, func(f *ContractFixture) int64 { return f.p.G2AffineBytes }},
	} {
		call, bases, size := m.call, m.bases, m.size
		// with calls with bases at off(f) and n(f) points.
		with := func(off func(f *ContractFixture) int64, n func(f *ContractFixture) int) func(f *ContractFixture) error {
			return func(f *ContractFixture) error { return call(f, f.Q, true, bases(f), off(f), f.Scalars, n(f)) }
		}
		at := func(v int64) func(*ContractFixture) int64 { return func(*ContractFixture) int64 { return v } }
		count := func(v int) func(*ContractFixture) int { return func(*ContractFixture) int { return v } }
		add(m.method, "out=nil", "out", nil, func(f *ContractFixture) error {
			return call(f, f.Q, false, bases(f), 0, f.Scalars, contractLen)
		})
		method := m.method
		add(m.method, "out=short", "out", nil, func(f *ContractFixture) error {
			short := make([]byte, 8)
			if method == "MSMG1" {
				return f.B.MSMG1(f.Q, f.Curve, short, bases(f), 0, f.Scalars, contractLen)
			}
			return f.B.MSMG2(f.Q, f.Curve, short, bases(f), 0, f.Scalars, contractLen)
		})
		bufs(m.method, "bases", func(f *ContractFixture, x backend.Buffer) error { return call(f, f.Q, true, x, 0, f.Scalars, 1) })
		bufs(m.method, "scalars", func(f *ContractFixture, x backend.Buffer) error { return call(f, f.Q, true, bases(f), 0, x, 1) })
		queues(m.method, func(f *ContractFixture, q backend.Queue) error { return call(f, q, true, bases(f), 0, f.Scalars, 1) })
		add(m.method, "n=-1", "n", nil, with(at(0), count(-1)))
		add(m.method, "n=MinInt", "n", nil, with(at(0), count(math.MinInt)))
		add(m.method, "n=len+1", "n", nil, with(at(0), count(contractLen+1)))
		add(m.method, "n=MaxInt64/pointBytes+1", "n", nil, with(at(0), func(f *ContractFixture) int { return over(size(f)) }))
		add(m.method, "n=MaxInt64/32+1", "n", nil, with(at(0), count(over(32))))
		add(m.method, "n=MaxInt", "n", nil, with(at(0), count(math.MaxInt)))
		add(m.method, "basesOff=-16", "basesOff", nil, with(at(-16), count(1)))
		add(m.method, "basesOff=MinInt64", "basesOff", nil, with(at(math.MinInt64), count(1)))
		add(m.method, "basesOff=8", "basesOff", nil, with(at(8), count(1)))
		add(m.method, "basesOff=1", "basesOff", nil, with(at(1), count(0)))
		add(m.method, "basesOff=bytes+16", "basesOff", nil, with(func(f *ContractFixture) int64 { return contractLen*size(f) + 16 }, count(0)))
		add(m.method, "basesOff=MaxInt64-15", "basesOff", nil, with(at(math.MaxInt64-15), count(1)))
		add(m.method, "basesOff+n-overrun", "n", nil, with(size, count(contractLen)))
		add(m.method, "scalars-short", "n", nil, func(f *ContractFixture) error {
			return call(f, f.Q, true, bases(f), 0, f.Short, contractLen)
		})
	}
	return cs
}
