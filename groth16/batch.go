package groth16

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	groth16bls "github.com/consensys/gnark/backend/groth16/bls12-381"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/pool"
)

// ProveBatch proves many witnesses of one circuit (partitions): it is
// NewProver, then the Prover's ProveBatch, then Close. It takes the
// options of NewProver and of Prover.ProveBatch.
func ProveBatch(ctx context.Context, ccs constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey, witnesses []witness.Witness, opts ...Option) ([]gnarkgroth16.Proof, error) {
	cfg, err := newConfig("ProveBatch", atProver|atBatch, opts)
	if err != nil {
		return nil, err
	}
	pr, err := newProverFrom(ccs, pk, &cfg.proverConfig)
	if err != nil {
		return nil, err
	}
	proofs, err := pr.proveBatch(ctx, witnesses, &cfg.callConfig)
	if cerr := pr.Close(); cerr != nil {
		err = errors.Join(err, cerr)
	}
	return proofs, err
}

// ProveBatch proves many witnesses of the Prover's circuit (partitions),
// keeping every device busy: partitions are solved on the host, several
// at once (WithSolvers), and staged on the device while others compute. proofs[i] is the proof
// of witnesses[i], byte-identical to what Prove gives for the same witness
// and randomness. Each device's key is uploaded on its first use by the
// Prover and stays there for later calls.
//
// A partition that fails leaves proofs[i] nil; the error then names every
// failed partition (a pool.Errors), and the other proofs are returned. If
// ctx is cancelled, ProveBatch stops promptly, releases the device memory
// the batch took, and returns ctx.Err(). Falling back to slower paths when
// device memory runs short is not an error. Options of ProveBatch:
// WithRandomness, WithBatchRandomness, WithPhaseTimes, WithVerify,
// WithWorkersPerDevice, WithSolvers, WithMemoryBudget, WithTrace,
// WithPoolOptions.
func (pr *Prover) ProveBatch(ctx context.Context, witnesses []witness.Witness, opts ...Option) ([]gnarkgroth16.Proof, error) {
	cfg, err := newConfig("ProveBatch", atBatch, opts)
	if err != nil {
		return nil, err
	}
	return pr.proveBatch(ctx, witnesses, &cfg.callConfig)
}

func (pr *Prover) proveBatch(ctx context.Context, witnesses []witness.Witness, cfg *callConfig) ([]gnarkgroth16.Proof, error) {
	if ctx == nil {
		return nil, inputErr("ProveBatch: nil context")
	}
	p := pr.p
	keyBytes := keyBytes(p.pk)
	if cfg.budget > 0 {
		set := p.partitionBytes()
		if keyBytes > cfg.budget || set > cfg.budget-keyBytes {
			return nil, optErr("WithMemoryBudget", "%d bytes per device cannot hold the proving key (%d bytes) and one partition's buffers (%d bytes)",
				cfg.budget, keyBytes, set)
		}
	}
	pr.run.Lock()
	defer pr.run.Unlock()
	if err := pr.enter(); err != nil {
		return nil, err
	}
	randFor := cfg.randFor
	if randFor == nil {
		shared := &lockedReader{r: cfg.rand}
		randFor = func(int) io.Reader { return shared }
	}
	jobs := make([]*batchJob, len(witnesses))
	poolJobs := make([]pool.Job[*deviceKey], len(witnesses))
	for i, w := range witnesses {
		rd := randFor(i)
		if rd == nil {
			return nil, optErr("WithBatchRandomness", "nil reader for partition %d", i)
		}
		jobs[i] = &batchJob{pr: pr, t: p.newPartition(i, w, rd), cfg: cfg}
		poolJobs[i] = jobs[i]
	}
	// The keys go to every device now, before the Run holds the devices:
	// the commitments' MSMs run during the solves (commit.go). Partition i
	// commits on device i mod len first.
	var times PhaseTimes
	commitKeys, err := pr.commitKeys(pr.devices, &times)
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
	// The pool reserves the key's bytes in each device's budget. Under
	// the default budget, a key already resident is counted in the memory
	// the device reports in use, so it is not reserved twice.
	reserve := keyBytes
	if cfg.budget == 0 && !cfg.rawPool && pr.allLoaded() {
		reserve = 0
	}
	resident := pool.Resident[*deviceKey]{
		Bytes: reserve,
		Load: func(device int, dev backend.Backend, q backend.Queue) (*deviceKey, error) {
			k, _, err := pr.devices[device].residentKey(p, dev, q)
			return k, err
		},
		// The Prover keeps its keys until Close.
		Free: func(backend.Backend, backend.Queue, *deviceKey) error { return nil },
	}
	start := time.Now()
	poolOpts := cfg.poolOpts
	if lim := p.solverLimit(); lim > 0 {
		poolOpts = append([]pool.Option{pool.WithSolverLimit(lim)}, poolOpts...)
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

// partitionBytes is the device memory of one partition's buffers, as
// bufferSizes lays them out.
func (p *prover) partitionBytes() int64 {
	s := int64(backend.ScalarBytes)
	return (3*int64(p.n) + max(1, int64(len(p.pk.G1.A))) + max(1, int64(len(p.pk.G1.B))) + max(1, int64(len(p.pk.G1.K)))) * s
}

// allLoaded reports whether every device holds the key.
func (pr *Prover) allLoaded() bool {
	for _, d := range pr.devices {
		if !d.loaded() {
			return false
		}
	}
	return true
}

// batchJob adapts one partition to the scheduler.
type batchJob struct {
	pr    *Prover
	t     *partition
	cfg   *callConfig
	proof *groth16bls.Proof // set by Finish
}

// Prepare solves the partition, unless ctx (the batch's, also cancelled
// when every device is lost) has ended, before or during the solve.
func (j *batchJob) Prepare(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := j.t.solve(); err != nil {
		return err
	}
	return ctx.Err()
}

func (j *batchJob) Buffers() []int64 { return j.t.bufferSizes() }

// Upload may run twice (a retry on another device), so the host copies
// stay until Finish.
func (j *batchJob) Upload(dev backend.Backend, q backend.Queue, bufs []backend.Buffer) error {
	return j.t.upload(dev, q, bufs, allBuffers)
}

func (j *batchJob) Compute(dev backend.Backend, q backend.Queue, key *deviceKey, bufs []backend.Buffer) error {
	return j.t.compute(dev, q, key, bufs, nil)
}

func (j *batchJob) Finish(ctx context.Context) error {
	j.t.release()
	proof, err := j.t.assemble()
	if err != nil {
		return err
	}
	if err := j.pr.check(j.cfg, j.t, proof); err != nil {
		return err
	}
	j.proof = proof
	if f := j.cfg.phaseTimes; f != nil {
		f(j.t.index, j.t.times)
	}
	return nil
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
