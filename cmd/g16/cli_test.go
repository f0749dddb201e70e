package main

import (
	"bytes"
	"io"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"

	"github.com/g16prover/g16/internal/gnarkio"
)

// g16 runs the command in-process and returns its exit code and output.
func g16(args ...string) (int, string) {
	var out bytes.Buffer
	code := run(args, &out, &out)
	return code, out.String()
}

// TestSetupProveVerify runs the file workflow end to end, then feeds
// prove truncated and corrupt files.
func TestSetupProveVerify(t *testing.T) {
	dir := t.TempDir()
	if code, out := g16("setup", "--size", "2^8", "--out", dir); code != 0 {
		t.Fatalf("setup: exit %d\n%s", code, out)
	}
	if code, out := g16("prove", "--dir", dir); code != 0 {
		t.Fatalf("prove: exit %d\n%s", code, out)
	}
	if code, out := g16("verify", "--dir", dir); code != 0 || !strings.Contains(out, "proof verified") {
		t.Fatalf("verify: exit %d\n%s", code, out)
	}

	// A compressed key (gnark's WriteTo) works as well as a raw one.
	compressed := filepath.Join(t.TempDir(), "pk.compressed")
	pk := gnarkgroth16.NewProvingKey(ecc.BLS12_381)
	if err := readFile(filepath.Join(dir, filePK), "proving key", pk.UnsafeReadFrom); err != nil {
		t.Fatal(err)
	}
	if err := writeAtomic(compressed, func(w io.Writer) error { _, err := pk.WriteTo(w); return err }); err != nil {
		t.Fatal(err)
	}
	if code, out := g16("prove", "--dir", dir, "--pk", compressed, "--out", filepath.Join(t.TempDir(), "proof")); code != 0 {
		t.Fatalf("prove with a compressed key: exit %d\n%s", code, out)
	}

	// A proof for other public inputs is rejected.
	other := t.TempDir()
	if code, out := g16("setup", "--size", "2^8", "--out", other, "--witness-seed", "2"); code != 0 {
		t.Fatalf("setup: exit %d\n%s", code, out)
	}
	if code, out := g16("verify", "--vk", filepath.Join(dir, fileVK), "--proof", filepath.Join(dir, fileProof),
		"--public", filepath.Join(other, filePublic)); code != exitInput || !strings.Contains(out, "rejected") {
		t.Fatalf("verify with other public inputs: exit %d\n%s", code, out)
	}

	damage := func(t *testing.T, name string, f func([]byte) []byte) string {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		bad := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(bad, f(bytes.Clone(data)), 0o644); err != nil {
			t.Fatal(err)
		}
		return bad
	}
	truncate := func(b []byte) []byte { return b[:len(b)/2] }
	corrupt := func(b []byte) []byte { // flip bits in the middle
		for i := len(b) / 2; i < len(b)/2+64 && i < len(b); i++ {
			b[i] ^= 0x5a
		}
		return b
	}
	cases := []struct {
		name, file string
		damage     func([]byte) []byte
		want       string
	}{
		{"pk/truncated", filePK, truncate, "truncated"},
		{"pk/corrupt", filePK, corrupt, "corrupt"},
		{"witness/truncated", fileWitness, truncate, "witness"},
		{"witness/corrupt-values", fileWitness, corrupt, "not satisfied"},
		{"witness/corrupt-header", fileWitness, func(b []byte) []byte { b[0] ^= 0xff; b[1] ^= 0xff; return b }, "witness"},
		{"r1cs/truncated", fileR1CS, truncate, "constraint system"},
		// The reproduction: gnark's decoder panicked in a goroutine
		// of its own, which killed the process.
		{"r1cs/100-random-bytes-at-1000", fileR1CS, func(b []byte) []byte {
			rng := mrand.New(mrand.NewPCG(uint64(len(b)), 1000))
			for i := 1000; i < 1100; i++ {
				b[i] = byte(rng.Uint32())
			}
			return b
		}, "corrupt"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bad := damage(t, c.file, c.damage)
			args := []string{"prove", "--dir", dir, "--out", filepath.Join(t.TempDir(), "proof")}
			switch c.file {
			case filePK:
				args = append(args, "--pk", bad)
			case fileWitness:
				args = append(args, "--witness", bad)
			case fileR1CS:
				args = append(args, "--r1cs", bad)
			}
			code, out := g16(args...)
			if code != exitInput {
				t.Fatalf("prove of a damaged %s: exit %d, want %d (bad input)\n%s", c.file, code, exitInput, out)
			}
			if !strings.Contains(out, c.want) {
				t.Fatalf("error does not mention %q:\n%s", c.want, out)
			}
		})
	}
}

