//go:build cuda

package cuda

/*
#include "ntt.h"
*/
import "C"

import (
	"fmt"
	"github.com/consensys/gnark-crypto/ecc"
	"runtime"
	"sync"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr/fft"

	"github.com/g16prover/g16/backend"
)

// MaxLogN (api.go) is ntt.h's G16_NTT_MAX_LOG: these fail to compile
// otherwise.
var (
	_ [MaxLogN - C.G16_NTT_MAX_LOG]struct{}
	_ [C.G16_NTT_MAX_LOG - MaxLogN]struct{}
)

// maxLogRoots is the order, 2^maxLogRoots, of the roots table the stages
// inside a pass use; it bounds the stages one pass may do.
const maxLogRoots = 12

// nttTune overrides the kernels' pass shape; zero fields take the defaults.
// Only tests and benchmarks set it.
type nttTune struct {
	maxK, logBlock, threads int
}

// NTT runs the transform spec describes on the n = 2^spec.LogN elements at
// the start of data, in place, ordered on q. The first call for a size (and
// coset shift) builds its twiddle tables on the host and uploads them; they
// stay on the device until the backend closes.
func (b *Backend) NTT(q backend.Queue, data backend.Buffer, spec backend.NTTSpec) error {
	return b.ntt(q, data, spec, nttTune{})
}

func (b *Backend) ntt(q backend.Queue, data backend.Buffer, spec backend.NTTSpec, tune nttTune) error {
	if err := b.supportsArg("NTT", "spec.Curve", spec.Curve); err != nil {
		return err
	}
	shift, err := cosetShift(spec)
	if err != nil {
		return fmt.Errorf("%v: NTT: %w", b, err)
	}
	if spec.LogN < 0 || spec.LogN > MaxLogN {
		return fmt.Errorf("%v: NTT: spec.LogN: %d outside [0, %d]", b, spec.LogN, MaxLogN)
	}
	if spec.Order != backend.DIF && spec.Order != backend.DIT {
		return fmt.Errorf("%v: NTT: spec.Order: unknown order %v", b, spec.Order)
	}
	if spec.Coset && shift.IsZero() {
		return fmt.Errorf("%v: NTT: spec.CosetShift: zero", b)
	}
	if err := b.enter("NTT"); err != nil {
		return err
	}
	defer b.leave()
	s, err := b.streamOf("NTT", q)
	if err != nil {
		return err
	}
	x, err := b.bufferOf("NTT", "data", data)
	if err != nil {
		return err
	}
	if err := b.span("NTT", x, "data", "", 0, "spec.LogN", int64(1)<<spec.LogN, scalarBytes); err != nil {
		return err
	}
	x.tables.retire(0, (int64(1)<<spec.LogN)*scalarBytes) // written in place
	if spec.LogN == 0 {
		return nil // every variant is the identity on one element
	}
	tabs := b.nttTables()
	tw, err := tabs.twiddles(b, spec.LogN, spec.Inverse)
	if err != nil {
		return err
	}
	var sc *devTable
	if spec.Coset {
		if sc, err = tabs.scale(b, spec.LogN, spec.Inverse, shift); err != nil {
			return err
		}
	}
	a := nttArgs(spec, tune, tw.layout, tw.at, sc.part)
	return b.finish(s, b.status(C.g16_ntt(b.dev, s, x.ptr, &a)))
}

