// The test-vector file format (vecfile.go, records.go).
//
// A file is an 8-byte magic ("g16tv" followed by a kind byte and a version
// u16), then records. Every integer is little-endian. Field elements and
// curve points are stored exactly as gnark-crypto holds them in memory:
// Montgomery form, little-endian 64-bit limbs, so the bytes of an array can
// be handed to a backend unchanged (see package backend, "Layout"). The
// curve is not in the file: its directory in testdata/ names it.
//
//	fr.Element  fr.Bytes bytes (32 on every curve g16 supports)
//	G1Affine    X, Y; infinity is X = Y = 0
//	G2Affine    X.A0, X.A1, Y.A0, Y.A1 (X, Y where G2 is over Fp)
//
// Record layouts are given on each record type. A name is a u16 length and
// that many bytes of UTF-8; an array is a u32 count and its elements.
//
// Readers do not validate values (a stored point is not checked to be on
// the curve): the files are produced by the generator and checked by it.

package bls12381

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"unsafe"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// Kind says which records a file holds.
type Kind byte

// The kinds of vector file.
const (
	KindNTT   Kind = 'N'
	KindH     Kind = 'H'
	KindMSMG1 Kind = '1'
	KindMSMG2 Kind = '2'
)

// Version is the format version this package reads and writes.
const Version = 1

const magic = "g16tv"

// writer encodes records. Its first error sticks; Flush reports it.
type writer struct {
	w   *bufio.Writer
	err error
	buf [8]byte
}

// newWriter writes the header of a file of kind k to w.
func newWriter(w io.Writer, k Kind) *writer {
	vw := &writer{w: bufio.NewWriter(w)}
	vw.raw([]byte(magic))
	vw.raw([]byte{byte(k)})
	vw.u16(Version)
	return vw
}

// Flush writes buffered data and returns the first error met.
func (w *writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	return w.w.Flush()
}

func (w *writer) raw(p []byte) {
	if w.err == nil {
		_, w.err = w.w.Write(p)
	}
}

func (w *writer) u8(v uint8) { w.raw([]byte{v}) }

func (w *writer) u16(v uint16) {
	binary.LittleEndian.PutUint16(w.buf[:2], v)
	w.raw(w.buf[:2])
}

func (w *writer) u32(v uint32) {
	binary.LittleEndian.PutUint32(w.buf[:4], v)
	w.raw(w.buf[:4])
}

func (w *writer) limbs(l []uint64) {
	for _, v := range l {
		binary.LittleEndian.PutUint64(w.buf[:], v)
		w.raw(w.buf[:])
	}
}

func (w *writer) name(s string) {
	if len(s) > 0xffff {
		w.err = fmt.Errorf("vecfile: name of %d bytes", len(s))
		return
	}
	w.u16(uint16(len(s)))
	w.raw([]byte(s))
}

func (w *writer) count(n int) {
	if n < 0 || n > 1<<31 {
		w.err = fmt.Errorf("vecfile: bad count %d", n)
		return
	}
	w.u32(uint32(n))
}

func (w *writer) element(e *fr.Element) { w.limbs(e[:]) }

func (w *writer) elements(v []fr.Element) {
	w.count(len(v))
	for i := range v {
		w.element(&v[i])
	}
}

func (w *writer) g1(p *bls12381.G1Affine) { w.limbs(limbsOf(p)) }

// g2 writes a G2 point's coordinates in order: X.A0, X.A1, Y.A0, Y.A1 over
// Fp2, X, Y on a curve whose G2 is over Fp.
func (w *writer) g2(p *bls12381.G2Affine) { w.limbs(limbsOf(p)) }

// limbsOf is the 64-bit limbs of a point, in memory order: the
// coordinates' elements one after the other, each its limbs, least
// significant first (a point is a struct of field elements, each an array
// of uint64).
func limbsOf[P bls12381.G1Affine | bls12381.G2Affine](p *P) []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Pointer(p)), unsafe.Sizeof(*p)/8)
}

// reader decodes records. Its first error sticks.
type reader struct {
	r   *bufio.Reader
	err error
	buf [8]byte
}

// ErrFormat is matched by errors about malformed files.
var ErrFormat = errors.New("vecfile: malformed file")

// newReader reads and checks the header of a file of kind k.
func newReader(r io.Reader, k Kind) (*reader, error) {
	vr := &reader{r: bufio.NewReader(r)}
	var h [8]byte
	if _, err := io.ReadFull(vr.r, h[:]); err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrFormat, err)
	}
	if string(h[:5]) != magic {
		return nil, fmt.Errorf("%w: bad magic %q", ErrFormat, h[:5])
	}
	if Kind(h[5]) != k {
		return nil, fmt.Errorf("%w: kind %q, want %q", ErrFormat, h[5], byte(k))
	}
	if v := binary.LittleEndian.Uint16(h[6:]); v != Version {
		return nil, fmt.Errorf("%w: version %d, want %d", ErrFormat, v, Version)
	}
	return vr, nil
}

// more reports whether another record follows.
func (r *reader) more() bool {
	if r.err != nil {
		return false
	}
	_, err := r.r.Peek(1)
	if err == io.EOF {
		return false
	}
	if err != nil {
		r.err = err
		return false
	}
	return true
}

func (r *reader) raw(p []byte) {
	if r.err != nil {
		return
	}
	if _, err := io.ReadFull(r.r, p); err != nil {
		r.err = fmt.Errorf("%w: %v", ErrFormat, err)
	}
}

func (r *reader) u8() uint8 {
	r.raw(r.buf[:1])
	return r.buf[0]
}

func (r *reader) u16() uint16 {
	r.raw(r.buf[:2])
	return binary.LittleEndian.Uint16(r.buf[:2])
}

func (r *reader) u32() uint32 {
	r.raw(r.buf[:4])
	return binary.LittleEndian.Uint32(r.buf[:4])
}

func (r *reader) limbs(l []uint64) {
	for i := range l {
		r.raw(r.buf[:])
		l[i] = binary.LittleEndian.Uint64(r.buf[:])
	}
}

func (r *reader) name() string {
	p := make([]byte, r.u16())
	r.raw(p)
	return string(p)
}

// count reads an array length, refusing ones larger than limit.
func (r *reader) count(limit int) int {
	n := int(r.u32())
	if r.err == nil && n > limit {
		r.err = fmt.Errorf("%w: count %d over limit %d", ErrFormat, n, limit)
	}
	if r.err != nil {
		return 0
	}
	return n
}

// maxCount bounds arrays, so that a corrupt count cannot ask for a huge
// allocation.
const maxCount = 1 << 24

func (r *reader) element(e *fr.Element) { r.limbs(e[:]) }

func (r *reader) elements() []fr.Element {
	v := make([]fr.Element, r.count(maxCount))
	for i := range v {
		r.element(&v[i])
	}
	return v
}

func (r *reader) g1(p *bls12381.G1Affine) { r.limbs(limbsOf(p)) }

func (r *reader) g2(p *bls12381.G2Affine) { r.limbs(limbsOf(p)) }