// TestUsage checks bad command lines exit 2 with a message.
func TestUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"nope"}, {"bench", "--size", "2^99"}, {"prove", "extra"}} {
		if code, out := g16(args...); code != 2 || out == "" {
			t.Errorf("g16 %q: exit %d, output %q", args, code, out)
		}
	}
	if code, out := g16("prove"); code != 1 || !strings.Contains(out, "--r1cs") {
		t.Errorf("g16 prove without files: exit %d, %q", code, out)
	}
}

// TestSelftest runs the built-in vectors on the CPU backend.
func TestSelftest(t *testing.T) {
	code, out := g16("selftest", "--backend", "cpu")
	if code != 0 || !strings.Contains(out, "PASS") {
		t.Fatalf("selftest: exit %d\n%s", code, out)
	}
}

// TestExitCodes: each documented exit code, from the command's own run.
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	if code, out := g16("setup", "--size", "2^8", "--out", dir); code != exitOK {
		t.Fatalf("setup: exit %d\n%s", code, out)
	}
	other := t.TempDir()
	if code, out := g16("setup", "--size", "2^8", "--out", other, "--witness-seed", "2"); code != exitOK {
		t.Fatalf("setup: exit %d\n%s", code, out)
	}
	for _, name := range []string{fileR1CS, filePK, fileVK, fileWitness, filePublic} {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v, want 0644", name, st.Mode().Perm())
		}
	}
	// Another circuit's verifying key: the proof is rejected before it is
	// written.
	wrongVK := filepath.Join(t.TempDir(), "vk-of-another-setup")
	data, err := os.ReadFile(filepath.Join(other, fileVK))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(wrongVK, data, 0o644); err != nil {
		t.Fatal(err)
	}
	// A circuit whose setup differs: same shape, other keys (setup is
	// random), so other's vk rejects dir's proofs.
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"ok", []string{"prove", "--dir", dir, "-v"}, exitOK, "time: read"},
		{"verified", []string{"verify", "--dir", dir}, exitOK, "proof verified"},
		{"help", []string{"prove", "-h"}, exitOK, "-verify"},
		{"missing file", []string{"prove", "--dir", t.TempDir()}, exitInput, "no such file"},
		{"rejected by prove", []string{"prove", "--dir", dir, "--vk", wrongVK, "--out", filepath.Join(t.TempDir(), "proof")}, exitInput, "rejected"},
		{"rejected by verify", []string{"verify", "--vk", filepath.Join(dir, fileVK), "--proof", filepath.Join(dir, fileProof), "--public", filepath.Join(other, filePublic)}, exitInput, "rejected"},
		{"verify without a key", []string{"prove", "--r1cs", filepath.Join(dir, fileR1CS), "--pk", filepath.Join(dir, filePK), "--witness", filepath.Join(dir, fileWitness), "--verify"}, exitInput, "--verify needs"},
		{"bad flag", []string{"prove", "--nope"}, exitUsage, "nope"},
		{"bad backend", []string{"prove", "--dir", dir, "--backend", "tpu"}, exitUsage, "want cpu or cuda"},
		{"no cuda in this build", []string{"selftest", "--backend", "cuda"}, exitDevice, "cuda"},
		{"host tail on cpu", []string{"bench", "--msm-host-tail=false"}, exitUsage, "needs --backend cuda"},
		{"unknown circuit", []string{"bench", "--circuit", "md5"}, exitUsage, `--circuit "md5"`},
		{"frugal without a CPU backend", []string{"bench", "--backend", "cuda", "--compare-cpu=false", "--cpu-frugal"}, exitUsage, "--cpu-frugal needs"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "no cuda in this build" && cudaBuilt() {
				t.Skip("a cuda build: the GPU may be there")
			}
			code, out := g16(c.args...)
			if code != c.code || !strings.Contains(out, c.want) {
				t.Fatalf("g16 %q: exit %d, want %d with %q in:\n%s", c.args, code, c.code, c.want, out)
			}
		})
	}
	// -v logs through slog.
	if _, out := g16("prove", "--dir", dir, "-v"); !strings.Contains(out, "level=DEBUG") {
		t.Errorf("prove -v logs nothing:\n%s", out)
	}
}

