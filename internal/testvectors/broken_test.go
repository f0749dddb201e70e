package testvectors

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	g16curve "github.com/g16prover/g16/curve"
)

// corruptMSM is a CPU backend whose G1 MSM flips one bit of the lowest limb
// of the result's X coordinate (a result at infinity, Z = 0, stays at
// infinity).
type corruptMSM struct{ backend.Backend }

func (c corruptMSM) String() string { return "corrupt-msm(" + c.Backend.String() + ")" }

func (c corruptMSM) MSMG1(q backend.Queue, cv ecc.ID, out []byte, bases backend.Buffer, basesOff int64, scalars backend.Buffer, n int) error {
	err := c.Backend.MSMG1(q, cv, out, bases, basesOff, scalars, n)
	if len(out) > 0 {
		out[0] ^= 1 // the lowest limb of X, little-endian
	}
	return err
}

// swappedNTT is a CPU backend that runs DIF where asked for DIT and back.
type swappedNTT struct{ backend.Backend }

func (s swappedNTT) String() string { return "swapped-ntt(" + s.Backend.String() + ")" }

func (s swappedNTT) NTT(q backend.Queue, data backend.Buffer, spec backend.NTTSpec) error {
	spec.Order ^= 1
	return s.Backend.NTT(q, data, spec)
}

// vectorChecks are the fixed vectors (not the cross-checks).
func vectorChecks(t *testing.T) []Check {
	t.Helper()
	checks, err := Checks()
	if err != nil {
		t.Fatal(err)
	}
	return checks
}

// failedNames runs checks on b and returns the names of those that
// failed, checking that each failure names its check.
func failedNames(t *testing.T, b backend.Backend, checks []Check) map[string]error {
	t.Helper()
	failed := make(map[string]error)
	for _, c := range checks {
		err := c.Run(b)
		if err == nil {
			continue
		}
		var f *Failure
		if !errors.As(err, &f) || f.Check != c.FullName() || !strings.HasPrefix(err.Error(), c.FullName()+" on ") {
			t.Errorf("failure of %s does not name it: %v", c.FullName(), err)
		}
		failed[c.FullName()] = err
	}
	return failed
}

func TestCorruptMSMFails(t *testing.T) {
	checks := vectorChecks(t)
	failed := failedNames(t, corruptMSM{cpu.MustNew()}, checks)
	for _, c := range checks {
		name := c.FullName()
		want := c.Group == GroupMSMG1 && !c.AtInfinity || c.Group == GroupProof || c.Group == GroupConcurrent
		if _, got := failed[name]; got != want {
			t.Errorf("%s: failed %v, want %v (%v)", name, got, want, failed[name])
		}
	}
	for _, id := range g16curve.Supported() {
		name := "MSMG1/" + g16curve.Name(id) + "/len=7/edge=r-1"
		e := failed[name]
		if e == nil || !strings.Contains(e.Error(), name+" on corrupt-msm(cpu:0): result (x=") || !strings.HasSuffix(e.Error(), "(not on the curve)") {
			t.Errorf("failure message does not name the vector and the result: %v", e)
		}
	}
	e := failed["MSMG1/bls12-381/len=7/edge=r-1"]
	if e == nil {
		t.Errorf("failure message does not name the vector and the result: %v", e)
	}
	t.Logf("%d of %d vectors fail, e.g. %v", len(failed), len(checks), e)

	// The cross-checks catch it too, on every curve ("bn254/MSMG1/..."),
	// and say how to repeat the run.
	const seed = 42
	cross := failedNames(t, corruptMSM{cpu.MustNew()}, CrossChecks(seed))
	for _, c := range CrossChecks(seed) {
		err, failed := cross[c.FullName()]
		if want := strings.HasPrefix(c.Name, "MSMG1/") || strings.Contains(c.Name, "/MSMG1/"); failed != want {
			t.Errorf("%s: failed %v, want %v", c.FullName(), failed, want)
		}
		if failed && !strings.Contains(err.Error(), "(seed 42; G16_CONFORMANCE_SEED=42 repeats it)") {
			t.Errorf("%s: failure does not give the seed: %v", c.FullName(), err)
		}
	}
}

func TestSwappedNTTFails(t *testing.T) {
	checks := vectorChecks(t)
	failed := failedNames(t, swappedNTT{cpu.MustNew()}, checks)
	for _, c := range checks {
		name := c.FullName()
		// For n = 2, bit-reversal is the identity and DIF and DIT agree.
		want := c.Group == GroupNTT && !strings.Contains(c.Name, "/n=2^1/") || c.Group == GroupH || c.Group == GroupProof || c.Group == GroupConcurrent
		if _, got := failed[name]; got != want {
			t.Errorf("%s: failed %v, want %v (%v)", name, got, want, failed[name])
		}
	}
	e := failed["NTT/bls12-381/n=2^14/coset/inverse/DIT"]
	if e == nil || !strings.Contains(e.Error(), "NTT/bls12-381/n=2^14/coset/inverse/DIT on swapped-ntt(cpu:0): 16383 of 16384 elements differ; first at index 1: got 0x") {
		t.Errorf("failure message does not name the vector: %v", e)
	}
	t.Logf("%d of %d vectors fail, e.g. %v", len(failed), len(checks), e)
}

