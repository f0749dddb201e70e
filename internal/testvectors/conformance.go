package testvectors

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
)

// RunConformance runs every vector and a fresh set of cross-checks on the
// backends newBackend returns, as subtests named after the checks
// ("NTT/n=2^14/coset/inverse/DIT", "MSMG1/len=7/edge=r-1", ...).
//
// newBackend is called once per group; it should register the backend's
// Close with t.Cleanup. The cross-checks' seed is logged; setting
// G16_CONFORMANCE_SEED to it repeats them.
func RunConformance(t *testing.T, newBackend func(t *testing.T) backend.Backend) {
	t.Helper()
	checks, err := Checks()
	if err != nil {
		t.Fatal(err)
	}
	seed, err := CrossSeed()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("cross-check seed %d (%s=%d repeats this run)", seed, SeedEnv, seed)
	checks = append(checks, CrossChecks(seed)...)
	for _, g := range Groups {
		in := filter(checks, g)
		t.Run(g, func(t *testing.T) {
			b := newBackend(t)
			for _, c := range in {
				t.Run(c.Name, func(t *testing.T) {
					if err := b.Supports(c.Curve); err != nil {
						t.Skipf("the backend does not compute on %s: %v", curve.Name(c.Curve), err)
					}
					if err := c.Run(b); err != nil {
						t.Error(err)
					}
				})
			}
		})
	}
}

// SelfTest runs every vector and a fresh set of cross-checks against the
// CPU backend on b, and writes one line per group to w, with the failures
// below a failing group's line. It reports whether every check passed.
// This is the body of `g16 selftest`.
func SelfTest(b backend.Backend, w io.Writer) (ok bool) {
	checks, err := Checks()
	if err != nil {
		fmt.Fprintf(w, "FAIL  loading the vectors: %v\n", err)
		return false
	}
	seed, err := CrossSeed()
	if err != nil {
		fmt.Fprintf(w, "FAIL  %v\n", err)
		return false
	}
	checks, unsupported := supportedChecks(b, append(checks, CrossChecks(seed)...))
	fmt.Fprintf(w, "selftest on %s: %d checks; cross-check seed %d (%s=%d repeats it)\n", b, len(checks), seed, SeedEnv, seed)
	if len(unsupported) > 0 {
		fmt.Fprintf(w, "      not run: the checks on %s, which %s does not compute on\n", strings.Join(unsupported, ", "), b)
	}
	start := time.Now()
	ok = true
	for _, g := range Groups {
		res := RunGroups(b, filter(checks, g))
		for _, r := range res {
			status := "ok"
			if len(r.Failures) > 0 {
				status, ok = "FAIL", false
			}
			fmt.Fprintf(w, "%-4s  %-10s %4d checks  %4d failed  %8s\n", status, r.Group, r.Checks, len(r.Failures), r.Elapsed.Round(time.Millisecond))
			const shown = 10
			for i, e := range r.Failures {
				if i == shown {
					fmt.Fprintf(w, "      ... and %d more\n", len(r.Failures)-shown)
					break
				}
				fmt.Fprintf(w, "      %v\n", e)
			}
		}
	}
	verdict := "PASS"
	if !ok {
		verdict = "FAIL"
	}
	fmt.Fprintf(w, "%s  %s in %s\n", verdict, b, time.Since(start).Round(time.Millisecond))
	return ok
}

// supportedChecks is the checks on curves b supports, and the names of
// the curves of the others.
func supportedChecks(b backend.Backend, checks []Check) (run []Check, unsupported []string) {
	skip := map[ecc.ID]bool{}
	for _, c := range checks {
		id := c.Curve
		if _, seen := skip[id]; !seen {
			skip[id] = b.Supports(id) != nil
			if skip[id] {
				unsupported = append(unsupported, curve.Name(id))
			}
		}
		if !skip[id] {
			run = append(run, c)
		}
	}
	return run, unsupported
}

func filter(checks []Check, group string) []Check {
	var out []Check
	for _, c := range checks {
		if c.Group == group {
			out = append(out, c)
		}
	}
	return out
}
