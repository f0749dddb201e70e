package testvectors

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
)

// concurrentWorkers is how many goroutines the Concurrent group uses.
const concurrentWorkers = 4

// concurrentPicks are the vectors the Concurrent group runs at once on
// each curve (those of them the curve's files hold), each from every
// worker: mid-sized work of every kind, so that operations on different
// queues overlap. A pick is a group and a name within the curve's vectors.
var concurrentPicks = [][2]string{
	{GroupNTT, "n=2^10/plain/forward/DIF"},
	{GroupNTT, "n=2^10/coset/inverse/DIT"},
	{GroupNTT, "n=2^12/coset/forward/DIT"},
	{GroupH, "n=2^10"},
	{GroupH, "n=2^8"},
	{GroupMSMG1, "len=1000/random"},
	{GroupMSMG1, "len=4096/edge=mostly-zero"},
	{GroupMSMG1, "len=1027/edge=mostly-zero"},
	{GroupMSMG2, "len=64/edge=P-negP"},
	{GroupMSMG2, "len=1000/random"},
}

// concurrentChecks returns the checks of the Concurrent group, one a
// curve: the picked vectors run from several goroutines at once, each
// with its own queues, against one backend (which the contract says is
// safe for concurrent use). A failure names the vectors that failed.
func concurrentChecks(checks []Check) []Check {
	byName := make(map[string]Check, len(checks))
	for _, c := range checks {
		byName[c.FullName()] = c
	}
	var out []Check
	for _, id := range curve.Supported() {
		var picked []Check
		for _, p := range concurrentPicks {
			if c, ok := byName[p[0]+"/"+curve.Name(id)+"/"+p[1]]; ok {
				picked = append(picked, c)
			}
		}
		if len(picked) > 0 {
			out = append(out, concurrentCheck(id, picked))
		}
	}
	return out
}

// concurrentCheck runs picked, vectors of curve id, from several
// goroutines at once.
func concurrentCheck(id ecc.ID, picked []Check) Check {
	name := fmt.Sprintf("goroutines=%d/vectors=%d", concurrentWorkers, len(picked))
	return Check{Group: GroupConcurrent, Name: curve.Name(id) + "/" + name, Curve: id, run: func(b backend.Backend) error {
		var wg sync.WaitGroup
		errs := make([][]error, concurrentWorkers)
		for w := range concurrentWorkers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// Each worker starts at a different vector, so that
				// different kinds of work overlap.
				for i := range picked {
					c := picked[(i+w)%len(picked)]
					if err := c.Run(b); err != nil {
						errs[w] = append(errs[w], fmt.Errorf("worker %d: %w", w, err))
					}
				}
			}()
		}
		wg.Wait()
		var all []error
		for _, e := range errs {
			all = append(all, e...)
		}
		if len(all) == 0 {
			return nil
		}
		var names []string
		seen := make(map[string]bool)
		for _, e := range all {
			var f *Failure
			if errors.As(e, &f) && !seen[f.Check] {
				seen[f.Check] = true
				names = append(names, f.Check)
			}
		}
		return fmt.Errorf("%d of %d runs failed, of %s; the first: %w", len(all), concurrentWorkers*len(picked), strings.Join(names, ", "), all[0])
	}}
}
