package bls12381

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
	"unsafe"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

func elems(vals ...uint64) []fr.Element {
	v := make([]fr.Element, len(vals))
	for i, x := range vals {
		v[i].SetUint64(x)
	}
	return v
}

func TestNTTRoundTrip(t *testing.T) {
	recs := []NTT{{Name: "n=2^1", LogN: 1, Shift: elems(7)[0], X: elems(1, 2), Plain: elems(3, 4), Coset: elems(5, 6)}}
	var buf bytes.Buffer
	if err := WriteNTT(&buf, recs); err != nil {
		t.Fatal(err)
	}
	got, err := ReadNTT(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, recs) {
		t.Errorf("read %+v, wrote %+v", got, recs)
	}
	// Every truncation is an error, never a panic or a short record.
	for n := 0; n < buf.Len(); n++ {
		if n == 8 {
			continue // the header alone is an empty file
		}
		if _, err := ReadNTT(bytes.NewReader(buf.Bytes()[:n])); !errors.Is(err, ErrFormat) {
			t.Fatalf("truncated to %d bytes: err %v, want ErrFormat", n, err)
		}
	}
	if _, err := ReadH(bytes.NewReader(buf.Bytes())); !errors.Is(err, ErrFormat) {
		t.Errorf("read an NTT file as H: err %v", err)
	}
}

func TestMSMG1TableReference(t *testing.T) {
	_, _, g, _ := bls12381.Generators()
	var g2 bls12381.G1Affine
	g2.Double(&g)
	table := []bls12381.G1Affine{g, g2, g}
	recs := []MSMG1{
		{Name: "prefix", Bases: table[:2], Scalars: elems(1, 2)},
		{Name: "inline", Bases: []bls12381.G1Affine{g2, {}}, Scalars: elems(3, 4), Result: g},
	}
	var buf bytes.Buffer
	if err := WriteMSMG1(&buf, table, recs); err != nil {
		t.Fatal(err)
	}
	// header, table count and 3 points; "prefix": name, mode, scalars, result;
	// "inline": name, mode, 2 points, scalars, result.
	pt, sc := int(unsafe.Sizeof(g)), fr.Bytes
	want := 8 + 4 + 3*pt + (2 + 6 + 1 + 4 + 2*sc + pt) + (2 + 6 + 1 + 4 + 2*pt + 4 + 2*sc + pt)
	if buf.Len() != want {
		t.Errorf("file of %d bytes, want %d", buf.Len(), want)
	}
	got, err := ReadMSMG1(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, recs) {
		t.Errorf("read %+v, wrote %+v", got, recs)
	}
}

func TestMSMG2RoundTrip(t *testing.T) {
	_, _, _, g := bls12381.Generators()
	recs := []MSMG2{{Name: "one", Bases: []bls12381.G2Affine{g}, Scalars: elems(1), Result: g}}
	var buf bytes.Buffer
	if err := WriteMSMG2(&buf, nil, recs); err != nil {
		t.Fatal(err)
	}
	got, err := ReadMSMG2(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, recs) {
		t.Errorf("read %+v, wrote %+v", got, recs)
	}
}

func TestHRoundTrip(t *testing.T) {
	recs := []H{{Name: "n=2^1", LogN: 1, Shift: elems(7)[0], A: elems(1, 2), B: elems(3, 4), C: elems(5, 6), H: elems(7, 8)}}
	var buf bytes.Buffer
	if err := WriteH(&buf, recs); err != nil {
		t.Fatal(err)
	}
	got, err := ReadH(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, recs) {
		t.Errorf("read %+v, wrote %+v", got, recs)
	}
	recs[0].H = elems(1) // wrong length
	buf.Reset()
	if err := WriteH(&buf, recs); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadH(bytes.NewReader(buf.Bytes())); !errors.Is(err, ErrFormat) {
		t.Errorf("short H array: err %v, want ErrFormat", err)
	}
}
