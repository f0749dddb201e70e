package main

import (
	cryptorand "crypto/rand"
	"encoding/binary"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	gnarkplonk "github.com/consensys/gnark/backend/plonk"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	"github.com/consensys/gnark/frontend/cs/scs"
	"github.com/consensys/gnark/test/unsafekzg"

	g16curve "github.com/g16prover/g16/curve"
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

// freshSeed returns a random seed, logged.
func freshSeed(t *testing.T) uint64 {
	var b [8]byte
	if _, err := cryptorand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	s := binary.LittleEndian.Uint64(b[:])
	t.Logf("seed %d", s)
	return s
}

// writeFile writes w's encoding (WriteTo) to dir/name.
func writeFile(t *testing.T, dir, name string, w io.WriterTo) {
	t.Helper()
	if err := writeAtomic(filepath.Join(dir, name), func(out io.Writer) error { _, err := w.WriteTo(out); return err }); err != nil {
		t.Fatal(err)
	}
}

// TestCurvesSetupProveVerify: on every curve but BLS12-381, g16 setup
// --curve writes a circuit of gnark's std (a range check with a BSB22
// commitment, witness from a fresh seed), g16 prove --dir proves it (checked
// by gnark's verifier on the way) and g16 verify accepts the proof. Files of
// that curve and BLS12-381's given together (an R1CS and a proving key,
// either way; a verifying key, a proof or a witness of the other curve) are
// exit 1 naming both curves; a synthetic circuit on that curve and an unsupported curve
// are usage errors (exit 2).
func TestCurvesSetupProveVerify(t *testing.T) {
	bls := t.TempDir()
	if code, out := g16("setup", "--size", "2^8", "--out", bls); code != exitOK {
		t.Fatalf("setup: exit %d\n%s", code, out)
	}
	for _, id := range g16curve.Supported() {
		if id != ecc.BLS12_381 {
			t.Run(g16curve.Name(id), func(t *testing.T) { testSetupProveVerify(t, id, bls) })
		}
	}
	code, out := g16("setup", "--curve", "bls24-315", "--circuit", "rangecheck", "--out", t.TempDir())
	if code != exitUsage || !strings.Contains(out, "bls24-315") {
		t.Errorf("setup --curve bls24-315: exit %d, want %d naming the curve:\n%s", code, exitUsage, out)
	}
}

// testSetupProveVerify is TestCurvesSetupProveVerify on curve id, bls a
// directory of BLS12-381 files.
func testSetupProveVerify(t *testing.T, id ecc.ID, bls string) {
	name := g16curve.Name(id)
	dir := t.TempDir()
	seed := strconv.FormatUint(freshSeed(t), 10)
	if code, out := g16("setup", "--curve", name, "--circuit", "rangecheck", "--size", "40", "--witness-seed", seed, "--out", dir); code != exitOK {
		t.Fatalf("setup --curve %s: exit %d\n%s", name, code, out)
	}
	code, out := g16("prove", "--dir", dir, "--verify")
	if code != exitOK || !strings.Contains(out, "verified by gnark") {
		t.Fatalf("prove --dir of %s files: exit %d\n%s", name, code, out)
	}
	if code, out := g16("verify", "--dir", dir); code != exitOK || !strings.Contains(out, "proof verified") {
		t.Fatalf("verify of g16's %s proof: exit %d\n%s", name, code, out)
	}

	both := func(what string, code int, out string) {
		t.Helper()
		if code != exitInput || !strings.Contains(out, name) || !strings.Contains(out, "bls12-381") {
			t.Errorf("%s: exit %d, want %d and a message naming %s and bls12-381:\n%s", what, code, exitInput, name, out)
		}
	}
	proof := filepath.Join(t.TempDir(), "proof")
	code, out = g16("prove", "--dir", dir, "--pk", filepath.Join(bls, filePK), "--out", proof)
	both(name+" system, BLS12-381 key", code, out)
	code, out = g16("prove", "--dir", bls, "--pk", filepath.Join(dir, filePK), "--out", proof)
	both("BLS12-381 system, "+name+" key", code, out)

	// A verifying key, or a proof, of the other curve is named by its
	// curve, not called corrupt.
	vk := filepath.Join(bls, fileVK)
	code, out = g16("prove", "--dir", dir, "--vk", vk, "--out", proof)
	both(name+" system, BLS12-381 verifying key", code, out)
	if want := vk + " is over bls12-381"; !strings.Contains(out, want) {
		t.Errorf("%s system, BLS12-381 verifying key: the message does not say %q:\n%s", name, want, out)
	}
	code, out = g16("verify", "--dir", bls, "--proof", filepath.Join(dir, fileProof))
	both("BLS12-381 verifying key, "+name+" proof", code, out)
	if want := "is over " + name; !strings.Contains(out, want) {
		t.Errorf("BLS12-381 verifying key, %s proof: the message does not say %q:\n%s", name, want, out)
	}

	// A BLS12-381 witness holding a value above the r of every other curve
	// of 32-byte scalars (BW6-761's are of 48 bytes).
	x := new(big.Int).Sub(ecc.BLS12_381.ScalarField(), big.NewInt(int64(1+freshSeed(t)%1000)))
	w, err := frontend.NewWitness(&squareCircuit{X: x, Y: new(big.Int).Mod(new(big.Int).Mul(x, x), ecc.BLS12_381.ScalarField())}, ecc.BLS12_381.ScalarField())
	if err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	writeFile(t, other, fileWitness, w)
	code, out = g16("prove", "--dir", dir, "--witness", filepath.Join(other, fileWitness), "--out", proof)
	both(name+" system, BLS12-381 witness", code, out)
	if _, err := os.Stat(proof); !os.IsNotExist(err) {
		t.Errorf("a proof was written for files of different curves (%v)", err)
	}

	code, out = g16("setup", "--curve", name, "--size", "2^8", "--out", t.TempDir())
	if code != exitUsage || !strings.Contains(out, "bls12-381 only") {
		t.Errorf("setup --curve %s of the synthetic circuit: exit %d, want %d saying it is bls12-381 only:\n%s", name, code, exitUsage, out)
	}
}

// TestOtherCurveFiles: files of a Groth16 circuit over BN254, BLS12-377 or
// BW6-761 made by gnark (its Setup, Prove and witness) prove with g16 prove
// and verify with g16 verify; a PLONK system, or a PLONK proving key, is
// refused with exit 1 and a message naming the kind of system or key.
func TestOtherCurveFiles(t *testing.T) {
	seed := freshSeed(t)
	for _, id := range []ecc.ID{ecc.BN254, ecc.BLS12_377, ecc.BW6_761} {
		dir := t.TempDir()
		ccs, err := frontend.Compile(id.ScalarField(), r1cs.NewBuilder, &squareCircuit{})
		if err != nil {
			t.Fatal(err)
		}
		pk, vk, err := gnarkgroth16.Setup(ccs)
		if err != nil {
			t.Fatal(err)
		}
		x := new(big.Int).SetUint64(seed | 2)
		full, err := frontend.NewWitness(&squareCircuit{X: x, Y: new(big.Int).Mod(new(big.Int).Mul(x, x), id.ScalarField())}, id.ScalarField())
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
		writeFile(t, dir, fileR1CS, ccs)
		writeFile(t, dir, fileVK, vk)
		writeFile(t, dir, fileWitness, full)
		writeFile(t, dir, filePublic, pub)
		writeFile(t, dir, fileProof, proof)
		f, err := os.Create(filepath.Join(dir, filePK))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pk.WriteRawTo(f); err != nil {
			t.Fatal(err)
		}
		f.Close()

		if code, out := g16("verify", "--dir", dir); code != exitOK || !strings.Contains(out, "proof verified") {
			t.Fatalf("verify of gnark's %s proof: exit %d\n%s", id, code, out)
		}
		if code, out := g16("prove", "--dir", dir, "--verify", "--out", filepath.Join(dir, "g16proof")); code != exitOK || !strings.Contains(out, "verified by gnark") {
			t.Fatalf("prove of gnark's %s files: exit %d\n%s", id, code, out)
		}
	}

	dir := t.TempDir()
	plonk, err := frontend.Compile(ecc.BLS12_381.ScalarField(), scs.NewBuilder, &squareCircuit{})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, fileR1CS, plonk)
	code, out := g16("prove", "--r1cs", filepath.Join(dir, fileR1CS), "--pk", "none", "--witness", "none", "--out", filepath.Join(t.TempDir(), "proof"))
	if code != exitInput || !strings.Contains(out, "PLONK") {
		t.Fatalf("prove with a PLONK system: exit %d, want %d and a message saying it is PLONK:\n%s", code, exitInput, out)
	}

	// A PLONK proving key given for a Groth16 circuit's.
	bn := t.TempDir()
	if code, out := g16("setup", "--curve", "bn254", "--circuit", "rangecheck", "--size", "4", "--witness-seed", strconv.FormatUint(seed, 10), "--out", bn); code != exitOK {
		t.Fatalf("setup --curve bn254: exit %d\n%s", code, out)
	}
	plonkBN, err := frontend.Compile(ecc.BN254.ScalarField(), scs.NewBuilder, &squareCircuit{})
	if err != nil {
		t.Fatal(err)
	}
	srs, srsLagrange, err := unsafekzg.NewSRS(plonkBN)
	if err != nil {
		t.Fatal(err)
	}
	plonkPK, _, err := gnarkplonk.Setup(plonkBN, srs, srsLagrange)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "plonk.pk", plonkPK)
	code, out = g16("prove", "--dir", bn, "--pk", filepath.Join(dir, "plonk.pk"), "--out", filepath.Join(t.TempDir(), "proof"))
	if code != exitInput || !strings.Contains(out, "not a Groth16 proving key") {
		t.Fatalf("prove with a PLONK proving key: exit %d, want %d and a message saying it is no Groth16 key:\n%s", code, exitInput, out)
	}

	// An R1CS over Grumpkin's scalar field, which gnark compiles and g16
	// does not prove on.
	grumpkin, err := frontend.Compile(ecc.GRUMPKIN.ScalarField(), r1cs.NewBuilder, &squareCircuit{})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, fileR1CS, grumpkin)
	code, out = g16("prove", "--r1cs", filepath.Join(dir, fileR1CS), "--pk", "none", "--witness", "none", "--out", filepath.Join(t.TempDir(), "proof"))
	if code != exitInput || !strings.Contains(out, "no scalar field of a curve gnark proves on") {
		t.Fatalf("prove with a Grumpkin R1CS: exit %d, want %d and a message naming its field:\n%s", code, exitInput, out)
	}
}
