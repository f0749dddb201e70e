package testvectors

import (
	"fmt"
	"io/fs"
	"slices"
	"time"

	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
	"github.com/g16prover/g16/internal/testvectors/internal/curves"
	"github.com/g16prover/g16/internal/testvectors/internal/suite"
)

// Groups of checks, in the order the suite runs them.
const (
	GroupNTT   = suite.GroupNTT
	GroupH     = suite.GroupH
	GroupMSMG1 = suite.GroupMSMG1
	GroupMSMG2 = suite.GroupMSMG2
	GroupProof = suite.GroupProof
	GroupCross = suite.GroupCross
	// GroupConcurrent runs some vectors from several goroutines at once.
	GroupConcurrent = "Concurrent"
)

// Groups lists the groups in order.
var Groups = []string{GroupNTT, GroupH, GroupMSMG1, GroupMSMG2, GroupProof, GroupConcurrent, GroupCross}

// Check is one conformance check: a vector, or a cross-check against the
// CPU backend.
type Check struct {
	Group string // one of Groups
	// Name is the curve and the vector within its group, e.g.
	// "bls12-381/len=7/edge=r-1".
	Name string
	// Curve is the curve of the check's values: a backend that does not
	// support it does not run it.
	Curve ecc.ID
	// AtInfinity: an MSM vector whose expected result is the point at
	// infinity.
	AtInfinity bool
	run        func(b backend.Backend) error
}

// fromSuite is the check c of a curve's package, named after its curve.
func fromSuite(c suite.Check) Check {
	return Check{Group: c.Group, Name: curve.Name(c.Curve) + "/" + c.Name, Curve: c.Curve, AtInfinity: c.AtInfinity, run: c.Run}
}

// FullName is Group/Name, e.g. "MSMG1/len=7/edge=r-1".
func (c Check) FullName() string { return c.Group + "/" + c.Name }

// Run runs the check on b. A failure is a *Failure naming the check.
func (c Check) Run(b backend.Backend) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
		if err != nil {
			err = &Failure{Check: c.FullName(), Backend: b.String(), Err: err}
		}
	}()
	return c.run(b)
}

// Failure is a failed check.
type Failure struct {
	Check   string // the check's full name
	Backend string // the backend's name
	Err     error
}

func (f *Failure) Error() string { return fmt.Sprintf("%s on %s: %v", f.Check, f.Backend, f.Err) }
func (f *Failure) Unwrap() error { return f.Err }

// Checks returns a check for every embedded vector of every curve,
// grouped and ordered as Groups (without the Cross group; see
// CrossChecks), each named after its curve ("NTT/bn254/n=2^4/...").
func Checks() ([]Check, error) {
	v, err := Load()
	if err != nil {
		return nil, err
	}
	var checks []Check
	for _, c := range curves.All() {
		sub, err := fs.Sub(Files(), c.Dir())
		if err != nil {
			return nil, fmt.Errorf("testvectors: %w", err)
		}
		cs, err := c.Checks(sub)
		if err != nil {
			return nil, fmt.Errorf("testvectors: %s: %w", c.Dir(), err)
		}
		for _, k := range cs {
			checks = append(checks, fromSuite(k))
		}
	}
	checks = append(checks, proofChecks(v.Proofs)...)
	checks = append(checks, concurrentChecks(checks)...)
	sortByGroup(checks)
	return checks, nil
}

// sortByGroup orders checks as Groups, keeping their order within a group.
func sortByGroup(checks []Check) {
	rank := make(map[string]int, len(Groups))
	for i, g := range Groups {
		rank[g] = i
	}
	slices.SortStableFunc(checks, func(a, b Check) int { return rank[a.Group] - rank[b.Group] })
}

// RunChecks runs checks on b in order and returns their failures.
func RunChecks(b backend.Backend, checks []Check) []error {
	var errs []error
	for _, c := range checks {
		if err := c.Run(b); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// GroupResult is the outcome of one group of checks.
type GroupResult struct {
	Group    string
	Checks   int
	Failures []error
	Elapsed  time.Duration
}

// RunGroups runs checks on b group by group, in the order of Groups.
func RunGroups(b backend.Backend, checks []Check) []GroupResult {
	var out []GroupResult
	for _, g := range Groups {
		var in []Check
		for _, c := range checks {
			if c.Group == g {
				in = append(in, c)
			}
		}
		if len(in) == 0 {
			continue
		}
		start := time.Now()
		errs := RunChecks(b, in)
		out = append(out, GroupResult{Group: g, Checks: len(in), Failures: errs, Elapsed: time.Since(start)})
	}
	return out
}
