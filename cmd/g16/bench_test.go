package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/google/pprof/profile"

	g16curve "github.com/g16prover/g16/curve"
)

// TestBenchStdCircuit benches a gnark std circuit (EdDSA on Jubjub, the
// smallest) with random keys: single proofs print our solve phase beside
// gnark's solver alone, and a batch with explicit solvers prints how many
// solves ran at once; every proof is byte-identical to gnark's.
func TestBenchStdCircuit(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles and proves a std circuit several times: not in -short (the race run)")
	}
	code, out := g16("bench", "--circuit", "eddsa", "--signatures", "1", "--proofs", "1", "--keys", "random", "--warmup=false")
	if code != 0 {
		t.Fatalf("bench: exit %d\n%s", code, out)
	}
	for _, want := range []string{"eddsa-signatures1 circuit", "solve (gnark: hint stubbed)", "solve + commit (gnark: as in Prove)",
		"ours/gnark, solve", "byte-identical across provers: yes"} {
		if !strings.Contains(out, want) {
			t.Errorf("bench output lacks %q\n%s", want, out)
		}
	}
	prof := filepath.Join(t.TempDir(), "batch.prof")
	code, out = g16("bench", "--circuit", "eddsa", "--partitions", "3", "--solvers", "2", "--workers", "1", "--keys", "random", "--rounds", "2", "--cpuprofile", prof)
	if code != 0 {
		t.Fatalf("bench --partitions: exit %d\n%s", code, out)
	}
	for _, want := range []string{"most solves at once", "byte-identical across provers: yes", "prover ready in", "(ProveBatch 1)", "(ProveBatch 2)"} {
		if !strings.Contains(out, want) {
			t.Errorf("batch bench output lacks %q\n%s", want, out)
		}
	}
	if st, err := os.Stat(prof); err != nil || st.Size() == 0 {
		t.Errorf("--cpuprofile wrote no profile: %v", err)
	}
}

// TestBenchSingleCPUProfile: --cpuprofile without --partitions profiles
// our backend's timed single proofs and leaves gnark's out: the profile
// holds samples and none in gnark's prover, which ran between ours.
func TestBenchSingleCPUProfile(t *testing.T) {
	if testing.Short() {
		t.Skip("proves a 2^14-constraint circuit four times: not in -short (the race run)")
	}
	path := filepath.Join(t.TempDir(), "single.prof")
	code, out := g16("bench", "--size", "2^14", "--keys", "random", "--proofs", "2", "--warmup=false", "--cpuprofile", path)
	if code != 0 {
		t.Fatalf("bench --cpuprofile: exit %d\n%s", code, out)
	}
	if !strings.Contains(out, "CPU profile of g16 cpu") || !strings.Contains(out, "byte-identical across provers: yes") {
		t.Errorf("bench output lacks the profile's line or the byte-identity verdict\n%s", out)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("--cpuprofile wrote no profile: %v", err)
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		t.Fatalf("--cpuprofile wrote no readable profile: %v", err)
	}
	if len(p.SampleType) == 0 || p.SampleType[len(p.SampleType)-1].Type != "cpu" {
		t.Fatalf("profile's sample types %v: want a CPU profile", p.SampleType)
	}
	// Our prover's work runs mostly in goroutines whose stacks hold no
	// frame of ours (gnark-crypto's parallel loops): the profile must hold
	// samples, and none under gnark's prover.
	gnarks := 0
	for _, s := range p.Sample {
	sample:
		for _, loc := range s.Location {
			for _, l := range loc.Line {
				if l.Function != nil && strings.HasPrefix(l.Function.Name, "github.com/consensys/gnark/backend/groth16/") {
					gnarks++
					break sample
				}
			}
		}
	}
	if len(p.Sample) == 0 || gnarks != 0 {
		t.Errorf("profile: %d samples (want some), %d of them in gnark's prover (want none)", len(p.Sample), gnarks)
	}
}

