package pool

import (
	"context"

	"github.com/g16prover/g16/backend"
)

// Job is one unit of a batch: one partition's proof. K is the type of the
// per-device resident state (see Resident) that Buffers, Upload and
// Compute receive: the state of the device they run on.
//
// The pool calls Prepare once, then Buffers, Upload and Compute on one
// device (again on another device if the first attempt failed there and
// retries are on), then Finish once. A job is driven by one goroutine at a
// time.
type Job[K any] interface {
	// Prepare does the host work that must precede the device work
	// (solving the circuit). It runs on one of the Run's solvers, outside
	// every device region, while other jobs compute (solve.go).
	Prepare(ctx context.Context) error
	// Buffers gives the byte sizes of the device buffers the job needs on
	// a device holding res (a proving key streamed rather than resident
	// needs fewer).
	Buffers(res K) []int64
	// Upload fills bufs, which have the sizes Buffers(res) gave. It runs
	// in the staging region, or in the compute region on the fallback
	// path.
	Upload(dev backend.Backend, q backend.Queue, res K, bufs []backend.Buffer) error
	// Compute runs the device work on bufs after Upload, inside the compute
	// region. The pool waits for q after it returns.
	Compute(dev backend.Backend, q backend.Queue, res K, bufs []backend.Buffer) error
	// Finish does the host work that follows (assembling the proof). It
	// runs outside every device region.
	Finish(ctx context.Context) error
}

// Resident describes state kept on each device for the whole Run, such as
// the proving key's bases: loaded on a device before its first Compute
// (inside the compute region) and freed when the Run ends. The zero value
// means no resident state; Compute then receives K's zero value.
type Resident[K any] struct {
	// Name says what the state is, for the trace (e.g. "key resident").
	Name string
	// Bytes is the device memory Load takes. It is reserved in every
	// device's budget from the start.
	Bytes int64
	// Scratch is the device memory one job's Compute takes beyond its
	// buffers while it runs (the kernels' scratch, at its peak). One job
	// computes on a device at a time, so it is reserved once per device,
	// from the start, beside Bytes.
	Scratch int64
	// Load uploads the state to dev, which is Run's devices[device] (or
	// the wrapper WithInstrument makes of it).
	Load func(device int, dev backend.Backend, q backend.Queue) (K, error)
	// Free releases what Load took.
	Free func(dev backend.Backend, q backend.Queue, k K) error

	// Fit, when set, chooses the state for one device, Run's
	// devices[device], from the budget the Run gives it (0: unlimited), once per device before any job runs; its
	// result (whose Fit is ignored) replaces this Resident there. A Fit
	// that fails fails the Run before any job is prepared: use it to refuse
	// work that cannot fit at all.
	Fit func(device int, dev backend.Backend, budget int64) (Resident[K], error)
}
