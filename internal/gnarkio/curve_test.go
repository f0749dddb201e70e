package gnarkio

import (
	"bytes"
	"errors"
	"math/big"
	mrand "math/rand/v2"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	"github.com/consensys/gnark/frontend/cs/scs"

	"github.com/g16prover/g16/curve"
)

// TestReadersCoverSupportedCurves: every curve g16 proves on has a reader,
// and no reader is for a curve g16 does not prove on.
func TestReadersCoverSupportedCurves(t *testing.T) {
	for _, id := range curve.Supported() {
		if _, ok := readers[id]; !ok {
			t.Errorf("no reader for %s", curve.Name(id))
		}
	}
	for id := range readers {
		if !curve.IsSupported(id) {
			t.Errorf("a reader for %s, which package curve does not list", curve.Name(id))
		}
	}
}

// TestOtherCurvesAndSystems: a well-formed R1CS over Grumpkin's scalar
// field (gnark compiles one, and makes no Groth16 key there) and a PLONK
// system are each refused with an error that says what they are and
// matches ErrUnsupported (not ErrCorrupt); every supported curve's R1CS and
// proving key are read; the headers say the curve and kind of every system.
func TestOtherCurvesAndSystems(t *testing.T) {
	for _, id := range curve.Supported() {
		ccs, err := frontend.Compile(id.ScalarField(), r1cs.NewBuilder, &tinyCircuit{})
		if err != nil {
			t.Fatal(err)
		}
		data := encode(t, ccs)
		gotID, typ, err := SystemHeader(data)
		if err != nil || gotID != id || typ != constraint.SystemR1CS {
			t.Fatalf("%s R1CS: SystemHeader = %v, %v, %v", id, gotID, typ, err)
		}
		pk, err := gnarkgroth16.DummySetup(ccs)
		if err != nil {
			t.Fatal(err)
		}
		var raw bytes.Buffer
		if _, err := pk.WriteRawTo(&raw); err != nil {
			t.Fatal(err)
		}
		if got, err := KeyCurve(raw.Bytes()); err != nil || got != id {
			t.Fatalf("%s key: KeyCurve = %v, %v", id, got, err)
		}
		gotCCS, rerr := DecodeR1CS(data)
		gotPK, kerr := ReadProvingKey(opener(raw.Bytes()), true)
		name := curve.Name(id)
		if rerr != nil || kerr != nil {
			t.Fatalf("%s files refused: %v; %v", name, rerr, kerr)
		}
		if gotCCS.Field().Cmp(id.ScalarField()) != 0 || gotPK.CurveID() != id {
			t.Fatalf("%s files read as a %T and a key over %s", name, gotCCS, gotPK.CurveID())
		}
	}

	grumpkin, err := frontend.Compile(ecc.GRUMPKIN.ScalarField(), r1cs.NewBuilder, &tinyCircuit{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = DecodeR1CS(encode(t, grumpkin))
	if err == nil || !errors.Is(err, ErrUnsupported) || errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "constraint system over a field that is no scalar field of a curve gnark proves on") {
		t.Errorf("grumpkin R1CS: error %v, want one naming its field that matches ErrUnsupported only", err)
	}

	plonk, err := frontend.Compile(ecc.BLS12_381.ScalarField(), scs.NewBuilder, &tinyCircuit{})
	if err != nil {
		t.Fatal(err)
	}
	data := encode(t, plonk)
	if _, typ, err := SystemHeader(data); err != nil || typ != constraint.SystemSparseR1CS {
		t.Fatalf("PLONK system: SystemHeader kind %v, %v", typ, err)
	}
	_, err = DecodeR1CS(data)
	if err == nil || !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "PLONK") {
		t.Errorf("PLONK system: error %v, want one saying it is a PLONK system", err)
	}
}

// TestCurveFiles: on every curve but BLS12-381 (whose files the other
// tests read), an R1CS with a BSB22 commitment, gnark's Setup keys (raw and
// compressed) and a witness of fresh random values go through the readers
// to the same bytes and a system that solves; corrupt counts, an off-curve
// base and a witness of a curve of a larger scalar field are refused by
// name.
func TestCurveFiles(t *testing.T) {
	for _, id := range curve.Supported() {
		if id != ecc.BLS12_381 {
			t.Run(curve.Name(id), func(t *testing.T) { testCurveFiles(t, id) })
		}
	}
}

