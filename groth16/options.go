package groth16

import (
	"crypto/rand"
	"io"
	"log/slog"
	"strings"

	gnarkbackend "github.com/consensys/gnark/backend"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/groth16/internal/core"
	"github.com/g16prover/g16/pool"
)

// Option configures NewProver, a Prover's Prove or ProveBatch, or the
// package-level Prove and ProveBatch. Each option applies to some of these
// calls, as its documentation says; given to a call it does not apply to,
// it makes the call fail with an error that names it (matching ErrInput).
// The package-level Prove and ProveBatch take the options of NewProver and
// those of the Prover's call of the same name.
type Option struct {
	name  string
	where scope
	set   func(*config) error
}

// scope is the set of calls an option applies to.
type scope uint8

const (
	atProver scope = 1 << iota // NewProver
	atProve                    // Prover.Prove
	atBatch                    // Prover.ProveBatch
)

// calls names the calls of scope s, for error messages.
func (s scope) calls() string {
	var names []string
	if s&atProver != 0 {
		names = append(names, "NewProver")
	}
	if s&atProve != 0 {
		names = append(names, "Prove")
	}
	if s&atBatch != 0 {
		names = append(names, "ProveBatch")
	}
	return strings.Join(names, ", ")
}

// config is a call's settings: NewProver's and the call's own, as each
// curve's prover takes them.
type config struct {
	core.ProverConfig
	core.CallConfig
}

