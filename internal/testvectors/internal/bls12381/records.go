package bls12381

import (
	"fmt"
	"io"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// NTT is one input of size n = 2^LogN with its forward transforms, plain and
// on the coset Shift·⟨ω⟩, both in natural order:
//
//	Plain[j] = Σ_i X[i] ω^{ij}
//	Coset[j] = Σ_i X[i] Shift^i ω^{ij}
//
// with ω = fft.NewDomain(n).Generator. The four memory orders of
// backend.NTTSpec follow by bit-reversal (see package testvectors).
//
// Layout: name, u8 LogN, Shift (32), X, Plain, Coset (arrays of n elements).
type NTT struct {
	Name         string
	LogN         int
	Shift        fr.Element
	X            []fr.Element
	Plain, Coset []fr.Element
}

// H is one quotient computation as gnark's prover does it (computeH in
// gnark/backend/groth16/bls12-381/prove.go) on a domain of size 2^LogN with
// coset shift Shift: inputs A, B, C in natural order; output H, the
// coefficients of (A·B − C)/(Xⁿ − 1), in bit-reversed order.
//
// Layout: name, u8 LogN, Shift (32), A, B, C, H (arrays of n elements).
type H struct {
	Name       string
	LogN       int
	Shift      fr.Element
	A, B, C, H []fr.Element
}

// Base-storage modes of an MSM record.
const (
	basesInline = 0 // the record holds its own bases
	basesTable  = 1 // the record uses the first n points of the file's table
)

// Point is a curve point an MSM record is over.
type Point interface {
	bls12381.G1Affine | bls12381.G2Affine
}

// MSM is one multi-scalar multiplication over points of type P:
// Result = Σ Scalars[i]·Bases[i].
//
// Layout: name, u8 mode, [bases if mode is inline: array of P],
// Scalars (array; its count is n), Result (P).
type MSM[P Point] struct {
	Name    string
	Bases   []P
	Scalars []fr.Element
	Result  P
}

// MSMG1 is one G1 multi-scalar multiplication.
type MSMG1 = MSM[bls12381.G1Affine]

// MSMG2 is MSMG1 over G2.
type MSMG2 = MSM[bls12381.G2Affine]

// WriteNTT writes an NTT file.
func WriteNTT(w io.Writer, recs []NTT) error {
	vw := newWriter(w, KindNTT)
	for i := range recs {
		r := &recs[i]
		vw.domainRecord(r.Name, r.LogN, &r.Shift, r.X, r.Plain, r.Coset)
	}
	return vw.Flush()
}

// ReadNTT reads an NTT file.
func ReadNTT(rd io.Reader) ([]NTT, error) {
	r, err := newReader(rd, KindNTT)
	if err != nil {
		return nil, err
	}
	var recs []NTT
	for r.more() {
		var v NTT
		r.domainRecord("NTT", &v.Name, &v.LogN, &v.Shift, &v.X, &v.Plain, &v.Coset)
		recs = append(recs, v)
	}
	return recs, r.err
}

// WriteH writes an H file.
func WriteH(w io.Writer, recs []H) error {
	vw := newWriter(w, KindH)
	for i := range recs {
		r := &recs[i]
		vw.domainRecord(r.Name, r.LogN, &r.Shift, r.A, r.B, r.C, r.H)
	}
	return vw.Flush()
}

// ReadH reads an H file.
func ReadH(rd io.Reader) ([]H, error) {
	r, err := newReader(rd, KindH)
	if err != nil {
		return nil, err
	}
	var recs []H
	for r.more() {
		var v H
		r.domainRecord("H", &v.Name, &v.LogN, &v.Shift, &v.A, &v.B, &v.C, &v.H)
		recs = append(recs, v)
	}
	return recs, r.err
}

// domainRecord writes the layout NTT and H records share: name, u8 LogN,
// Shift, then arrays of n = 2^LogN elements each.
func (vw *writer) domainRecord(name string, logN int, shift *fr.Element, arrays ...[]fr.Element) {
	vw.name(name)
	vw.u8(uint8(logN))
	vw.element(shift)
	for _, a := range arrays {
		vw.elements(a)
	}
}

// domainRecord reads what writer.domainRecord writes and checks that every
// array has n = 2^LogN elements; kind names the record in the error.
func (r *reader) domainRecord(kind string, name *string, logN *int, shift *fr.Element, arrays ...*[]fr.Element) {
	*name = r.name()
	*logN = int(r.u8())
	r.element(shift)
	for _, a := range arrays {
		*a = r.elements()
	}
	if r.err != nil {
		return
	}
	n := 1 << *logN
	for i, a := range arrays {
		if len(*a) != n {
			r.err = fmt.Errorf("%w: %s %s: array %d has %d elements, want %d", ErrFormat, kind, *name, i, len(*a), n)
			return
		}
	}
}

// An MSM file is a table of bases (array of points) followed by records.
// Records whose bases are a prefix of the table store only the scalars,
// which keeps files of long MSMs over random bases small.

// WriteMSMG1 writes a G1 MSM file. A record whose Bases are the first
// len(Bases) points of table is stored by reference.
func WriteMSMG1(w io.Writer, table []bls12381.G1Affine, recs []MSMG1) error {
	return writeMSM(w, KindMSMG1, table, recs, (*writer).g1)
}

// ReadMSMG1 reads a G1 MSM file. Records stored by reference share the
// table's backing array.
func ReadMSMG1(rd io.Reader) ([]MSMG1, error) {
	return readMSM(rd, KindMSMG1, (*reader).g1)
}

// WriteMSMG2 writes a G2 MSM file (see WriteMSMG1).
func WriteMSMG2(w io.Writer, table []bls12381.G2Affine, recs []MSMG2) error {
	return writeMSM(w, KindMSMG2, table, recs, (*writer).g2)
}

// ReadMSMG2 reads a G2 MSM file (see ReadMSMG1).
func ReadMSMG2(rd io.Reader) ([]MSMG2, error) {
	return readMSM(rd, KindMSMG2, (*reader).g2)
}

// writeMSM writes an MSM file of kind k, encoding each point with put.
func writeMSM[P Point](w io.Writer, k Kind, table []P, recs []MSM[P], put func(*writer, *P)) error {
	vw := newWriter(w, k)
	vw.count(len(table))
	for i := range table {
		put(vw, &table[i])
	}
	for i := range recs {
		r := &recs[i]
		if len(r.Bases) != len(r.Scalars) {
			return fmt.Errorf("vecfile: MSM %s: %d bases, %d scalars", r.Name, len(r.Bases), len(r.Scalars))
		}
		vw.name(r.Name)
		if isPrefix(r.Bases, table) {
			vw.u8(basesTable)
		} else {
			vw.u8(basesInline)
			vw.count(len(r.Bases))
			for j := range r.Bases {
				put(vw, &r.Bases[j])
			}
		}
		vw.elements(r.Scalars)
		put(vw, &r.Result)
	}
	return vw.Flush()
}

// readMSM reads an MSM file of kind k, decoding each point with get.
func readMSM[P Point](rd io.Reader, k Kind, get func(*reader, *P)) ([]MSM[P], error) {
	r, err := newReader(rd, k)
	if err != nil {
		return nil, err
	}
	table := make([]P, r.count(maxCount))
	for i := range table {
		get(r, &table[i])
	}
	var recs []MSM[P]
	for r.more() {
		var v MSM[P]
		v.Name = r.name()
		mode := r.u8()
		switch mode {
		case basesInline:
			v.Bases = make([]P, r.count(maxCount))
			for j := range v.Bases {
				get(r, &v.Bases[j])
			}
		case basesTable:
		default:
			if r.err == nil {
				r.err = fmt.Errorf("%w: MSM %s: bases mode %d", ErrFormat, v.Name, mode)
			}
		}
		v.Scalars = r.elements()
		if mode == basesTable {
			if len(v.Scalars) > len(table) {
				if r.err == nil {
					r.err = fmt.Errorf("%w: MSM %s: %d scalars, table of %d", ErrFormat, v.Name, len(v.Scalars), len(table))
				}
			} else {
				v.Bases = table[:len(v.Scalars):len(v.Scalars)]
			}
		}
		if r.err == nil && len(v.Bases) != len(v.Scalars) {
			r.err = fmt.Errorf("%w: MSM %s: %d bases, %d scalars", ErrFormat, v.Name, len(v.Bases), len(v.Scalars))
		}
		get(r, &v.Result)
		recs = append(recs, v)
	}
	return recs, r.err
}

// isPrefix reports whether s holds the first len(s) values of table.
func isPrefix[T comparable](s, table []T) bool {
	if len(s) > len(table) {
		return false
	}
	for i := range s {
		if s[i] != table[i] {
			return false
		}
	}
	return true
}
