package testvectors

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/g16prover/g16/backend"
)

// concurrentWorkers is how many goroutines the Concurrent group uses.
const concurrentWorkers = 4

// concurrentPicks are the vectors the Concurrent group runs at once, each
// from every worker: mid-sized work of every kind, so that operations on
// different queues overlap.
var concurrentPicks = []string{
	"NTT/n=2^10/plain/forward/DIF",
	"NTT/n=2^10/coset/inverse/DIT",
	"NTT/n=2^12/coset/forward/DIT",
	"H/n=2^10",
	"MSMG1/len=1000/random",
	"MSMG1/len=4096/edge=mostly-zero",
	"MSMG2/len=64/edge=P-negP",
	"MSMG2/len=1000/random",
}

// concurrentChecks returns the check of the Concurrent group: the picked
// vectors run from several goroutines at once, each with its own queues,
// against one backend (which the contract says is safe for concurrent
// use). A failure names the vectors that failed.
func concurrentChecks(checks []Check) []Check {
	byName := make(map[string]Check, len(checks))
	for _, c := range checks {
		byName[c.FullName()] = c
	}
	var picked []Check
	for _, name := range concurrentPicks {
		if c, ok := byName[name]; ok {
			picked = append(picked, c)
		}
	}
	if len(picked) == 0 {
		return nil
	}
	name := fmt.Sprintf("goroutines=%d/vectors=%d", concurrentWorkers, len(picked))
	return []Check{{Group: GroupConcurrent, Name: name, run: func(b backend.Backend) error {
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
	}}}
}
