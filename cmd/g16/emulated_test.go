package main

import (
	"io"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	"github.com/consensys/gnark/std/math/emulated"
	"github.com/consensys/gnark/std/math/emulated/emparams"
)

// emulatedMul checks X·Y = Z in secp256k1's base field, emulated over
// BLS12-381's scalar field: its solver needs std/math/emulated's hints.
type emulatedMul struct {
	X, Y emulated.Element[emparams.Secp256k1Fp]
	Z    emulated.Element[emparams.Secp256k1Fp] `gnark:",public"`
}

func (c *emulatedMul) Define(api frontend.API) error {
	f, err := emulated.NewField[emparams.Secp256k1Fp](api)
	if err != nil {
		return err
	}
	f.AssertIsEqual(f.Mul(&c.X, &c.Y), &c.Z)
	return nil
}

// writeEmulatedFiles compiles emulatedMul, runs gnark's setup and writes
// the files g16 prove reads into dir, for fresh random X and Y (seed
// logged).
func writeEmulatedFiles(t *testing.T, dir string) {
	t.Helper()
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	p := emparams.Secp256k1Fp{}.Modulus()
	draw := func() *big.Int {
		b := make([]byte, 32)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return new(big.Int).Mod(new(big.Int).SetBytes(b), p)
	}
	x, y := draw(), draw()
	z := new(big.Int).Mod(new(big.Int).Mul(x, y), p)
	ccs, err := frontend.Compile(ecc.BLS12_381.ScalarField(), r1cs.NewBuilder, &emulatedMul{})
	if err != nil {
		t.Fatal(err)
	}
	assignment := &emulatedMul{
		X: emulated.ValueOf[emparams.Secp256k1Fp](x),
		Y: emulated.ValueOf[emparams.Secp256k1Fp](y),
		Z: emulated.ValueOf[emparams.Secp256k1Fp](z),
	}
	w, err := frontend.NewWitness(assignment, ecc.BLS12_381.ScalarField())
	if err != nil {
		t.Fatal(err)
	}
	pub, err := w.Public()
	if err != nil {
		t.Fatal(err)
	}
	pk, vk, err := gnarkgroth16.Setup(ccs)
	if err != nil {
		t.Fatal(err)
	}
	for name, write := range map[string]func(io.Writer) (int64, error){
		fileR1CS: ccs.WriteTo, filePK: pk.WriteRawTo, fileVK: vk.WriteTo, fileWitness: w.WriteTo, filePublic: pub.WriteTo,
	} {
		if err := writeAtomic(filepath.Join(dir, name), func(wr io.Writer) error { _, err := write(wr); return err }); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("emulated circuit: %d constraints", ccs.GetNbConstraints())
}

// TestProveEmulatedFromFiles builds the g16 command, so that only the
// hints the command itself registers are there, and proves an
// emulated-arithmetic circuit from gnark files with it; gnark's verifier
// (g16 verify, and prove's --verify) accepts the proof, and the files are
// 0644.
func TestProveEmulatedFromFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs gnark's setup")
	}
	dir := t.TempDir()
	writeEmulatedFiles(t, dir)
	bin := filepath.Join(t.TempDir(), "g16")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "prove", "--dir", dir, "--verify").CombinedOutput()
	if err != nil {
		t.Fatalf("g16 prove: %v\n%s", err, out)
	}
	t.Logf("g16 prove:\n%s", out)
	for _, want := range []string{"verified by gnark", "time: read", "solve", "MSMs", "verify"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("g16 prove's output lacks %q", want)
		}
	}
	if out, err := exec.Command(bin, "verify", "--dir", dir).CombinedOutput(); err != nil || !strings.Contains(string(out), "proof verified") {
		t.Fatalf("g16 verify: %v\n%s", err, out)
	}
	st, err := os.Stat(filepath.Join(dir, fileProof))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o644 {
		t.Errorf("proof file mode %v, want 0644", st.Mode().Perm())
	}
}
