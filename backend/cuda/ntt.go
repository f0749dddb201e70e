//go:build cuda

package cuda

/*
#include "ntt.h"
*/
import "C"

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
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
// the start of data, in place, ordered on q; spec.LogN is at most MaxLogN
// and the curve's 2-adicity (BN254 28; BLS12-381's 32, BLS12-377's 47 and BW6-761's 46 are above 2^30). The first call for a curve, size
// (and coset shift) builds its twiddle tables on the host and uploads
// them; they stay on the device until the backend closes.
func (b *Backend) NTT(q backend.Queue, data backend.Buffer, spec backend.NTTSpec) error {
	return b.ntt(q, data, spec, nttTune{})
}

func (b *Backend) ntt(q backend.Queue, data backend.Buffer, spec backend.NTTSpec, tune nttTune) error {
	if err := b.supportsArg("NTT", "spec.Curve", spec.Curve); err != nil {
		return err
	}
	if err := checkNTT(spec); err != nil {
		return fmt.Errorf("%v: NTT: %w", b, err)
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
	scalarBytes := curve.Must(spec.Curve).FrBytes
	if err := b.span("NTT", x, "data", "", 0, "spec.LogN", int64(1)<<spec.LogN, scalarBytes); err != nil {
		return err
	}
	x.tables.retire(0, (int64(1)<<spec.LogN)*scalarBytes) // written in place
	if spec.LogN == 0 {
		return nil // every variant is the identity on one element
	}
	tabs := b.nttTables()
	tw, err := tabs.twiddles(b, spec.Curve, spec.LogN, spec.Inverse)
	if err != nil {
		return err
	}
	var sc *devTable
	if spec.Coset {
		if sc, err = tabs.scale(b, spec.Curve, spec.LogN, spec.Inverse, spec.CosetShift); err != nil {
			return err
		}
	}
	a := nttArgs(spec, tune, tw.layout, tw.at, sc.part)
	return b.finish(s, b.status(C.g16_ntt(b.dev, s, x.ptr, &a)))
}

// QuotientStep sets a[i] = (a[i]·b[i] − c[i])·zInv for i < n, ordered on q.
func (b *Backend) QuotientStep(q backend.Queue, cv ecc.ID, a, bb, c backend.Buffer, n int, zInv []byte) error {
	if err := b.supports("QuotientStep", cv); err != nil {
		return err
	}
	scalarBytes := curve.Must(cv).FrBytes
	if len(zInv) != int(scalarBytes) {
		return fmt.Errorf("%v: QuotientStep: zInv: %d bytes, a scalar takes %d", b, len(zInv), scalarBytes)
	}
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
	return b.finish(s, b.status(C.g16_quotient(b.dev, s, C.int(curveCode(cv)), ptr[0], ptr[1], ptr[2], C.int64_t(n), unsafe.Pointer(&zInv[0]))))
}

// checkNTT checks spec's size, order and coset shift against its curve,
// which the kernels compute on.
func checkNTT(spec backend.NTTSpec) error {
	h := hosts[spec.Curve]
	if most := min(MaxLogN, h.MaxLogN()); spec.LogN < 0 || spec.LogN > most {
		return fmt.Errorf("spec.LogN: %d outside [0, %d] (%s)", spec.LogN, most, curve.Name(spec.Curve))
	}
	if spec.Order != backend.DIF && spec.Order != backend.DIT {
		return fmt.Errorf("spec.Order: unknown order %v", spec.Order)
	}
	if !spec.Coset {
		return nil
	}
	if want := curve.Must(spec.Curve).FrBytes; int64(len(spec.CosetShift)) != want {
		return fmt.Errorf("spec.CosetShift: %d bytes, a scalar takes %d", len(spec.CosetShift), want)
	}
	if h.ScalarIsZero(spec.CosetShift) {
		return fmt.Errorf("spec.CosetShift: zero")
	}
	return nil
}

// Twiddle and scale tables. Twiddles depend on the size and the direction,
// scale tables also on the coset shift; both are built once on the host,
// uploaded, and kept on the device until the backend closes (about 1 MiB
// for each at 2^28).

type twiddleKey struct {
	c       ecc.ID
	logN    int
	inverse bool
}

type scaleKey struct {
	c       ecc.ID
	logN    int
	inverse bool
	shift   string // the shift's bytes
}

// devTable is one uploaded table set: scalars of elem bytes at device
// address base.
type devTable struct {
	base   unsafe.Pointer
	bytes  int64
	elem   int64
	layout twiddleLayout // twiddle tables
	hi     int           // scale tables: where hi starts
}

// at returns the address of element off.
func (t *devTable) at(off int) unsafe.Pointer {
	return unsafe.Add(t.base, int64(off)*t.elem)
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

// maxLogDirect bounds the direct twiddle table: 2^18 elements, 8 MiB.
const maxLogDirect = 18

// twiddleLayout says where the parts of a twiddle table set start, in
// elements (−1: absent), and their sizes.
type twiddleLayout struct {
	logRoots, win, logDirect int
	lo, hi, hi0, direct      int
}

// twiddleLayoutOf is the layout of the twiddle tables of the domain of
// size 2^logN (logN ≥ 1), as hostCurve.TwiddleTables concatenates them:
//
//	roots:  ω^(m·2^(logN−logRoots)) for m < 2^(logRoots−1)
//	lo:     ω^e for e < 2^win
//	hi:     ω^(e·2^win) for e < 2^(logN−win)
//	hi0:    n⁻¹·hi (inverse only), so that the first pass applies n⁻¹
//	direct: ω^(m·2^(logN−logDirect)) for m < 2^logDirect (logN ≥ 2)
//
// for ω the domain's generator, inverted for the inverse transform.
func twiddleLayoutOf(logN int, inverse bool) twiddleLayout {
	l := twiddleLayout{logRoots: min(logN, maxLogRoots), win: windowOf(logN), hi0: -1, direct: -1}
	l.lo = 1 << (l.logRoots - 1)
	l.hi = l.lo + 1<<l.win
	end := l.hi + 1<<(logN-l.win)
	if inverse {
		l.hi0 = end
		end += 1 << (logN - l.win)
	}
	if logN >= 2 {
		l.logDirect = min(logN-1, maxLogDirect)
		l.direct = end
	}
	return l
}

// twiddleTables returns curve c's twiddle tables of the domain of size
// 2^logN and their layout.
func twiddleTables(c ecc.ID, logN int, inverse bool) ([]byte, twiddleLayout) {
	l := twiddleLayoutOf(logN, inverse)
	return hosts[c].TwiddleTables(logN, inverse, l.logRoots, l.win, l.logDirect), l
}

// nttArgs fills the kernels' arguments: tw gives the address of an element
// of the twiddle tables, sc that of the scale tables' lo (0) or hi (1) part.
func nttArgs(spec backend.NTTSpec, tune nttTune, l twiddleLayout, tw func(int) unsafe.Pointer, sc func(int) unsafe.Pointer) C.g16_ntt_args {
	var a C.g16_ntt_args
	a.curve = C.int(curveCode(spec.Curve))
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
		ninv := hosts[spec.Curve].NInverse(spec.LogN)
		for i := 0; i < len(ninv)/4; i++ {
			a.scale_c[i] = C.uint32_t(binary.LittleEndian.Uint32(ninv[4*i:]))
		}
		if l.hi0 >= 0 {
			a.tw_hi0 = tw(l.hi0)
		}
	}
	return a
}

// scaleTables returns curve c's scale tables lo and hi, concatenated,
// with lo[i mod 2^win]·hi[i >> win] equal to g^i (forward) or n⁻¹·g^(−i)
// (inverse): the factor on input element i of a forward transform on the
// coset g, or on output element i of an inverse one; and where hi starts.
func scaleTables(c ecc.ID, logN int, inverse bool, g []byte) (tab []byte, hi int) {
	win := windowOf(logN)
	return hosts[c].ScaleTables(logN, inverse, win, g), 1 << win
}

func (c *nttTables) twiddles(b *Backend, cv ecc.ID, logN int, inverse bool) (*devTable, error) {
	k := twiddleKey{cv, logN, inverse}
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.tw[k]; ok {
		return t, nil
	}
	tab, layout := twiddleTables(cv, logN, inverse)
	t, err := c.upload(b, cv, tab)
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
func (c *nttTables) scale(b *Backend, cv ecc.ID, logN int, inverse bool, g []byte) (*devTable, error) {
	k := scaleKey{cv, logN, inverse, string(g)}
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.sc[k]; ok {
		return t, nil
	}
	tab, hi := scaleTables(cv, logN, inverse, g)
	t, err := c.upload(b, cv, tab)
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
func (c *nttTables) upload(b *Backend, cv ecc.ID, tab []byte) (*devTable, error) {
	bytes := int64(len(tab))
	var p unsafe.Pointer
	if err := b.status(C.g16_ntt_table_new(b.dev, unsafe.Pointer(&tab[0]), C.int64_t(bytes), &p)); err != nil {
		return nil, err
	}
	t := &devTable{base: p, bytes: bytes, elem: curve.Must(cv).FrBytes}
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

// hostNTTOn runs the kernels' passes on the host (g16_host_ntt) over data,
// the scalars of spec.Curve, with the same tables NTT would upload: a check
// of the kernels' index logic on machines with no GPU. Slow; for tests on
// small sizes.
func hostNTTOn(data []byte, spec backend.NTTSpec, tune nttTune) error {
	if err := SupportsCurve(spec.Curve); err != nil {
		return fmt.Errorf("cuda: hostNTT: %w", err)
	}
	if err := checkNTT(spec); err != nil {
		return fmt.Errorf("cuda: hostNTT: %w", err)
	}
	elem := int(curve.Must(spec.Curve).FrBytes)
	if spec.LogN > 20 || len(data) != elem<<spec.LogN {
		return fmt.Errorf("cuda: hostNTT: %d bytes for 2^%d scalars (at most 2^20)", len(data), spec.LogN)
	}
	if spec.LogN == 0 {
		return nil
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	ptr := func(s []byte) unsafe.Pointer {
		pin.Pin(&s[0])
		return unsafe.Pointer(&s[0])
	}
	tw, layout := twiddleTables(spec.Curve, spec.LogN, spec.Inverse)
	var sc []byte
	var shi int
	if spec.Coset {
		sc, shi = scaleTables(spec.Curve, spec.LogN, spec.Inverse, spec.CosetShift)
	}
	a := nttArgs(spec, tune, layout, func(off int) unsafe.Pointer { return ptr(tw[off*elem:]) },
		func(i int) unsafe.Pointer { return ptr(sc[i*shi*elem:]) })
	return errOf(C.g16_host_ntt(ptr(data), &a))
}

// hostQuotientOn is QuotientStep's kernel run on the host over scalars of
// curve cv, for tests.
func hostQuotientOn(cv ecc.ID, a, b, c, zInv []byte) error {
	if err := SupportsCurve(cv); err != nil {
		return fmt.Errorf("cuda: hostQuotient: %w", err)
	}
	size := curve.Must(cv).FrBytes
	if len(b) != len(a) || len(c) != len(a) || int64(len(a))%size != 0 || int64(len(zInv)) != size {
		return fmt.Errorf("cuda: hostQuotient: %d, %d and %d bytes of scalars and a %d-byte zInv", len(a), len(b), len(c), len(zInv))
	}
	if len(a) == 0 {
		return nil
	}
	return errOf(C.g16_host_quotient(C.int(curveCode(cv)), unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), unsafe.Pointer(&c[0]),
		C.int64_t(len(a)/int(curve.Must(cv).FrBytes)), unsafe.Pointer(&zInv[0])))
}
