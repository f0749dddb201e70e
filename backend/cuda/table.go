//go:build cuda

package cuda

/*
#include "g16cuda.h"
#include "msm_table.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
)

// Tables of precomputed multiples (kernels/msm_table.h). A table of c
// copies of n bases with window w holds copy q = 2^(w·q)·P_i; an MSM over
// those bases with it reads window j of a scalar from copy j mod c and sums
// it into bucket set ⌊j/c⌋, so it reduces ⌈nw/c⌉ bucket sets instead of
// nw. The table lives with its bases buffer: MSMG1 and MSMG2 on a range it
// covers use it, a write into its range (Upload, or an NTT or QuotientStep
// in place) retires it, and Free of the buffer frees it; a retired table
// keeps its memory until that Free.

// baseTable is one table of a bases buffer.
type baseTable struct {
	g          group // the bases' curve and group
	off        int64 // the range's byte offset in the bases buffer
	n          int   // its points, the table's stride
	pointBytes int64
	copies, w  int
	ptr        unsafe.Pointer
	bytes      int64
	stale      atomic.Bool // the range was written after the table was built
}

// tableSet is a buffer's tables.
type tableSet struct {
	mu sync.Mutex
	t  []*baseTable
}

// PrecomputeBases builds a table of copies copies (1 to 64; copy 0 the
// bases themselves) of the n affine points of k (KernelMSMG1 or
// KernelMSMG2) on curve c at byte offset off of bases, with window w (4 to 24; 0:
// the backend's tableWindow), ordered on q. Its memory (TableBytes) comes
// from the device's pool, under its memory limit, and is freed with bases;
// while it is built, copies > 1 also take scratch from the pool for
// min(n, 2^20) points in XYZZ with a running product each (on BLS12-381
// 240 MiB for G1, 480 MiB for G2, at 2^20; on BN254 two thirds of that).
// A table built earlier over an overlapping range of bases is retired.
// copies·n must be below 2^31.
func (b *Backend) PrecomputeBases(q backend.Queue, c ecc.ID, bases backend.Buffer, off int64, n int, k backend.Kernel, copies, w int) error {
	const op = "PrecomputeBases"
	if err := b.supports(op, c); err != nil {
		return err
	}
	g, ok := groupOf(c, k)
	if !ok {
		return fmt.Errorf("%v: %s: k: %v is not an MSM", b, op, k)
	}
	pointBytes := g.affineBytes()
	if n <= 0 {
		return fmt.Errorf("%v: %s: n: %d points, want at least 1", b, op, n)
	}
	if copies < 1 || copies > maxTableCopies {
		return fmt.Errorf("%v: %s: copies: %d, want 1 to %d", b, op, copies, maxTableCopies)
	}
	if int64(copies)*int64(n) >= 1<<31 {
		return fmt.Errorf("%v: %s: copies·n = %d·%d must be below 2^31 (a point index has 31 bits)", b, op, copies, n)
	}
	if w == 0 {
		if err := checkMSMWindow(b.cfg.msmWindow, c); err != nil {
			return fmt.Errorf("%v: %s: %w", b, op, err)
		}
		w = b.tableWindow(g, n, copies)
	}
	if lo := minWindow(g.windowBits()); w < lo || w > 24 {
		return fmt.Errorf("%v: %s: w: window %d, want %d to 24 on %v (at most 64 windows over its scalars' %d bits)", b, op, w, lo, g, g.windowBits())
	}
	if err := b.enter(op); err != nil {
		return err
	}
	defer b.leave()
	s, bx, err := b.basesOn(op, q, bases, "off", off, n, pointBytes)
	if err != nil {
		return err
	}
	t := &baseTable{g: g, off: off, n: n, pointBytes: pointBytes, copies: copies, w: w, bytes: TableBytes(k, c, n, copies)}
	if err := b.status(C.g16_alloc(b.dev, s, C.int64_t(t.bytes), 1, &t.ptr)); err != nil {
		return fmt.Errorf("%v: %s: table of %d bytes: %w", b, op, t.bytes, err)
	}
	st := C.g16_precompute(b.dev, s, C.int(g.code()), unsafe.Add(bx.ptr, off), t.ptr, C.int64_t(n), C.int(copies), C.int(w))
	if err := b.finish(s, b.status(st)); err != nil {
		// The table's memory back too, or the error that kept it.
		ferr := b.status(C.g16_free(b.dev, s, t.ptr, C.int64_t(t.bytes), 1))
		return errors.Join(fmt.Errorf("%v: %s: %w", b, op, err), ferr)
	}
	bx.tables.mu.Lock()
	for _, o := range bx.tables.t {
		if o.off < off+int64(n)*pointBytes && off < o.off+int64(o.n)*o.pointBytes {
			o.stale.Store(true)
		}
	}
	bx.tables.t = append(bx.tables.t, t)
	bx.tables.mu.Unlock()
	b.tableMu.Lock()
	if b.tables == nil {
		b.tables = map[*baseTable]struct{}{}
	}
	b.tables[t] = struct{}{}
	b.tableMu.Unlock()
	return nil
}

// Tables describes the live tables of bases.
func (b *Backend) Tables(bases backend.Buffer) []TableInfo {
	x, ok := bases.(*buffer)
	if !ok || x == nil {
		return nil
	}
	x.tables.mu.Lock()
	defer x.tables.mu.Unlock()
	var r []TableInfo
	for _, t := range x.tables.t {
		if !t.stale.Load() {
			r = append(r, TableInfo{Points: t.n, Copies: t.copies, Window: t.w, Bytes: t.bytes})
		}
	}
	return r
}

// find returns the live table that holds the n points of group g at byte
// offset off, built for window w (0: any), or nil.
func (ts *tableSet) find(g group, off int64, n int, w int) *baseTable {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	pointBytes := g.affineBytes()
	for i := len(ts.t) - 1; i >= 0; i-- {
		t := ts.t[i]
		switch {
		case t.stale.Load(), t.g != g, w != 0 && w != t.w,
			off < t.off, (off-t.off)%pointBytes != 0, (off-t.off)/pointBytes+int64(n) > int64(t.n):
			continue
		}
		return t
	}
	return nil
}

// retire marks the tables over bytes [off, off+n) of the buffer stale.
func (ts *tableSet) retire(off, n int64) {
	if n <= 0 { // a write of nothing changes no table
		return
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for _, t := range ts.t {
		if t.off < off+n && off < t.off+int64(t.n)*t.pointBytes {
			t.stale.Store(true)
		}
	}
}

// freeTables releases x's tables, ordered on stream s; it returns the first
// error.
func (b *Backend) freeTables(x *buffer, s unsafe.Pointer) error {
	x.tables.mu.Lock()
	ts := x.tables.t
	x.tables.t = nil
	x.tables.mu.Unlock()
	var first error
	for _, t := range ts {
		b.tableMu.Lock()
		delete(b.tables, t)
		b.tableMu.Unlock()
		if err := b.status(C.g16_free(b.dev, s, t.ptr, C.int64_t(t.bytes), 1)); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// closeTables frees every table still live at Close (their buffers not
// freed): the pool's memory is released only once nothing allocated from
// it is held.
func (b *Backend) closeTables() error {
	b.tableMu.Lock()
	ts := b.tables
	b.tables = nil
	b.tableMu.Unlock()
	var first error
	for t := range ts {
		if err := b.status(C.g16_free(b.dev, nil, t.ptr, C.int64_t(t.bytes), 1)); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// tableScratch is the largest scratch of an MSM pass of n points over a
// live table of group g.
func (b *Backend) tableScratch(g group, n int) int64 {
	b.tableMu.Lock()
	defer b.tableMu.Unlock()
	var m int64
	for t := range b.tables {
		if t.g == g && !t.stale.Load() {
			m = max(m, msmTableScratch(g, min(n, t.n), b.cfg.msmChunk, t.w, t.copies, b.cfg.msmMaxTask))
		}
	}
	return m
}

// tableWindow is the window of a table of group g PrecomputeBases builds
// with w = 0: the one WithMSMWindow set (the MSMs read a table of that
// window only), else TableWindow's for the group's windowBits.
func (b *Backend) tableWindow(g group, n, copies int) int {
	if b.cfg.msmWindow != 0 {
		return b.cfg.msmWindow
	}
	return tableWindowBits(n, copies, g.windowBits())
}

// TableCost is the modelled time in seconds of an MSM of n points of k on
// curve c over a table of copies copies of its bases (1: none) built with
// w = 0 (tableWindow; the package's TableCost, over c's scalar bits); 0
// for another kernel or a curve the kernels lack.
func (b *Backend) TableCost(k backend.Kernel, c ecc.ID, n, copies int) float64 {
	g, ok := groupOf(c, k)
	if !ok {
		return 0
	}
	return TableCost(k, c, n, copies, b.tableWindow(g, n, copies))
}

// TableScratch is Scratch for an MSM of n points of k on curve c over a
// table of copies copies of its bases built with w = 0 (tableWindow); 0
// for another kernel or a curve the kernels lack.
func (b *Backend) TableScratch(k backend.Kernel, c ecc.ID, n, copies int) int64 {
	g, ok := groupOf(c, k)
	if !ok {
		return 0
	}
	return msmTableScratch(g, n, b.cfg.msmChunk, b.tableWindow(g, n, copies), copies, b.cfg.msmMaxTask)
}