// TestExitCodeUnsatisfied: a witness of the right shape whose public value
// does not satisfy the circuit is bad input (exit 1), named by the solver's
// constraint, and no proof is written.
func TestExitCodeUnsatisfied(t *testing.T) {
	dir := t.TempDir()
	if code, out := g16("setup", "--size", "2^8", "--out", dir); code != exitOK {
		t.Fatalf("setup: exit %d\n%s", code, out)
	}
	f, err := os.Open(filepath.Join(dir, fileWitness))
	if err != nil {
		t.Fatal(err)
	}
	w, err := gnarkio.ReadWitness(f, ecc.BLS12_381)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	v := w.Vector().(fr.Vector)
	var one fr.Element
	one.SetOne()
	v[0].Add(&v[0], &one) // the first public value, off by one
	data, err := w.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), fileWitness)
	if err := os.WriteFile(bad, data, 0o644); err != nil {
		t.Fatal(err)
	}
	proof := filepath.Join(t.TempDir(), fileProof)
	code, out := g16("prove", "--dir", dir, "--witness", bad, "--out", proof)
	if code != exitInput || !strings.Contains(out, "is not satisfied") {
		t.Fatalf("prove with an unsatisfied witness: exit %d, want %d naming the constraint:\n%s", code, exitInput, out)
	}
	if _, err := os.Stat(proof); !os.IsNotExist(err) {
		t.Errorf("a proof was written for an unsatisfied witness (%v)", err)
	}
}

// TestVerboseLogOneStream: prove -v with standard error not a terminal
// writes gnark's lines (its verifier's) through the command's slog handler,
// in its format, and no escape sequence at all.
func TestVerboseLogOneStream(t *testing.T) {
	dir := t.TempDir()
	if code, out := g16("setup", "--size", "2^8", "--out", dir); code != exitOK {
		t.Fatalf("setup: exit %d\n%s", code, out)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"prove", "--dir", dir, "-v"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("prove -v: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	log := stderr.String()
	if strings.Contains(log, "\x1b") {
		t.Errorf("escape sequence in the log:\n%q", log)
	}
	if !strings.Contains(log, `level=DEBUG msg="verifier done"`) || !strings.Contains(log, "curve=bls12_381") {
		t.Errorf("gnark's verifier line is not in slog's format:\n%s", log)
	}
	for _, line := range strings.Split(strings.TrimSpace(log), "\n") {
		if !strings.HasPrefix(line, "time=") {
			t.Errorf("a line not from the slog handler: %q", line)
		}
	}
	// Without -v, neither g16's debug lines nor gnark's.
	stderr.Reset()
	if code := run([]string{"prove", "--dir", dir}, &stdout, &stderr); code != exitOK || stderr.Len() != 0 {
		t.Errorf("prove: exit %d, standard error %q", code, stderr.String())
	}
}