// brokenEnv selects the backend TestHelperBrokenConformance runs the
// suite on; it is set only when TestRunConformanceReportsBroken runs this
// test binary again.
const brokenEnv = "G16_TESTVECTORS_BROKEN"

// TestHelperBrokenConformance runs RunConformance on a broken backend. It
// is meant to fail, and is skipped unless brokenEnv is set.
func TestHelperBrokenConformance(t *testing.T) {
	var wrap func(backend.Backend) backend.Backend
	switch os.Getenv(brokenEnv) {
	case "msm":
		wrap = func(b backend.Backend) backend.Backend { return corruptMSM{b} }
	case "ntt":
		wrap = func(b backend.Backend) backend.Backend { return swappedNTT{b} }
	default:
		t.Skipf("runs only under TestRunConformanceReportsBroken (%s unset)", brokenEnv)
	}
	RunConformance(t, func(t *testing.T) backend.Backend { return wrap(newCPU(t)) })
}

// TestRunConformanceReportsBroken runs RunConformance, through go test's
// own reporting, on the broken backends (in a child process, since those
// runs must fail) and checks that the failing subtests are the vectors.
func TestRunConformanceReportsBroken(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the test binary again")
	}
	for _, tc := range []struct {
		broken, group string
		want          []string
		notWant       []string
	}{
		{"msm", "MSMG1", []string{
			"--- FAIL: TestHelperBrokenConformance/MSMG1/bls12-381/len=7/edge=r-1 ",
			"MSMG1/bls12-381/len=7/edge=r-1 on corrupt-msm(cpu:0): result (x=",
			"--- PASS: TestHelperBrokenConformance/MSMG1/bls12-381/len=64/edge=0 ",
			"--- FAIL: TestHelperBrokenConformance/MSMG1/bn254/len=7/edge=r-1 ",
			"--- PASS: TestHelperBrokenConformance/MSMG1/bn254/len=64/edge=0 ",
			"--- FAIL: TestHelperBrokenConformance/MSMG1/bls12-377/len=1000/random ",
		}, nil},
		{"ntt", "NTT", []string{
			"--- FAIL: TestHelperBrokenConformance/NTT/bls12-381/n=2^14/plain/forward/DIF ",
			"NTT/bls12-381/n=2^14/plain/forward/DIF on swapped-ntt(cpu:0): ",
			"--- FAIL: TestHelperBrokenConformance/NTT/bn254/n=2^10/coset/inverse/DIT ",
			"--- FAIL: TestHelperBrokenConformance/NTT/bls12-377/n=2^4/plain/forward/DIF ",
		}, []string{
			"--- FAIL: TestHelperBrokenConformance/NTT/bls12-381/n=2^1/",
			"--- FAIL: TestHelperBrokenConformance/NTT/bn254/n=2^1/",
			"--- FAIL: TestHelperBrokenConformance/NTT/bls12-377/n=2^1/",
		}},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperBrokenConformance$/^"+tc.group+"$", "-test.v")
		cmd.Env = append(os.Environ(), brokenEnv+"="+tc.broken)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("broken %s: the suite did not fail (err %v):\n%s", tc.broken, err, out.String())
		}
		for _, w := range tc.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("broken %s: output lacks %q", tc.broken, w)
			}
		}
		for _, w := range tc.notWant {
			if strings.Contains(out.String(), w) {
				t.Errorf("broken %s: output has %q", tc.broken, w)
			}
		}
		if t.Failed() {
			t.Logf("output:\n%s", out.String())
		}
	}
}

func TestSelfTest(t *testing.T) {
	var out bytes.Buffer
	if !SelfTest(cpu.MustNew(), &out) {
		t.Errorf("SelfTest failed on the CPU backend:\n%s", out.String())
	}
	for _, g := range Groups {
		if !strings.Contains(out.String(), "ok    "+g+" ") {
			t.Errorf("no passing line for %s:\n%s", g, out.String())
		}
	}
	t.Logf("\n%s", out.String())

	out.Reset()
	if SelfTest(corruptMSM{cpu.MustNew()}, &out) {
		t.Errorf("SelfTest passed a backend with a corrupt MSM:\n%s", out.String())
	}
	for _, line := range []string{"FAIL  MSMG1 ", "ok    MSMG2 ", "ok    NTT ", "FAIL  Proof ", "MSMG1/" + g16curve.Name(g16curve.Supported()[0]) + "/len=1/random on corrupt-msm(cpu:0)"} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("SelfTest output lacks %q:\n%s", line, out.String())
		}
	}
}
