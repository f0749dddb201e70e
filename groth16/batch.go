package groth16

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	groth16bls "github.com/consensys/gnark/backend/groth16/bls12-381"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/pool"
)

// batchConfig holds ProveBatch's settings.
type batchConfig struct {
	devices  []backend.Backend
	randFor  func(partition int) io.Reader
	poolOpts []pool.Option
}

// WithBackends spreads ProveBatch over the given devices, one Backend per
// device; it pins a batch to chosen devices. The default is the WithBackend
// device if one is given, else every GPU a cuda build sees
// (CUDA_VISIBLE_DEVICES applies), else one CPU backend. Partitions go to
// whichever device has a free worker.
func WithBackends(devices ...backend.Backend) Option {
	return func(c *config) error {
		if len(devices) == 0 {
			return errors.New("groth16: WithBackends: no devices")
		}
		for i, d := range devices {
			if isNil(d) {
				return fmt.Errorf("groth16: WithBackends: device %d is nil", i)
			}
			for _, e := range devices[:i] {
				if e == d {
					return fmt.Errorf("groth16: WithBackends: %s given twice", d)
				}
			}
		}
		c.batch.devices = append([]backend.Backend(nil), devices...)
		return nil
	}
}

// WithWorkersPerDevice sets how many partitions each device works on at
// once (default 2): while one computes, the next stages and a third solves.
func WithWorkersPerDevice(n int) Option {
	return withPool("WithWorkersPerDevice", pool.WithWorkers(n))
}

// WithMemoryBudget sets the device memory, in bytes, ProveBatch may hold on
// each device: the proving key's bases plus the partitions' buffers,
// staged, running or kept for reuse (default: the device's capacity less
// what is in use and a margin). A partition is staged ahead only when the
// budget admits it; a budget larger than the device really offers is safe,
// and costs fallbacks.
func WithMemoryBudget(bytes int64) Option {
	return withPool("WithMemoryBudget", pool.WithMemoryBudget(bytes))
}

// WithBatchRandomness gives partition i the randomness rand(i) (r, s and
// any commitment masks, read as gnark reads crypto/rand.Reader). With it,
// each proof is byte-identical to Prove's with WithRandomness(rand(i)),
// however the batch is scheduled. Default: crypto/rand.Reader for all; a
// WithRandomness reader is shared by all partitions, in scheduling order.
func WithBatchRandomness(rand func(partition int) io.Reader) Option {
	return func(c *config) error {
		if rand == nil {
			return errors.New("groth16: WithBatchRandomness: nil function")
		}
		c.batch.randFor = rand
		return nil
	}
}

// WithTrace records the batch's schedule in t: every region acquire and
// release, every Backend call, and how each partition was staged. See
// pool.Trace.
func WithTrace(t *pool.Trace) Option {
	return func(c *config) error {
		if t == nil {
			return errors.New("groth16: WithTrace: nil trace")
		}
		c.batch.poolOpts = append(c.batch.poolOpts, pool.WithTrace(t))
		return nil
	}
}

// WithPoolOptions passes options to the scheduler (package pool), such as
// pool.WithRetry or pool.WithInstrument.
func WithPoolOptions(opts ...pool.Option) Option {
	return func(c *config) error {
		for _, o := range opts {
			if o == nil {
				return errors.New("groth16: WithPoolOptions: nil option")
			}
		}
		c.batch.poolOpts = append(c.batch.poolOpts, opts...)
		return nil
	}
}

// withPool checks a pool option's argument when the groth16 option is made
// (as every Option does), then keeps it for the batch.
func withPool(name string, o pool.Option) Option {
	return func(c *config) error {
		if err := pool.Check(o); err != nil {
			return fmt.Errorf("groth16: %s: %w", name, err)
		}
		c.batch.poolOpts = append(c.batch.poolOpts, o)
		return nil
	}
}

// ProveBatch proves many witnesses of one circuit (partitions), keeping
// every device busy: partition k+1 is solved on the host and staged on the
// device while partition k computes. proofs[i] is the proof of
// witnesses[i], byte-identical to what Prove gives for the same witness
// and randomness.
//
// A partition that fails leaves proofs[i] nil; the error then names every
// failed partition (a pool.Errors), and the other proofs are returned. If
// ctx is cancelled, ProveBatch stops promptly, releases the device memory
// it took, and returns ctx.Err(). Falling back to slower paths when device
// memory runs short is not an error.
func ProveBatch(ctx context.Context, ccs constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey, witnesses []witness.Witness, opts ...Option) ([]gnarkgroth16.Proof, error) {
	cfg, p, err := begin(ccs, pk, opts)
	if err != nil {
		return nil, err
	}
	devices := cfg.batch.devices
	if len(devices) == 0 && cfg.backend != nil {
		devices = []backend.Backend{cfg.backend}
	}
	if len(devices) == 0 {
		opened, err := defaultDevices()
		if err != nil {
			return nil, err
		}
		defer func() {
			for _, d := range opened {
				d.Close()
			}
		}()
		devices = opened
	}
	randFor := cfg.batch.randFor
	if randFor == nil {
		shared := &lockedReader{r: cfg.rand}
		randFor = func(int) io.Reader { return shared }
	}

	jobs := make([]*batchJob, len(witnesses))
	poolJobs := make([]pool.Job[*deviceKey], len(witnesses))
	for i, w := range witnesses {
		rd := randFor(i)
		if rd == nil {
			return nil, fmt.Errorf("groth16: WithBatchRandomness: nil reader for partition %d", i)
		}
		jobs[i] = &batchJob{t: p.newPartition(i, w, rd), phaseTimes: cfg.phaseTimes}
		poolJobs[i] = jobs[i]
	}
	resident := pool.Resident[*deviceKey]{
		Bytes: keyBytes(p.pk),
		Load: func(dev backend.Backend, q backend.Queue) (*deviceKey, error) {
			return uploadKey(dev, q, p.pk, nil)
		},
		Free: func(dev backend.Backend, q backend.Queue, k *deviceKey) error {
			return k.free(dev, q)
		},
	}
	runErr := pool.Run(ctx, devices, poolJobs, resident, cfg.batch.poolOpts...)
	proofs := make([]gnarkgroth16.Proof, len(jobs))
	for i, j := range jobs {
		if j.proof != nil {
			proofs[i] = j.proof
		}
	}
	if err := ctx.Err(); err != nil {
		return proofs, err
	}
	return proofs, runErr
}

// batchJob adapts one partition to the scheduler.
type batchJob struct {
	t          *partition
	proof      *groth16bls.Proof // set by Finish
	phaseTimes func(partition int, t PhaseTimes)
}

func (j *batchJob) Prepare(ctx context.Context) error { return j.t.solve() }

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
	j.proof = proof
	if j.phaseTimes != nil {
		j.phaseTimes(j.t.index, j.t.times)
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
