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
	groth16bn "github.com/consensys/gnark/backend/groth16/bn254"
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

// TestOtherCurvesAndSystems: a well-formed R1CS and proving key over
// BW6-761, and a PLONK system, are each refused with an error that names
// what they are and matches ErrUnsupported (not ErrCorrupt); BN254's and
// BLS12-381's are read; the headers say the curve and kind of every system.
func TestOtherCurvesAndSystems(t *testing.T) {
	for _, id := range []ecc.ID{ecc.BN254, ecc.BW6_761, ecc.BLS12_381} {
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
		if curve.IsSupported(id) {
			if rerr != nil || kerr != nil {
				t.Fatalf("%s files refused: %v; %v", name, rerr, kerr)
			}
			if gotCCS.Field().Cmp(id.ScalarField()) != 0 || gotPK.CurveID() != id {
				t.Fatalf("%s files read as a %T and a key over %s", name, gotCCS, gotPK.CurveID())
			}
			continue
		}
		for what, err := range map[string]error{"R1CS": rerr, "proving key": kerr} {
			if err == nil || !errors.Is(err, ErrUnsupported) || errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), name) {
				t.Errorf("%s %s: error %v, want one naming %s that matches ErrUnsupported only", name, what, err, name)
			}
		}
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

// TestBN254Files: a BN254 R1CS with a BSB22 commitment, gnark's Setup keys
// (raw and compressed) and a witness of fresh random values go through the
// readers to the same bytes and a system that solves; corrupt counts, an
// off-curve base and a BLS12-381 witness are refused by name.
func TestBN254Files(t *testing.T) {
	rng := testRand(t)
	ccs, err := frontend.Compile(ecc.BN254.ScalarField(), r1cs.NewBuilder, &committedCircuit{})
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
	x := randBelow(rng, ecc.BN254.ScalarField())
	w, err := frontend.NewWitness(committedAssignment(x), ecc.BN254.ScalarField())
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
	wr, err := ReadWitness(bytes.NewReader(encode(t, w)), ecc.BN254)
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

	// The domain is 8 + 5·32 + 1 bytes, then three raw G1 points of 64.
	bad := bytes.Clone(raw.Bytes())
	offA := 169 + 3*64
	bad[offA], bad[offA+1], bad[offA+2], bad[offA+3] = 0xff, 0xff, 0xff, 0xff
	if _, err := ReadProvingKey(opener(bad), true); err == nil || !errors.Is(err, ErrCorrupt) ||
		!strings.Contains(err.Error(), "bn254") || !strings.Contains(err.Error(), "at byte") {
		t.Errorf("A count 2^32−1: %v, want a corrupt-data error naming bn254 and the byte", err)
	}
	off, err := ReadProvingKey(opener(raw.Bytes()), true)
	if err != nil {
		t.Fatal(err)
	}
	off.(*groth16bn.ProvingKey).G1.A[1].X.SetUint64(uint64(rng.Uint32()) | 1)
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
	t.Logf("%d of %d corrupt BN254 keys and systems rejected", rejected, 2*trials)
	if rejected == 0 {
		t.Error("no corrupt BN254 file was rejected")
	}

	// A BLS12-381 witness whose value is above BN254's r.
	above := randBelow(rng, new(big.Int).Sub(ecc.BLS12_381.ScalarField(), ecc.BN254.ScalarField()))
	above.Add(above, ecc.BN254.ScalarField())
	blsW, err := frontend.NewWitness(&tinyCircuit{X: above, Y: 1}, ecc.BLS12_381.ScalarField())
	if err != nil {
		t.Fatal(err)
	}
	_, err = ReadWitness(bytes.NewReader(encode(t, blsW)), ecc.BN254)
	if err == nil || !errors.Is(err, ErrCurveMismatch) || !strings.Contains(err.Error(), "bls12-381") || !strings.Contains(err.Error(), "bn254") {
		t.Errorf("a BLS12-381 witness read for BN254: %v, want ErrCurveMismatch naming both", err)
	}
}

// committedAssignment is committedCircuit's assignment for X = x over
// BN254's scalar field.
func committedAssignment(x *big.Int) *committedCircuit {
	r := ecc.BN254.ScalarField()
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