// QuotientStep sets a[i] = (a[i]·b[i] − c[i])·zInv for i < n, ordered on q.
func (b *Backend) QuotientStep(q backend.Queue, cv ecc.ID, a, bb, c backend.Buffer, n int, zInvBytes []byte) error {
	if err := b.supports("QuotientStep", cv); err != nil {
		return err
	}
	if len(zInvBytes) != int(scalarBytes) {
		return fmt.Errorf("%v: QuotientStep: zInv: %d bytes, a scalar takes %d", b, len(zInvBytes), scalarBytes)
	}
	zInv := *(*fr.Element)(unsafe.Pointer(&zInvBytes[0]))
	if err := b.enter("QuotientStep"); err != nil {
		return err
	}
	defer b.leave()
	s, err := b.streamOf("QuotientStep", q)
	if err != nil {
		return err
	}
	var ptr [3]unsafe.Pointer
	for i, buf := range []backend.Buffer{a, bb, c} {
		arg := [3]string{"a", "b", "c"}[i]
		x, err := b.bufferOf("QuotientStep", arg, buf)
		if err != nil {
			return err
		}
		if err := b.span("QuotientStep", x, arg, "", 0, "n", int64(n), scalarBytes); err != nil {
			return err
		}
		ptr[i] = x.ptr
		if i == 0 {
			x.tables.retire(0, int64(n)*scalarBytes) // a is written in place
		}
	}
	return b.finish(s, b.status(C.g16_quotient(b.dev, s, C.G16_CURVE_BLS12_381, ptr[0], ptr[1], ptr[2], C.int64_t(n), unsafe.Pointer(&zInv))))
}

// cosetShift is spec's coset shift as a scalar (zero when spec is off the
// coset), or an error when its bytes are not one scalar.
func cosetShift(spec backend.NTTSpec) (fr.Element, error) {
	var g fr.Element
	if !spec.Coset {
		return g, nil
	}
	if len(spec.CosetShift) != int(scalarBytes) {
		return g, fmt.Errorf("spec.CosetShift: %d bytes, a scalar takes %d", len(spec.CosetShift), scalarBytes)
	}
	copy(backend.ValueBytes(&g), spec.CosetShift)
	return g, nil
}

func nInverse(logN int) fr.Element {
	var x fr.Element
	x.SetUint64(uint64(1) << logN).Inverse(&x)
	return x
}

// Twiddle and scale tables. Twiddles depend on the size and the direction,
// scale tables also on the coset shift; both are built once on the host,
// uploaded, and kept on the device until the backend closes (about 1 MiB
// for each at 2^28).

type twiddleKey struct {
	logN    int
	inverse bool
}

type scaleKey struct {
	logN    int
	inverse bool
	shift   fr.Element
}

// devTable is one uploaded table set: fr.Elements at device address base.
type devTable struct {
	base   unsafe.Pointer
	bytes  int64
	layout twiddleLayout // twiddle tables
	hi     int           // scale tables: where hi starts
}

// at returns the address of element off.
func (t *devTable) at(off int) unsafe.Pointer {
	return unsafe.Add(t.base, off*int(scalarBytes))
}

// part returns the address of the scale tables' lo (0) or hi (1) part.
func (t *devTable) part(i int) unsafe.Pointer {
	if i == 0 {
		return t.base
	}
	return t.at(t.hi)
}

type nttTables struct {
	mu  sync.Mutex
	tw  map[twiddleKey]*devTable
	sc  map[scaleKey]*devTable
	all []*devTable
}

// windowOf splits exponents below 2^logN into a low window of windowOf bits
// and the rest.
func windowOf(logN int) int { return (logN + 1) / 2 }

// geometric returns first·base^i for i < n.
func geometric(first, base fr.Element, n int) []fr.Element {
	out := make([]fr.Element, n)
	for i := range out {
		out[i] = first
		first.Mul(&first, &base)
	}
	return out
}

// square returns x^(2^k).
func square(x fr.Element, k int) fr.Element {
	for ; k > 0; k-- {
		x.Square(&x)
	}
	return x
}

// maxLogDirect bounds the direct twiddle table: 2^18 elements, 8 MiB.
const maxLogDirect = 18

// twiddleLayout says where the parts of a twiddle table set start, in
// elements (−1: absent), and their sizes.
type twiddleLayout struct {
	logRoots, win, logDirect int
	lo, hi, hi0, direct      int
}

