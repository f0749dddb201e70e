package pool

import (
	"errors"
	"fmt"

	"github.com/g16prover/g16/backend"
)

// Option configures a Run.
type Option func(*config) error

type config struct {
	workers     int
	solvers     int   // WithSolvers; 0: adaptive (solve.go)
	solverLimit int   // WithSolverLimit; 0: none beyond the default
	hostSlots   int   // WithHostSlots; 0: unbounded
	budget      int64 // per device; 0: the default
	trace       *Trace
	retry       bool
	instrument  func(backend.Backend, *Worker) backend.Backend

	// Faults planted by this package's tests, to show that its checks
	// catch a scheduler that breaks the rules.
	noTrim        bool // the fallback skips TrimPool before AllocDirect
	syncInStaging bool // staging calls Sync
	evictDirect   bool // staging frees idle sets from AllocDirect too

	// noStaging sends every job through the fallback path (tests).
	noStaging bool
}

func defaultConfig() config {
	return config{workers: 2, retry: true}
}

// WithWorkers sets how many workers each device runs (default 2).
func WithWorkers(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("pool: WithWorkers(%d): need at least one worker", n)
		}
		c.workers = n
		return nil
	}
}

// WithSolvers sets how many jobs are prepared (Job.Prepare: solving the
// circuit) at once, over all devices, independently of WithWorkers. The
// default adapts to the measured prepare and compute times, up to a
// quarter of the host's CPUs and at least 2 (see WithSolverLimit).
func WithSolvers(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("pool: WithSolvers(%d): need at least one solver", n)
		}
		c.solvers = n
		return nil
	}
}

// WithSolverLimit bounds the adaptive solving concurrency (the default of
// WithSolvers) to n, for instance by the host memory a prepared job holds.
// Without it the bound is a quarter of the host's CPUs (at least 2:
// concurrent solves share the cores), or the Run's device workers when
// a device computes on the host's cores (backend.HostBound).
func WithSolverLimit(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("pool: WithSolverLimit(%d): need at least one solver", n)
		}
		c.solverLimit = n
		return nil
	}
}

// WithHostSlots bounds how many jobs hold their host state at once to n:
// a job takes one of n slots when its Prepare starts and gives it back when
// it has finished (Finish returned) or failed, a retry on another device
// keeping it. A solver waits for a slot before it prepares, so that the
// host memory of prepared jobs (a solved partition's vectors) is bounded
// whatever the workers, the ready list and the solving concurrency would
// hold; the Run takes longer when n is small, never fails for it. Default:
// unbounded (the workers, the ready list and the solvers bound it).
func WithHostSlots(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("pool: WithHostSlots(%d): need at least one slot", n)
		}
		c.hostSlots = n
		return nil
	}
}

// WithMemoryBudget caps the bytes each device may hold for the Run: the
// resident state plus every set of job buffers, staged, running or kept for
// reuse. A set budget is never exceeded: a job that does not fit waits for
// others to release memory, and fails (matching backend.ErrOutOfMemory)
// when none will. The default budget is the device's capacity, less what
// is in use when the Run starts, less a margin of 1/16 (at most 1 GiB);
// unlimited when the device reports no capacity. The default only bounds
// staging: the fallback may trim the pool and allocate past it.
func WithMemoryBudget(bytes int64) Option {
	return func(c *config) error {
		if bytes < 1 {
			return fmt.Errorf("pool: WithMemoryBudget(%d): budget must be positive", bytes)
		}
		c.budget = bytes
		return nil
	}
}

// WithTrace records the Run in t.
func WithTrace(t *Trace) Option {
	return func(c *config) error {
		c.trace = t
		return nil
	}
}

// WithRetry sets whether a job whose device work failed is retried, once,
// on another device (default true; there is no retry with one device).
func WithRetry(on bool) Option {
	return func(c *config) error {
		c.retry = on
		return nil
	}
}

// WithInstrument wraps the Backend each worker uses: every call the worker
// makes, the pool's own and its jobs', goes through f's result. w tells the
// wrapper which regions the worker holds at the time of each call. For
// tests and diagnostics.
func WithInstrument(f func(dev backend.Backend, w *Worker) backend.Backend) Option {
	return func(c *config) error {
		c.instrument = f
		return nil
	}
}

// Check reports the error an option would give, so that wrappers can
// validate arguments when they are given rather than when Run starts.
func Check(o Option) error {
	if o == nil {
		return errors.New("pool: nil Option")
	}
	c := defaultConfig()
	return o(&c)
}