// TestBenchCache: a second bench with the same --cache reads the compiled
// circuit and the random key back and, with the same seed, writes the same
// proofs; it reports peak RSS and the plan.
func TestBenchCache(t *testing.T) {
	dir := t.TempDir()
	args := []string{"bench", "--size", "2^10", "--keys", "random", "--proofs", "1", "--no-gnark", "--warmup=false", "--seed", "7", "--cache", dir}
	code, first := g16(args...)
	if code != 0 {
		t.Fatalf("bench: exit %d\n%s", code, first)
	}
	code, second := g16(args...)
	if code != 0 {
		t.Fatalf("second bench: exit %d\n%s", code, second)
	}
	for _, want := range []string{"circuit from the cache", "random bases (proofs cannot verify; backends must still agree byte for byte), cached",
		"memory: peak RSS", "key resident"} {
		if !strings.Contains(second, want) {
			t.Errorf("second bench output lacks %q\n%s", want, second)
		}
	}
	digest := func(out string) string {
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "proofs sha256") {
				return l
			}
		}
		return ""
	}
	if d := digest(first); d == "" || d != digest(second) {
		t.Errorf("proof digests differ across runs with the cache: %q and %q", d, digest(second))
	}
}

// TestBenchDeviceMemoryCPU: --device-memory caps the CPU backend's
// modelled device too: a key larger than the cap streams from its host
// copy, and the proof equals the unlimited backend's beside it, byte for
// byte; --compare-unlimited=false leaves that backend out.
func TestBenchDeviceMemoryCPU(t *testing.T) {
	args := []string{"bench", "--size", "2^10", "--keys", "random", "--proofs", "1", "--no-gnark", "--warmup=false", "--device-memory", "512KiB"}
	code, out := g16(args...)
	if code != 0 {
		t.Fatalf("bench: exit %d\n%s", code, out)
	}
	for _, want := range []string{"g16 cpu:0 (limit 0.5 MiB): key streamed, chunks of", "g16 cpu:1 (no limit): key resident", "byte-identical across provers: yes", "R1CS levels released"} {
		if !strings.Contains(out, want) {
			t.Errorf("bench output lacks %q\n%s", want, out)
		}
	}
	code, out = g16(append(args, "--compare-unlimited=false")...)
	if code != 0 {
		t.Fatalf("bench --compare-unlimited=false: exit %d\n%s", code, out)
	}
	if !strings.Contains(out, "g16 cpu:0 (limit 0.5 MiB): key streamed, chunks of") || !strings.Contains(out, "from the host copy, stream window") || strings.Contains(out, "no limit") {
		t.Errorf("--compare-unlimited=false: want the limited backend alone, streaming\n%s", out)
	}
}

// TestBenchCPUFrugalNeedsCPU: --cpu-frugal with no CPU backend to time it
// beside (--backend cuda --compare-cpu=false) is refused, naming the flag,
// before any device opens.
func TestBenchCPUFrugalNeedsCPU(t *testing.T) {
	code, out := g16("bench", "--backend", "cuda", "--compare-cpu=false", "--cpu-frugal")
	if code != exitUsage || !strings.Contains(out, "--cpu-frugal needs our CPU backend") {
		t.Errorf("--cpu-frugal without a CPU backend: exit %d\n%s", code, out)
	}
}

// TestBenchBadCounts: --proofs below 1, negative --partitions and --rounds
// below 1 are usage errors (exit 2) naming the flag, before any work.
func TestBenchBadCounts(t *testing.T) {
	for _, bad := range [][]string{{"--partitions", "2", "--rounds", "0"}, {"--partitions", "-1"}, {"--proofs", "0"}} {
		if code, out := g16(append([]string{"bench"}, bad...)...); code != exitUsage || !strings.Contains(out, bad[len(bad)-2]) {
			t.Errorf("bench %v: exit %d, want %d naming %s\n%s", bad, code, exitUsage, bad[len(bad)-2], out)
		}
	}
}

// TestBenchRandomKeyOnCPUHost: with our CPU backend among the provers, a
// random key drawn "on the device" lies in host memory (the CPU backend's
// device memory is the host's), so the host memory preflight counts it.
func TestBenchRandomKeyOnCPUHost(t *testing.T) {
	code, out := g16("bench", "--size", "2^10", "--keys", "random", "--proofs", "1", "--no-gnark", "--warmup=false")
	if code != 0 {
		t.Fatalf("bench: exit %d\n%s", code, out)
	}
	if !strings.Contains(out, "memory budget: random key") || !strings.Contains(out, "(on the host)") {
		t.Errorf("the preflight does not count the key on the host, where the CPU backend draws it\n%s", out)
	}
}

