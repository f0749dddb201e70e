package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	"github.com/consensys/gnark/frontend/cs/scs"
)

// squareCircuit is X² = Y.
type squareCircuit struct {
	X frontend.Variable
	Y frontend.Variable `gnark:",public"`
}

func (c *squareCircuit) Define(api frontend.API) error {
	api.AssertIsEqual(api.Mul(c.X, c.X), c.Y)
	return nil
}

// TestOtherCurveFiles: files of a Groth16 circuit over BN254, made and
// proved by gnark, verify with g16 verify (gnark's verifier, on the key's
// curve), and g16 prove refuses them, and a PLONK system, with exit 1 and
// a message naming the curve or the kind of system.
func TestOtherCurveFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, w io.WriterTo) {
		t.Helper()
		if err := writeAtomic(filepath.Join(dir, name), func(out io.Writer) error { _, err := w.WriteTo(out); return err }); err != nil {
			t.Fatal(err)
		}
	}
	ccs, err := frontend.Compile(ecc.BN254.ScalarField(), r1cs.NewBuilder, &squareCircuit{})
	if err != nil {
		t.Fatal(err)
	}
	pk, vk, err := gnarkgroth16.Setup(ccs)
	if err != nil {
		t.Fatal(err)
	}
	full, err := frontend.NewWitness(&squareCircuit{X: 3, Y: 9}, ecc.BN254.ScalarField())
	if err != nil {
		t.Fatal(err)
	}
	pub, err := full.Public()
	if err != nil {
		t.Fatal(err)
	}
	proof, err := gnarkgroth16.Prove(ccs, pk, full)
	if err != nil {
		t.Fatal(err)
	}
	write(fileR1CS, ccs)
	write(fileVK, vk)
	write(fileWitness, full)
	write(filePublic, pub)
	write(fileProof, proof)
	f, err := os.Create(filepath.Join(dir, filePK))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pk.WriteRawTo(f); err != nil {
		t.Fatal(err)
	}
	f.Close()

	if code, out := g16("verify", "--dir", dir); code != exitOK || !strings.Contains(out, "proof verified") {
		t.Fatalf("verify of a BN254 proof: exit %d\n%s", code, out)
	}
	code, out := g16("prove", "--dir", dir, "--out", filepath.Join(t.TempDir(), "proof"))
	if code != exitInput || !strings.Contains(out, "bn254") {
		t.Fatalf("prove with BN254 files: exit %d, want %d and a message naming bn254:\n%s", code, exitInput, out)
	}
	// The BN254 key beside another curve's system: the key is named.
	bls := t.TempDir()
	if code, out := g16("setup", "--size", "2^8", "--out", bls); code != exitOK {
		t.Fatalf("setup: exit %d\n%s", code, out)
	}
	code, out = g16("prove", "--dir", bls, "--pk", filepath.Join(dir, filePK), "--out", filepath.Join(t.TempDir(), "proof"))
	if code != exitInput || !strings.Contains(out, "proving key over bn254") {
		t.Fatalf("prove with a BN254 key: exit %d, want %d and a message naming the key's curve:\n%s", code, exitInput, out)
	}

	plonk, err := frontend.Compile(ecc.BLS12_381.ScalarField(), scs.NewBuilder, &squareCircuit{})
	if err != nil {
		t.Fatal(err)
	}
	write(fileR1CS, plonk)
	code, out = g16("prove", "--dir", dir, "--out", filepath.Join(t.TempDir(), "proof"))
	if code != exitInput || !strings.Contains(out, "PLONK") {
		t.Fatalf("prove with a PLONK system: exit %d, want %d and a message saying it is PLONK:\n%s", code, exitInput, out)
	}
}