// twiddleTables returns, for ω the generator of the domain of size 2^logN
// (inverted for the inverse transform), concatenated:
//
//	roots:  ω^(m·2^(logN−logRoots)) for m < 2^(logRoots−1)
//	lo:     ω^e for e < 2^win
//	hi:     ω^(e·2^win) for e < 2^(logN−win)
//	hi0:    n⁻¹·hi (inverse only), so that the first pass applies n⁻¹
//	direct: ω^(m·2^(logN−logDirect)) for m < 2^logDirect (logN ≥ 2)
func twiddleTables(logN int, inverse bool) ([]fr.Element, twiddleLayout) {
	w, err := fft.Generator(uint64(1) << logN)
	if err != nil {
		panic("cuda: internal error: " + err.Error())
	}
	if inverse {
		w.Inverse(&w)
	}
	l := twiddleLayout{logRoots: min(logN, maxLogRoots), win: windowOf(logN), hi0: -1, direct: -1}
	one := fr.One()
	tab := geometric(one, square(w, logN-l.logRoots), 1<<(l.logRoots-1))
	l.lo = len(tab)
	tab = append(tab, geometric(one, w, 1<<l.win)...)
	l.hi = len(tab)
	hiBase := square(w, l.win)
	tab = append(tab, geometric(one, hiBase, 1<<(logN-l.win))...)
	if inverse {
		l.hi0 = len(tab)
		tab = append(tab, geometric(nInverse(logN), hiBase, 1<<(logN-l.win))...)
	}
	if logN >= 2 {
		l.logDirect = min(logN-1, maxLogDirect)
		l.direct = len(tab)
		tab = append(tab, geometric(one, square(w, logN-l.logDirect), 1<<l.logDirect)...)
	}
	return tab, l
}

// nttArgs fills the kernels' arguments: tw gives the address of an element
// of the twiddle tables, sc that of the scale tables' lo (0) or hi (1) part.
func nttArgs(spec backend.NTTSpec, tune nttTune, l twiddleLayout, tw func(int) unsafe.Pointer, sc func(int) unsafe.Pointer) C.g16_ntt_args {
	var a C.g16_ntt_args
	a.curve = C.G16_CURVE_BLS12_381
	a.log_n = C.int(spec.LogN)
	if spec.Order == backend.DIT {
		a.dit = 1
	}
	a.max_k, a.log_block, a.threads = C.int(tune.maxK), C.int(tune.logBlock), C.int(tune.threads)
	a.log_roots, a.win = C.int(l.logRoots), C.int(l.win)
	a.roots, a.tw_lo, a.tw_hi = tw(0), tw(l.lo), tw(l.hi)
	if l.direct >= 0 {
		a.log_direct, a.direct = C.int(l.logDirect), tw(l.direct)
	}
	switch {
	case spec.Coset:
		// Forward: x_i·g^i on the input. Inverse: n⁻¹·g^(−j) on the output.
		a.scale = 2
		a.sc_lo, a.sc_hi = sc(0), sc(1)
		if spec.Inverse {
			a.scale_out = 1
		}
	case spec.Inverse:
		// n⁻¹ on the output, or folded into the first pass's twiddles.
		a.scale, a.scale_out = 1, 1
		ninv := nInverse(spec.LogN)
		for i := range a.scale_c {
			a.scale_c[i] = C.uint32_t(ninv[i/2] >> (32 * (i % 2)))
		}
		if l.hi0 >= 0 {
			a.tw_hi0 = tw(l.hi0)
		}
	}
	return a
}

// scaleTables returns lo and hi, concatenated, with
// lo[i mod 2^win]·hi[i >> win] equal to g^i (forward) or n⁻¹·g^(−i)
// (inverse): the factor on input element i of a forward transform on the
// coset g, or on output element i of an inverse one.
func scaleTables(logN int, inverse bool, g fr.Element) (tab []fr.Element, hi int) {
	first := fr.One()
	if inverse {
		g.Inverse(&g)
		first = nInverse(logN)
	}
	win := windowOf(logN)
	tab = geometric(fr.One(), g, 1<<win)
	hi = len(tab)
	tab = append(tab, geometric(first, square(g, win), 1<<(logN-win))...)
	return tab, hi
}

func (c *nttTables) twiddles(b *Backend, logN int, inverse bool) (*devTable, error) {
	k := twiddleKey{logN, inverse}
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.tw[k]; ok {
		return t, nil
	}
	tab, layout := twiddleTables(logN, inverse)
	t, err := c.upload(b, tab)
	if err != nil {
		return nil, err
	}
	t.layout = layout
	if c.tw == nil {
		c.tw = make(map[twiddleKey]*devTable)
	}
	c.tw[k] = t
	return t, nil
}