// TestBenchKeepsLevelsForGnark: with gnark's prover in the run, which
// solves through the R1CS's levels, bench keeps them, and gnark's proofs
// equal ours.
func TestBenchKeepsLevelsForGnark(t *testing.T) {
	code, out := g16("bench", "--size", "2^10", "--keys", "random", "--proofs", "1", "--warmup=false")
	if code != 0 {
		t.Fatalf("bench: exit %d\n%s", code, out)
	}
	if strings.Contains(out, "levels released") || !strings.Contains(out, "byte-identical across provers: yes") {
		t.Errorf("bench with gnark: want the levels kept and the proofs equal\n%s", out)
	}
}

// TestBenchPorep: the PoRep-shaped circuit with gnark's Setup gives proofs
// byte-identical to gnark's that gnark verifies; with a random key (its
// A and B points at infinity where Setup puts them) our proofs equal
// gnark's, drawn on the device or from the cache; --porep-tail outside
// [0.05, 0.5] or without --circuit porep is a usage error that names it.
// --b2 host: B2 on the host's cores, in a single proof (gnark's bytes,
// verified) and in a batch, said in the plan line; --b2 of another value
// is a usage error. A batch on one device draws its random key there, and
// proves what a single proof does.
func TestBenchPorep(t *testing.T) {
	code, out := g16("bench", "--circuit", "porep", "--size", "2^12", "--porep-tail", "0.3", "--proofs", "1", "--warmup=false", "--keydir", t.TempDir(), "--b2", "host")
	if code != 0 {
		t.Fatalf("bench: exit %d\n%s", code, out)
	}
	for _, want := range []string{"porep-tail0.3-", "byte-identical across provers: yes; verified by gnark", "B2 on the host"} {
		if !strings.Contains(out, want) {
			t.Errorf("bench output lacks %q\n%s", want, out)
		}
	}
	code, out = g16("bench", "--circuit", "porep", "--size", "2^12", "--proofs", "1", "--warmup=false", "--keys", "random", "--cache", t.TempDir())
	if code != 0 {
		t.Fatalf("bench --keys random: exit %d\n%s", code, out)
	}
	if !strings.Contains(out, "byte-identical across provers: yes") {
		t.Errorf("random key: our proof differs from gnark's\n%s", out)
	}
	code, out = g16("bench", "--circuit", "porep", "--size", "2^12", "--proofs", "1", "--warmup=false", "--keys", "random", "--no-gnark")
	if code != 0 || !strings.Contains(out, "drawn on the device") {
		t.Fatalf("bench --keys random --no-gnark: exit %d\n%s", code, out)
	}
	code, out = g16("bench", "--circuit", "porep", "--size", "2^12", "--keys", "random", "--cache", t.TempDir(), "--partitions", "2", "--rounds", "1", "--no-gnark", "--b2", "host")
	if code != 0 || !strings.Contains(out, "partition 0: key resident; B2 on the host") {
		t.Fatalf("bench --partitions 2 --b2 host: exit %d\n%s", code, out)
	}
	// A batch with the key drawn on the device (no host copy) proves what
	// a single proof with that key proves, byte for byte.
	digest := func(out string) string {
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "proofs sha256") {
				return l
			}
		}
		return ""
	}
	code, batch := g16("bench", "--circuit", "porep", "--size", "2^12", "--keys", "random", "--partitions", "1", "--rounds", "1", "--no-gnark", "--seed", "9")
	if code != 0 || !strings.Contains(batch, "random key drawn on the device, no host copy") {
		t.Fatalf("bench --partitions 1, key drawn on the device: exit %d\n%s", code, batch)
	}
	code, single := g16("bench", "--circuit", "porep", "--size", "2^12", "--keys", "random", "--proofs", "1", "--warmup=false", "--no-gnark", "--seed", "9")
	if code != 0 {
		t.Fatalf("bench --proofs 1: exit %d\n%s", code, single)
	}
	if d := digest(batch); d == "" || d != digest(single) {
		t.Errorf("batch %q, single proof %q: want one digest\n%s\n%s", d, digest(single), batch, single)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--b2", "sideways"}, `--b2 "sideways": want auto, device or host`},
		{[]string{"--circuit", "porep", "--porep-tail", "0.6"}, "--porep-tail 0.6: want a share from 0.05 to 0.5"},
		{[]string{"--circuit", "porep", "--porep-tail", "0.01"}, "--porep-tail 0.01: want a share from 0.05 to 0.5"},
		{[]string{"--circuit", "mix", "--porep-tail", "0.2"}, "--porep-tail sets the PoRep-shaped circuit's tail"},
	} {
		code, out := g16(append([]string{"bench", "--size", "2^12"}, c.args...)...)
		if code != exitUsage || !strings.Contains(out, c.want) {
			t.Errorf("bench %v: exit %d, want %d and %q\n%s", c.args, code, exitUsage, c.want, out)
		}
	}
}