func testCurveFiles(t *testing.T, id ecc.ID) {
	rng := testRand(t)
	name, r := curve.Name(id), id.ScalarField()
	ccs, err := frontend.Compile(r, r1cs.NewBuilder, &committedCircuit{})
	if err != nil {
		t.Fatal(err)
	}
	pk, vk, err := gnarkgroth16.Setup(ccs)
	if err != nil {
		t.Fatal(err)
	}
	_, otherVK, err := gnarkgroth16.Setup(ccs)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckKeyPair(pk, vk); err != nil {
		t.Errorf("CheckKeyPair of one setup's keys: %v", err)
	}
	if err := CheckKeyPair(pk, otherVK); err == nil || !strings.Contains(err.Error(), "different setups") {
		t.Errorf("CheckKeyPair of two setups' keys: %v, want an error saying so", err)
	}
	x := randBelow(rng, r)
	w, err := frontend.NewWitness(committedAssignment(id, x), r)
	if err != nil {
		t.Fatal(err)
	}

	data := encode(t, ccs)
	got, err := DecodeR1CS(data)
	if err != nil {
		t.Fatalf("DecodeR1CS: %v", err)
	}
	if !bytes.Equal(encode(t, got), data) {
		t.Fatal("decoded system writes other bytes")
	}
	wr, err := ReadWitness(bytes.NewReader(encode(t, w)), id)
	if err != nil {
		t.Fatalf("ReadWitness: %v", err)
	}
	if _, err := got.Solve(wr); err != nil {
		t.Fatalf("decoded system does not solve: %v", err)
	}

	var raw, compressed bytes.Buffer
	if _, err := pk.WriteRawTo(&raw); err != nil {
		t.Fatal(err)
	}
	if _, err := pk.WriteTo(&compressed); err != nil {
		t.Fatal(err)
	}
	want := encode(t, pk)
	for name, b := range map[string][]byte{"raw": raw.Bytes(), "compressed": compressed.Bytes()} {
		k, err := ReadProvingKey(opener(b), true)
		if err != nil {
			t.Fatalf("%s key: %v", name, err)
		}
		if !bytes.Equal(encode(t, k), want) {
			t.Errorf("%s key: decoded to another key", name)
		}
		if err := CheckKeyPoints(k); err != nil {
			t.Errorf("%s key: CheckKeyPoints: %v", name, err)
		}
	}

	// The domain is 8 + 5·FrBytes + 1 bytes, then three raw G1 points
	// (α, β, δ), then A's count and A's points, each X then Y big-endian.
	p := curve.Must(id)
	bad := bytes.Clone(raw.Bytes())
	offA := int(8+5*p.FrBytes+1) + 3*int(p.G1AffineBytes)
	bad[offA], bad[offA+1], bad[offA+2], bad[offA+3] = 0xff, 0xff, 0xff, 0xff
	if _, err := ReadProvingKey(opener(bad), true); err == nil || !errors.Is(err, ErrCorrupt) ||
		!strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "at byte") {
		t.Errorf("A count 2^32−1: %v, want a corrupt-data error naming %s and the byte", err, name)
	}
	// A[1]'s X with its lowest bit flipped: the point is off the curve.
	bad = bytes.Clone(raw.Bytes())
	bad[offA+4+int(p.G1AffineBytes)+int(p.FpBytes)-1] ^= 1
	off, err := ReadProvingKey(opener(bad), true)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckKeyPoints(off); err == nil || !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "G1 A point 1") {
		t.Errorf("a base off the curve: %v, want an error naming G1 A point 1", err)
	}

	// 100 random bytes anywhere in the key or the system: an error or a
	// checked value, never a crash.
	files := []struct {
		data []byte
		read func([]byte) error
	}{
		{raw.Bytes(), func(b []byte) error { _, err := ReadProvingKey(opener(b), false); return err }},
		{data, func(b []byte) error { _, err := DecodeR1CS(b); return err }},
	}
	var rejected int
	const trials = 40
	for i := 0; i < trials; i++ {
		for _, f := range files {
			bad := bytes.Clone(f.data)
			off := rng.IntN(len(bad) - 100)
			for k := 0; k < 100; k++ {
				bad[off+k] = byte(rng.Uint32())
			}
			if f.read(bad) != nil {
				rejected++
			}
		}
	}
	t.Logf("%d of %d corrupt %s keys and systems rejected", rejected, 2*trials, name)
	if rejected == 0 {
		t.Errorf("no corrupt %s file was rejected", name)
	}

	// A witness of each curve of a larger scalar field holding a value
	// above r and below the next larger modulus: the error names r's curve
	// and every curve whose field holds the value in scalars of the
	// witness's size.
	var larger []ecc.ID
	for _, o := range curve.Supported() {
		if o.ScalarField().Cmp(r) > 0 {
			larger = append(larger, o)
		}
	}
	sameSize := func(a, b ecc.ID) bool { return curve.Must(a).FrBytes == curve.Must(b).FrBytes }
	for _, o := range larger {
		hi := o.ScalarField()
		var fit []string
		for _, o2 := range larger {
			if o2.ScalarField().Cmp(hi) < 0 && o2.ScalarField().Cmp(r) > 0 {
				hi = o2.ScalarField()
			}
		}
		for _, o2 := range larger {
			if o2.ScalarField().Cmp(hi) >= 0 && sameSize(o, o2) {
				fit = append(fit, curve.Name(o2))
			}
		}
		above := randBelow(rng, new(big.Int).Sub(hi, r))
		above.Add(above, r)
		ow, err := frontend.NewWitness(&tinyCircuit{X: above, Y: 1}, o.ScalarField())
		if err != nil {
			t.Fatal(err)
		}
		_, err = ReadWitness(bytes.NewReader(encode(t, ow)), id)
		if err == nil || !errors.Is(err, ErrCurveMismatch) || !strings.Contains(err.Error(), name) {
			t.Errorf("a %s witness read for %s: %v, want ErrCurveMismatch naming %s", curve.Name(o), name, err, name)
			continue
		}
		for _, f := range fit {
			if !strings.Contains(err.Error(), f) {
				t.Errorf("a %s witness read for %s: %v, want it to name %s", curve.Name(o), name, err, f)
			}
		}
	}
	if len(larger) == 0 {
		t.Logf("no curve of a scalar field larger than %s's", name)
	}
}

// committedAssignment is committedCircuit's assignment for X = x over
// curve id's scalar field.
func committedAssignment(id ecc.ID, x *big.Int) *committedCircuit {
	r := id.ScalarField()
	return &committedCircuit{X: x, Y: new(big.Int).Mod(new(big.Int).Mul(x, x), r)}
}

// randBelow returns a value in [0, n) from rng (the bias of reducing 64
// bits more than n's is negligible).
func randBelow(rng *mrand.Rand, n *big.Int) *big.Int {
	b := make([]byte, (n.BitLen()+7)/8+8)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return new(big.Int).Mod(new(big.Int).SetBytes(b), n)
}
