package testvectors

import (
	"errors"
	"fmt"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
)

// Groups of checks, in the order the suite runs them.
const (
	GroupNTT   = "NTT"
	GroupH     = "H"
	GroupMSMG1 = "MSMG1"
	GroupMSMG2 = "MSMG2"
	GroupProof = "Proof"
	GroupCross = "Cross"
	// GroupConcurrent runs some vectors from several goroutines at once.
	GroupConcurrent = "Concurrent"
)

// Groups lists the groups in order.
var Groups = []string{GroupNTT, GroupH, GroupMSMG1, GroupMSMG2, GroupProof, GroupConcurrent, GroupCross}

// Check is one conformance check: a vector, or a cross-check against the
// CPU backend.
type Check struct {
	Group string // one of Groups
	Name  string // the vector within its group, e.g. "len=7/edge=r-1"
	// Curve is the curve of the check's values: a backend that does not
	// support it does not run it. The vectors are BLS12-381's.
	Curve ecc.ID
	run   func(b backend.Backend) error
}

// curve is c's curve, BLS12-381 when unset.
func (c Check) curve() ecc.ID {
	if c.Curve == ecc.UNKNOWN {
		return ecc.BLS12_381
	}
	return c.Curve
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

// Checks returns a check for every embedded vector, grouped and ordered
// as Groups (without the Cross group; see CrossChecks).
func Checks() ([]Check, error) {
	v, err := Load()
	if err != nil {
		return nil, err
	}
	var checks []Check
	checks = append(checks, nttChecks(v.NTT)...)
	checks = append(checks, hChecks(v.H)...)
	checks = append(checks, msmG1.checks(v.MSMG1)...)
	checks = append(checks, msmG2.checks(v.MSMG2)...)
	checks = append(checks, proofChecks(v.Proofs)...)
	checks = append(checks, concurrentChecks(checks)...)
	return checks, nil
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

// device runs one check's work on a backend: a queue, and buffers freed
// at the end.
type device struct {
	b    backend.Backend
	q    backend.Queue
	bufs []backend.Buffer
}

func open(b backend.Backend) (*device, error) {
	q, err := b.NewQueue()
	if err != nil {
		return nil, fmt.Errorf("NewQueue: %w", err)
	}
	return &device{b: b, q: q}, nil
}

// close frees the buffers and the queue; it reports the first error, or
// err if that is not nil.
func (d *device) close(err error) error {
	for _, buf := range d.bufs {
		if e := d.b.Free(d.q, buf); e != nil && err == nil {
			err = fmt.Errorf("Free: %w", e)
		}
	}
	if e := d.q.Close(); e != nil && err == nil {
		err = fmt.Errorf("queue: %w", e)
	}
	return err
}

// upload copies data to a new buffer (of one byte if data is empty: an
// MSM of length 0 still passes buffers).
func (d *device) upload(data []byte) (backend.Buffer, error) {
	size := max(int64(len(data)), 1)
	buf, err := d.b.Alloc(d.q, size)
	if err != nil {
		return nil, fmt.Errorf("Alloc(%d): %w", size, err)
	}
	d.bufs = append(d.bufs, buf)
	if len(data) > 0 {
		if err := d.b.Upload(d.q, buf, 0, data); err != nil {
			return nil, fmt.Errorf("Upload: %w", err)
		}
	}
	return buf, nil
}

func (d *device) download(buf backend.Buffer, n int) ([]fr.Element, error) {
	out := make([]fr.Element, n)
	if err := d.b.Download(d.q, backend.AsBytes(out), buf, 0); err != nil {
		return nil, fmt.Errorf("Download: %w", err)
	}
	if err := d.q.Wait(); err != nil {
		return nil, fmt.Errorf("queue: %w", err)
	}
	return out, nil
}

// compareElements explains how got differs from want, or returns nil.
func compareElements(got, want []fr.Element) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d elements, want %d", len(got), len(want))
	}
	first, count := -1, 0
	for i := range got {
		if got[i] != want[i] {
			if first < 0 {
				first = i
			}
			count++
		}
	}
	if count == 0 {
		return nil
	}
	msg := fmt.Sprintf("%d of %d elements differ; first at index %d: got %s, want %s",
		count, len(got), first, hexLimbs(got[first][:]), hexLimbs(want[first][:]))
	if hint := orderHint(got, want); hint != "" {
		msg += " (" + hint + ")"
	}
	return errors.New(msg)
}

// orderHint recognises the usual NTT mistakes: the right values in the
// other memory order, or the transform of the other direction.
func orderHint(got, want []fr.Element) string {
	n := len(got)
	if n < 4 || n&(n-1) != 0 {
		return ""
	}
	logN := 0
	for 1<<logN < n {
		logN++
	}
	for i := range got {
		if got[i] != want[bitReverse(i, logN)] {
			return ""
		}
	}
	return "the output is the expected one in bit-reversed order: input or output order swapped"
}

func bitReverse(i, logN int) int {
	r := 0
	for range logN {
		r = r<<1 | i&1
		i >>= 1
	}
	return r
}

// bitReversed returns a bit-reversed copy of v (len(v) a power of two).
func bitReversed(v []fr.Element) []fr.Element {
	logN := 0
	for 1<<logN < len(v) {
		logN++
	}
	out := make([]fr.Element, len(v))
	for i := range v {
		out[bitReverse(i, logN)] = v[i]
	}
	return out
}

// hexLimbs prints raw limbs, most significant first, as they sit in memory
// (Montgomery form).
func hexLimbs(l []uint64) string {
	s := "0x"
	for i := len(l) - 1; i >= 0; i-- {
		s += fmt.Sprintf("%016x", l[i])
	}
	return s
}

func g1String(p *bls12381.G1Affine) string {
	if p.IsInfinity() {
		return "infinity"
	}
	return fmt.Sprintf("(x=%s, y=%s)", p.X.String(), p.Y.String())
}

func g2String(p *bls12381.G2Affine) string {
	if p.IsInfinity() {
		return "infinity"
	}
	return fmt.Sprintf("(x=%s, y=%s)", p.X.String(), p.Y.String())
}