// TestBenchCurves: on every curve but BLS12-381, g16 bench --curve proves
// gnark's EdDSA circuit over the curve (its twisted Edwards curve) with
// gnark's Setup keys, single proofs and a batch, byte-identical to gnark's
// and verified; the synthetic circuits and random keys on such a curve, and
// an unsupported curve, are usage errors (exit 2).
func TestBenchCurves(t *testing.T) {
	if code, out := g16("bench", "--curve", "bls24-315", "--circuit", "eddsa"); code != exitUsage {
		t.Errorf("bench --curve bls24-315: exit %d, want %d\n%s", code, exitUsage, out)
	}
	for _, c := range []string{"bls12-381", "bls12-377"} {
		if code, out := g16("bench", "--curve", c, "--circuit", "recursion"); code != exitUsage || !strings.Contains(out, "needs --curve bw6-761") {
			t.Errorf("bench --circuit recursion --curve %s: exit %d, want %d saying it needs bw6-761\n%s", c, code, exitUsage, out)
		}
	}
	for _, id := range g16curve.Supported() {
		if id != ecc.BLS12_381 {
			t.Run(g16curve.Name(id), func(t *testing.T) { testBenchCurve(t, g16curve.Name(id)) })
		}
	}
}

func testBenchCurve(t *testing.T, name string) {
	for _, args := range [][]string{
		{"--curve", name},
		{"--curve", name, "--circuit", "eddsa", "--keys", "random"},
	} {
		if code, out := g16(append([]string{"bench"}, args...)...); code != exitUsage {
			t.Errorf("bench %v: exit %d, want %d\n%s", args, code, exitUsage, out)
		}
	}
	if testing.Short() {
		t.Skip("gnark's setup and proofs of a std circuit: not in -short")
	}
	keys := t.TempDir()
	code, out := g16("bench", "--curve", name, "--circuit", "eddsa", "--signatures", "1", "--proofs", "1", "--warmup=false", "--keydir", keys)
	if code != 0 {
		t.Fatalf("bench: exit %d\n%s", code, out)
	}
	for _, want := range []string{name + "-eddsa-signatures1 circuit", "gnark setup", "solve + commit (gnark: as in Prove)", "byte-identical across provers: yes", "verified"} {
		if !strings.Contains(out, want) {
			t.Errorf("bench output lacks %q\n%s", want, out)
		}
	}
	code, out = g16("bench", "--curve", name, "--circuit", "eddsa", "--partitions", "2", "--rounds", "1", "--workers", "1", "--keydir", keys)
	if code != 0 {
		t.Fatalf("bench --partitions: exit %d\n%s", code, out)
	}
	for _, want := range []string{"(cached)", "byte-identical", "verified by gnark"} {
		if !strings.Contains(out, want) {
			t.Errorf("batch bench output lacks %q\n%s", want, out)
		}
	}
}

// TestBenchSizeFlags: a flag that sizes one kind of circuit given with
// another (--size with --circuit eddsa, say) is a usage error naming the
// flag that sizes it, before anything is compiled, not a flag ignored.
func TestBenchSizeFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--circuit", "eddsa", "--size", "2^12"}, "--circuit eddsa is sized by --signatures"},
		{[]string{"--circuit", "sha3", "--size", "2^12"}, "--circuit sha3 is sized by --msg-bytes"},
		{[]string{"--circuit", "sha256", "--signatures", "2"}, "--circuit sha256 is sized by --msg-bytes"},
		{[]string{"--circuit", "mix", "--msg-bytes", "10"}, "--circuit mix is sized by --size"},
		{[]string{"--circuit", "porep", "--proofs-verified", "2"}, "--circuit porep is sized by --size"},
		{[]string{"--circuit", "ecdsa", "--proofs-verified", "2"}, "--circuit ecdsa is sized by --signatures"},
		{[]string{"--curve", "bw6-761", "--circuit", "recursion", "--signatures", "2"}, "--circuit recursion is sized by --proofs-verified"},
	} {
		code, out := g16(append([]string{"bench"}, c.args...)...)
		if code != exitUsage || !strings.Contains(out, c.want) {
			t.Errorf("bench %v: exit %d, want %d and %q\n%s", c.args, code, exitUsage, c.want, out)
		}
	}
}
