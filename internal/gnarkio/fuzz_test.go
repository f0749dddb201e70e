package gnarkio

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"

	"github.com/g16prover/g16/curve"
	"github.com/g16prover/g16/internal/synth"
)

// The seed corpora are in testdata/fuzz; G16_WRITE_FUZZ_SEEDS=1 go test
// -run TestWriteFuzzSeeds ./internal/gnarkio writes them again (from the
// synthetic circuit of 2^7 constraints, its witness, and gnark Setup keys of a one-constraint circuit;
// bn254-*, bls12-377-*, bw6-761-*: each other curve's systems, keys and a witness of
// the one-constraint circuit and of committedCircuit).

func TestWriteFuzzSeeds(t *testing.T) {
	if os.Getenv("G16_WRITE_FUZZ_SEEDS") != "1" {
		t.Skip("set G16_WRITE_FUZZ_SEEDS=1 to write the seed corpora")
	}
	ccs, s, err := synth.Compile(synth.Mix, 1<<7)
	if err != nil {
		t.Fatal(err)
	}
	w, err := synth.Witness(s, 1)
	if err != nil {
		t.Fatal(err)
	}
	// The key seeds come from a one-constraint circuit: small inputs fuzz
	// faster, and the encoding's every part is still there.
	tinyCCS, err := frontend.Compile(ecc.BLS12_381.ScalarField(), r1cs.NewBuilder, &tinyCircuit{})
	if err != nil {
		t.Fatal(err)
	}
	pk, _, err := gnarkgroth16.Setup(tinyCCS)
	if err != nil {
		t.Fatal(err)
	}
	var raw, compressed bytes.Buffer
	if _, err := pk.WriteRawTo(&raw); err != nil {
		t.Fatal(err)
	}
	if _, err := pk.WriteTo(&compressed); err != nil {
		t.Fatal(err)
	}
	sys := encode(t, ccs)
	corrupt := bytes.Clone(sys)
	for i := 1000; i < 1100 && i < len(corrupt); i++ {
		corrupt[i] ^= byte(i * 37)
	}
	writeSeeds(t, "FuzzDecodeR1CS", "seed", sys, corrupt, sys[:len(sys)/2], encode(t, tinyCCS))
	writeSeeds(t, "FuzzReadProvingKey", "seed", raw.Bytes(), compressed.Bytes())
	writeSeeds(t, "FuzzReadWitness", "seed", encode(t, w))

	// Every other curve (files named by it): the one-constraint circuit and
	// one with a BSB22 commitment, their Setup keys and a witness.
	for _, id := range curve.Supported() {
		if id == ecc.BLS12_381 {
			continue
		}
		var sys, keys [][]byte
		for _, c := range []frontend.Circuit{&tinyCircuit{}, &committedCircuit{}} {
			ccs, err := frontend.Compile(id.ScalarField(), r1cs.NewBuilder, c)
			if err != nil {
				t.Fatal(err)
			}
			pk, _, err := gnarkgroth16.Setup(ccs)
			if err != nil {
				t.Fatal(err)
			}
			var raw, compressed bytes.Buffer
			if _, err := pk.WriteRawTo(&raw); err != nil {
				t.Fatal(err)
			}
			if _, err := pk.WriteTo(&compressed); err != nil {
				t.Fatal(err)
			}
			sys = append(sys, encode(t, ccs))
			keys = append(keys, raw.Bytes(), compressed.Bytes())
		}
		w, err := frontend.NewWitness(committedAssignment(id, big.NewInt(12345)), id.ScalarField())
		if err != nil {
			t.Fatal(err)
		}
		name := curve.Name(id)
		writeSeeds(t, "FuzzDecodeR1CS", name, sys...)
		writeSeeds(t, "FuzzReadProvingKey", name, keys...)
		writeSeeds(t, "FuzzReadWitness", name, encode(t, w))
	}
}

func writeSeeds(t *testing.T, target, prefix string, seeds ...[]byte) {
	dir := filepath.Join("testdata", "fuzz", target)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, s := range seeds {
		body := fmt.Sprintf("go test fuzz v1\n[]byte(%s)\n", strconv.Quote(string(s)))
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%d", prefix, i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// tinyCircuit is X² = Y.
type tinyCircuit struct {
	X frontend.Variable
	Y frontend.Variable `gnark:",public"`
}

func (c *tinyCircuit) Define(api frontend.API) error {
	api.AssertIsEqual(api.Mul(c.X, c.X), c.Y)
	return nil
}

// FuzzDecodeR1CS: any bytes give a checked system or an error; the process
// never crashes (a panic in gnark's decoding goroutines would kill it).
func FuzzDecodeR1CS(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := DecodeR1CS(data)
		if err != nil {
			return
		}
		if err := CheckR1CS(r); err != nil {
			t.Fatalf("DecodeR1CS returned a system CheckR1CS rejects: %v", err)
		}
	})
}

// FuzzReadProvingKey: any bytes give a key or an error, never a crash or
// an allocation the bytes do not justify.
func FuzzReadProvingKey(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		_, checked := CheckProvingKey(bytes.NewReader(data))
		_, err := ReadProvingKey(opener(data), true)
		if checked != nil && err == nil {
			t.Fatalf("CheckProvingKey failed (%v) but ReadProvingKey did not", checked)
		}
		if err != nil && checked != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) {
			t.Fatalf("a rejected key's error matches neither ErrCorrupt nor ErrUnsupported: %v", err)
		}
	})
}

// FuzzReadWitness: any bytes give a witness whose counts add up, or an
// error, read for each curve g16 proves on.
func FuzzReadWitness(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, id := range curve.Supported() {
			w, err := ReadWitness(bytes.NewReader(data), id)
			if err != nil {
				continue
			}
			pub, err := w.Public()
			if err != nil {
				t.Fatalf("%s: Public of an accepted witness: %v", curve.Name(id), err)
			}
			if _, err := pub.MarshalBinary(); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// committedCircuit has a BSB22 commitment: X² = Y, and X committed.
type committedCircuit struct {
	X frontend.Variable
	Y frontend.Variable `gnark:",public"`
}

func (c *committedCircuit) Define(api frontend.API) error {
	cm, err := api.(frontend.Committer).Commit(c.X)
	if err != nil {
		return err
	}
	api.AssertIsDifferent(cm, 0)
	api.AssertIsEqual(api.Mul(c.X, c.X), c.Y)
	return nil
}