// newConfig applies opts for a call named call, which accepts options of
// scope allowed.
func newConfig(call string, allowed scope, opts []Option) (*config, error) {
	c := &config{CallConfig: core.CallConfig{Rand: rand.Reader}}
	for i, o := range opts {
		if o.set == nil {
			return nil, inputErr("%s: option %d is the zero Option", call, i)
		}
		if o.where&allowed == 0 {
			return nil, inputErr("%s does not apply to %s (it applies to %s)", o.name, call, o.where.calls())
		}
		if err := o.set(c); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// option makes an Option named name for the calls of scope where; set
// validates the argument when the option is applied.
func option(name string, where scope, set func(*config) error) Option {
	return Option{name: name, where: where, set: set}
}

// optErr is a bad argument to the option named name.
func optErr(name, format string, args ...any) error { return core.OptErr(name, format, args...) }

// WithBackend runs the prover's NTTs and MSMs on b: it is
// WithBackends(b). For NewProver (and the package-level Prove and
// ProveBatch).
func WithBackend(b backend.Backend) Option {
	return option("WithBackend", atProver, func(c *config) error {
		if isNil(b) {
			return optErr("WithBackend", "nil backend")
		}
		c.Devices = []backend.Backend{b}
		return nil
	})
}

// WithBackends gives the Prover its devices, one Backend per device. A
// batch spreads over all of them; a single proof runs on the one with the
// fewest proofs in flight. The default is every GPU a cuda build sees
// (CUDA_VISIBLE_DEVICES applies), else one CPU backend; see NewProver. The
// caller keeps ownership: Close does not close them. For NewProver (and
// the package-level Prove and ProveBatch).
func WithBackends(devices ...backend.Backend) Option {
	return option("WithBackends", atProver, func(c *config) error {
		if len(devices) == 0 {
			return optErr("WithBackends", "no devices")
		}
		for i, d := range devices {
			if isNil(d) {
				return optErr("WithBackends", "device %d is nil", i)
			}
			for _, e := range devices[:i] {
				if e == d {
					return optErr("WithBackends", "%s given twice", d)
				}
			}
		}
		c.Devices = append([]backend.Backend(nil), devices...)
		return nil
	})
}

// WithDeviceKey makes the Prover use k's resident bases on k's device
// instead of uploading its own there; k must be made from the Prover's
// proving key. The Prover runs on k's device (with the other WithBackends
// devices, if given, which must include it), does not close k, and must be
// closed before k is. For NewProver (and the package-level Prove and
// ProveBatch).
func WithDeviceKey(k *DeviceKey) Option {
	return option("WithDeviceKey", atProver, func(c *config) error {
		if k == nil {
			return optErr("WithDeviceKey", "nil key")
		}
		if k.k.Closed() {
			return optErr("WithDeviceKey", "the device key on %s is closed", k.k.Backend())
		}
		c.DeviceKey = k.k
		return nil
	})
}

// WithProverOptions passes gnark prover options through: solver options
// (hints) and the hash to field for BSB22 commitments. For NewProver (and
// the package-level Prove and ProveBatch).
func WithProverOptions(opts ...gnarkbackend.ProverOption) Option {
	return option("WithProverOptions", atProver, func(c *config) error {
		if _, err := gnarkbackend.NewProverConfig(opts...); err != nil {
			return optErr("WithProverOptions", "%v", err)
		}
		c.ProverOpts = append(c.ProverOpts, opts...)
		return nil
	})
}

// WithLogger sends the Prover's log records to l: which devices it opened
// or fell back from (Info and Warn), and each proof and batch with its
// timings (Debug). The default is slog.Default(). For NewProver (and the
// package-level Prove and ProveBatch).
//
// The solver's output (a circuit's api.Println lines) goes to l too, at
// debug level; without WithLogger it is dropped. A solver logger given
// through WithProverOptions (gnark's backend.WithSolverOptions(
// solver.WithLogger(...))) takes precedence. gnark's global logger
// (package github.com/consensys/gnark/logger), which gnark's verifier
// under WithVerify and gnark's solver (PhaseTimes.SolverFallback) write
// to, is off once this package is imported; a program that wants those
// lines sets it with logger.Set.
func WithLogger(l *slog.Logger) Option {
	return option("WithLogger", atProver, func(c *config) error {
		if l == nil {
			return optErr("WithLogger", "nil logger")
		}
		c.Logger = l
		return nil
	})
}

// WithRandomness reads each proof's randomness from rd, exactly as gnark's
// prover reads crypto/rand.Reader (the default): the commitments' masks
// while solving (circuits with BSB22 commitments), then r and s. A batch
// shares rd between its partitions, in scheduling order; see
// WithBatchRandomness. For Prove and ProveBatch.
func WithRandomness(rd io.Reader) Option {
	return option("WithRandomness", atProve|atBatch, func(c *config) error {
		if rd == nil {
			return optErr("WithRandomness", "nil reader")
		}
		c.Rand = rd
		return nil
	})
}

// WithPhaseTimes calls f once each proof is assembled, with the proof's
// index in the batch (0 for Prove) and the time each phase took. f must be
// safe for concurrent use under ProveBatch. For Prove and ProveBatch.
func WithPhaseTimes(f func(partition int, t PhaseTimes)) Option {
	return option("WithPhaseTimes", atProve|atBatch, func(c *config) error {
		if f == nil {
			return optErr("WithPhaseTimes", "nil function")
		}
		c.PhaseTimes = f
		return nil
	})
}

// WithBatchRandomness gives partition i the randomness rand(i), read as
// WithRandomness says. With it, each proof is byte-identical to Prove's
// with WithRandomness(rand(i)), however the batch is scheduled. For
// ProveBatch.
func WithBatchRandomness(rand func(partition int) io.Reader) Option {
	return option("WithBatchRandomness", atBatch, func(c *config) error {
		if rand == nil {
			return optErr("WithBatchRandomness", "nil function")
		}
		c.RandFor = rand
		return nil
	})
}

// WithWorkersPerDevice sets how many solved partitions of a batch each
// device works on at once (default 2): while one computes on the device,
// another is staged (its buffers allocated and filled). Solving runs apart
// from the workers (WithSolvers). For ProveBatch.
func WithWorkersPerDevice(n int) Option {
	return option("WithWorkersPerDevice", atBatch, func(c *config) error {
		if n < 1 {
			return optErr("WithWorkersPerDevice", "%d: need at least one worker", n)
		}
		c.Workers = n
		c.PoolOpts = append(c.PoolOpts, pool.WithWorkers(n))
		return nil
	})
}

// WithMemoryBudget caps the device memory, in bytes, a batch holds on each
// device: the proving key's bases plus every partition's buffers, staged,
// running or kept for reuse. The batch never holds more; a budget too small
// for the key and one partition fails the batch before it starts, with an
// error naming this option. The default is the device's capacity less what
// is in use and a margin; under the default, a partition that cannot be
// staged still runs after the pool has trimmed its cache. For ProveBatch.
func WithMemoryBudget(bytes int64) Option {
	return option("WithMemoryBudget", atBatch, func(c *config) error {
		if bytes < 1 {
			return optErr("WithMemoryBudget", "%d: budget must be positive", bytes)
		}
		c.Budget = bytes
		c.PoolOpts = append(c.PoolOpts, pool.WithMemoryBudget(bytes))
		return nil
	})
}

// WithTrace records the batch's schedule in t: every region acquire and
// release, every Backend call, and how each partition was staged. See
// pool.Trace. For ProveBatch.
func WithTrace(t *pool.Trace) Option {
	return option("WithTrace", atBatch, func(c *config) error {
		if t == nil {
			return optErr("WithTrace", "nil trace")
		}
		c.PoolOpts = append(c.PoolOpts, pool.WithTrace(t))
		return nil
	})
}

// WithPoolOptions passes options to the scheduler (package pool), such as
// pool.WithRetry or pool.WithInstrument. For ProveBatch.
func WithPoolOptions(opts ...pool.Option) Option {
	return option("WithPoolOptions", atBatch, func(c *config) error {
		for i, o := range opts {
			if err := pool.Check(o); err != nil {
				return optErr("WithPoolOptions", "option %d: %v", i, err)
			}
		}
		c.RawPool = true
		c.PoolOpts = append(c.PoolOpts, opts...)
		return nil
	})
}