// scale returns the scale tables of a transform on the coset g.
func (c *nttTables) scale(b *Backend, logN int, inverse bool, g fr.Element) (*devTable, error) {
	k := scaleKey{logN, inverse, g}
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.sc[k]; ok {
		return t, nil
	}
	tab, hi := scaleTables(logN, inverse, g)
	t, err := c.upload(b, tab)
	if err != nil {
		return nil, err
	}
	t.hi = hi
	if c.sc == nil {
		c.sc = make(map[scaleKey]*devTable)
	}
	c.sc[k] = t
	return t, nil
}

// upload copies tab to the device (g16_ntt_table_new: outside the memory
// limit and the in-use count, since the tables are the backend's own cache)
// and waits for the copy, so that a kernel on any queue may read it at once.
func (c *nttTables) upload(b *Backend, tab []fr.Element) (*devTable, error) {
	bytes := int64(len(tab)) * scalarBytes
	var p unsafe.Pointer
	if err := b.status(C.g16_ntt_table_new(b.dev, unsafe.Pointer(&tab[0]), C.int64_t(bytes), &p)); err != nil {
		return nil, err
	}
	t := &devTable{base: p, bytes: bytes}
	c.all = append(c.all, t)
	return t, nil
}

// release frees every table.
func (c *nttTables) release(b *Backend) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var first error
	for _, t := range c.all {
		if err := b.status(C.g16_ntt_table_free(b.dev, t.base)); err != nil && first == nil {
			first = err
		}
	}
	c.all, c.tw, c.sc = nil, nil, nil
	return first
}

// nttCaches holds each backend's tables (the Backend struct of cuda.go has no
// field for them).
var nttCaches sync.Map // *Backend → *nttTables

func (b *Backend) nttTables() *nttTables {
	if t, ok := nttCaches.Load(b); ok {
		return t.(*nttTables)
	}
	t, _ := nttCaches.LoadOrStore(b, &nttTables{})
	return t.(*nttTables)
}

// closeNTT frees b's tables. Close calls it while the device is still open.
func (b *Backend) closeNTT() error {
	t, ok := nttCaches.LoadAndDelete(b)
	if !ok {
		return nil
	}
	return t.(*nttTables).release(b)
}

// hostNTT runs the kernels' passes on the host (g16_host_ntt), with the
// same tables NTT would upload: a check of the kernels' index logic on
// machines with no GPU. Slow; for tests on small sizes.
func hostNTT(data []fr.Element, spec backend.NTTSpec, tune nttTune) error {
	if spec.LogN < 0 || spec.LogN > 20 || len(data) != 1<<spec.LogN {
		return fmt.Errorf("cuda: hostNTT: bad size")
	}
	if spec.LogN == 0 {
		return nil
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	ptr := func(s []fr.Element) unsafe.Pointer {
		pin.Pin(&s[0])
		return unsafe.Pointer(&s[0])
	}
	tw, layout := twiddleTables(spec.LogN, spec.Inverse)
	var sc []fr.Element
	var shi int
	if spec.Coset {
		g, err := cosetShift(spec)
		if err != nil {
			return fmt.Errorf("cuda: hostNTT: %w", err)
		}
		sc, shi = scaleTables(spec.LogN, spec.Inverse, g)
	}
	a := nttArgs(spec, tune, layout, func(off int) unsafe.Pointer { return ptr(tw[off:]) },
		func(i int) unsafe.Pointer { return ptr(sc[i*shi:]) })
	return errOf(C.g16_host_ntt(ptr(data), &a))
}

// hostQuotient is QuotientStep's kernel run on the host, for tests.
func hostQuotient(a, b, c []fr.Element, zInv fr.Element) error {
	if len(a) == 0 {
		return nil
	}
	return errOf(C.g16_host_quotient(C.G16_CURVE_BLS12_381, unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), unsafe.Pointer(&c[0]),
		C.int64_t(len(a)), unsafe.Pointer(&zInv)))
}
