package gnarkio

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	"github.com/consensys/gnark/frontend/cs/scs"
)

// TestOtherCurvesAndSystems: a well-formed R1CS and proving key over BN254
// and BW6-761, and a PLONK system, are each refused with an error that
// names what they are and matches ErrUnsupported (not ErrCorrupt); the
// headers say the curve and kind of every system, BLS12-381's included.
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
		_, rerr := DecodeR1CS(data)
		_, kerr := ReadProvingKey(opener(raw.Bytes()), true)
		if id == ecc.BLS12_381 {
			if rerr != nil || kerr != nil {
				t.Fatalf("BLS12-381 files refused: %v; %v", rerr, kerr)
			}
			continue
		}
		name := strings.ReplaceAll(id.String(), "_", "-")
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
