package bls12381

import (
	"context"
	"io"
	"sync"
	"time"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/groth16/internal/core"
	"github.com/g16prover/g16/pool"
	wsolver "github.com/g16prover/g16/solver/bls12381"
)

// ProveBatch proves many witnesses of the Prover's circuit (partitions),
// keeping every device busy: partitions are solved on the host, several
// at once (WithSolvers), and staged on the device while others compute.
// How many partitions hold their solved vectors at once is bounded by the
// host memory available when the batch starts (planHost): solves wait for
// room, so a large batch runs slower rather than out of memory. proofs[i] is the proof
// of witnesses[i], byte-identical to what Prove gives for the same witness
// and randomness. Each device's key is uploaded on its first use by the
// Prover and stays there for later calls.
//
// A partition that fails leaves proofs[i] nil; the error then names every
// failed partition (a pool.Errors), and the other proofs are returned. If
// ctx is cancelled, ProveBatch stops promptly, releases the device memory
// the batch took, and returns ctx.Err(). Falling back to slower paths when
// device memory runs short is not an error. Options of ProveBatch:
// WithRandomness, WithBatchRandomness, WithPhaseTimes, WithProofDone, WithVerify,
// WithWorkersPerDevice, WithSolvers, WithMemoryBudget, WithTrace,
// WithPoolOptions.
func (pr *Prover) ProveBatch(ctx context.Context, witnesses []witness.Witness, cfg *core.CallConfig) ([]gnarkgroth16.Proof, error) {
	if ctx == nil {
		return nil, inputErr("ProveBatch: nil context")
	}
	p := pr.p
	pr.run.Lock()
	defer pr.run.Unlock()
	if err := pr.enter(); err != nil {
		return nil, err
	}
	// The call runs from its plan on: its list is not another Prover's to
	// drop (vectorList.reclaimOthers).
	var parts []*partition
	pr.vectors.begin()
	defer func() { pr.vectors.end(parts...) }()
	// Each device's plan (choosePlan) before anything is solved: a batch
	// that cannot fit fails at once.
	if err := pr.fits(pr.devices, cfg.Budget); err != nil {
		return nil, err
	}
	// How many partitions hold their host vectors at once, from the host
	// memory available now; a batch where not even one fits fails here.
	workers := cfg.Workers
	if workers == 0 {
		workers = 2 // the pool's default
	}
	host, err := pr.planHost(cfg.Budget, workers, len(witnesses))
	if err != nil {
		return nil, err
	}
	randFor := cfg.RandFor
	if randFor == nil {
		shared := &lockedReader{r: cfg.Rand}
		randFor = func(int) io.Reader { return shared }
	}
	jobs := make([]*job, len(witnesses))
	poolJobs := make([]pool.Job[*deviceKey], len(witnesses))
	parts = make([]*partition, 0, len(witnesses))
	for i, w := range witnesses {
		rd := randFor(i)
		if rd == nil {
			return nil, optErr("WithBatchRandomness", "nil reader for partition %d", i)
		}
		jobs[i] = &job{pr: pr, t: p.newBatchPartition(i, w, rd), cfg: cfg}
		jobs[i].t.vectors = pr.vectors
		parts = append(parts, jobs[i].t)
		poolJobs[i] = jobs[i]
	}
	// The keys go to every device now, before the Run holds the devices:
	// the commitments' MSMs run during the solves (commit.go). Partition i
	// commits on device i mod len first.
	var times PhaseTimes
	commitKeys, err := pr.commitKeys(pr.devices, &times, cfg.Budget)
	if err != nil {
		return nil, err
	}
	if n := len(commitKeys); n > 0 {
		pr.log.Debug("groth16: batch: commitment bases on every device", "upload", times.Upload)
		for i, j := range jobs {
			j.t.commitKeys = append(append(make([]*commitKey, 0, n), commitKeys[i%n:]...), commitKeys[:i%n]...)
		}
	}

	devices := pr.Devices()
	resident := pool.Resident[*deviceKey]{Fit: func(device int, dev backend.Backend, budget int64) (pool.Resident[*deviceKey], error) {
		return pr.residentFor(device, cfg, budget)
	}}
	start := time.Now()
	poolOpts := cfg.PoolOpts
	pr.log.Debug("groth16: batch: host memory", "slots", host.slots, "plan", host.String())
	if host.slots > 0 {
		// The caller's pool options come after and override it.
		poolOpts = append([]pool.Option{pool.WithHostSlots(host.slots)}, poolOpts...)
	}
	if len(jobs) > 1 {
		// Partitions upload and compute while others solve: the solves'
		// waits leave those threads the cores.
		defer wsolver.Beside()()
	}
	runErr := pool.Run(ctx, devices, poolJobs, resident, poolOpts...)
	proofs := make([]gnarkgroth16.Proof, len(jobs))
	done := 0
	for i, j := range jobs {
		if j.proof != nil {
			proofs[i] = j.proof
			done++
		}
	}
	pr.log.Debug("groth16: batch", "partitions", len(jobs), "proved", done, "devices", len(devices), "wall", time.Since(start))
	if err := ctx.Err(); err != nil {
		return proofs, err
	}
	return proofs, runErr
}

// residentFor is the key as device holds it for a batch: the plan the
// device's key already has, or the one that fits the budget the pool
// gives it (choosePlan), with the plan's bytes and scratch for the pool to
// count. Under the default budget, a key already resident is counted in
// the memory the device reports in use, so its bytes are not reserved
// twice.
func (pr *Prover) residentFor(device int, cfg *core.CallConfig, budget int64) (pool.Resident[*deviceKey], error) {
	d := pr.devices[device]
	pl, err := d.planFor(pr.p, budget)
	if err != nil {
		return pool.Resident[*deviceKey]{}, err
	}
	reserve := pl.bytes
	if cfg.Budget == 0 && !cfg.RawPool && d.loaded() {
		reserve = 0
	}
	return pool.Resident[*deviceKey]{
		Name:    pl.String(),
		Bytes:   reserve,
		Scratch: pl.scratch,
		Load: func(device int, dev backend.Backend, q backend.Queue) (*deviceKey, error) {
			k, _, err := pr.devices[device].residentKey(pr.p, dev, q, budget)
			return k, err
		},
		// The Prover keeps its keys until Close.
		Free: func(backend.Backend, backend.Queue, *deviceKey) error { return nil },
	}, nil
}

// lockedReader lets partitions share one randomness source.
type lockedReader struct {
	mu sync.Mutex
	r  io.Reader
}

func (l *lockedReader) Read(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Read(p)
}
