package pool

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
)

// noStaging sends every job through the fallback path.
func noStaging(c *config) error { c.noStaging = true; return nil }

// TestBudgetIsACap: under WithMemoryBudget the device never holds more
// than the budget, staged or on the fallback path, on a device that has
// room for much more; a budget that cannot hold the resident state fails
// the Run at once, naming the option; one that cannot hold a job fails
// each job as out of memory, naming it.
func TestBudgetIsACap(t *testing.T) {
	budget := fakeKeyBytes + fakeScratch + fakeSetSize()
	for _, tc := range []struct {
		name string
		opts []Option
	}{
		{"staging", []Option{WithWorkers(3), WithMemoryBudget(budget)}},
		{"fallback", []Option{WithWorkers(3), WithMemoryBudget(budget), noStaging}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var peak int64
			var dev *cpu.Backend
			dev = newCPU(t, 0, 0, func(op cpu.Op, size int64) error {
				if op == cpu.OpAlloc || op == cpu.OpAllocDirect {
					mu.Lock()
					peak = max(peak, dev.Memory().InUse+size)
					mu.Unlock()
				}
				return nil
			})
			jobs := newFakeJobs(6)
			if _, err := runBatch(t, context.Background(), devices(dev), jobs, &fakeResident{}, tc.opts...); err != nil {
				t.Fatal(err)
			}
			checkAllFinished(t, jobs)
			if peak > budget || peak == 0 {
				t.Fatalf("peak in use %d bytes, budget %d", peak, budget)
			}
		})
	}

	dev := newCPU(t, 0, 0, nil)
	err := Run(context.Background(), devices(dev), asJobs(newFakeJobs(1)), (&fakeResident{}).spec(), WithMemoryBudget(1))
	if err == nil || !strings.Contains(err.Error(), "WithMemoryBudget(1)") {
		t.Fatalf("budget below the resident state: want an error naming WithMemoryBudget(1), got %v", err)
	}
	small := fakeKeyBytes + fakeScratch + fakeSetSize() - 1
	err = Run(context.Background(), devices(dev), asJobs(newFakeJobs(2)), (&fakeResident{}).spec(), WithMemoryBudget(small))
	var errs Errors
	if !errors.As(err, &errs) || len(errs) != 2 || !errors.Is(err, backend.ErrOutOfMemory) || !strings.Contains(err.Error(), "WithMemoryBudget") {
		t.Fatalf("budget below one job: want both jobs out of memory naming WithMemoryBudget, got %v", err)
	}
	if m := dev.Memory(); m.InUse != 0 {
		t.Fatalf("after the failed Runs the device holds %d bytes", m.InUse)
	}
}
