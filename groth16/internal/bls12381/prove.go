package bls12381

import (
	"context"
	"errors"
	"time"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/groth16/internal/core"
)

// Prove proves w on one of the Prover's devices (package groth16's
// Prover.Prove).
func (pr *Prover) Prove(ctx context.Context, w witness.Witness, cfg *core.CallConfig) (gnarkgroth16.Proof, error) {
	if ctx == nil {
		return nil, inputErr("Prove: nil context")
	}
	pr.run.RLock()
	defer pr.run.RUnlock()
	if err := pr.enter(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d, done := pr.pick()
	defer done()
	// The call runs from its plan on: its list is not another Prover's to
	// drop (vectorList.reclaimOthers).
	var t *partition
	pr.vectors.begin()
	defer func() { pr.vectors.end(t) }()
	// The plan first: a proof that cannot fit fails before solving.
	if err := pr.fits([]*proverDevice{d}, 0); err != nil {
		return nil, err
	}
	t = pr.p.newPartition(w, cfg.Rand)
	t.vectors = pr.vectors
	var err error
	if t.commitKeys, err = pr.commitKeys([]*proverDevice{d}, &t.times, 0); err != nil {
		return nil, err
	}
	j := &job{pr: pr, t: t, cfg: cfg, late: true}
	if err := j.Prepare(ctx); err != nil {
		return nil, err
	}
	if err := pr.onDevice(ctx, d, j); err != nil {
		return nil, err
	}
	if err := j.Finish(ctx); err != nil {
		return nil, err
	}
	pr.log.Debug("groth16: proof", "device", d.dev.String(), "times", t.times)
	return j.proof, nil
}

// onDevice runs j's device stages on d, as the scheduler runs a batch's
// on its devices: with the key resident there (uploaded now if this is
// d's first proof), j's buffers allocated, then its Upload and Compute.
// Every buffer it allocates is freed before it returns.
func (pr *Prover) onDevice(ctx context.Context, d *proverDevice, j *job) (err error) {
	t := j.t
	dev := d.dev
	q, err := dev.NewQueue()
	if err != nil {
		return t.errorf("%w", err)
	}
	defer func() { err = errors.Join(err, q.Close()) }()
	start := time.Now()
	key, uploaded, err := d.residentKey(t.p, dev, q, 0)
	if err != nil {
		return err
	}
	if uploaded {
		t.times.Upload += time.Since(start)
	}
	sizes := j.Buffers(key)
	bufs := make([]backend.Buffer, 0, len(sizes))
	defer func() {
		for _, b := range bufs {
			err = errors.Join(err, dev.Free(q, b))
		}
	}()
	for _, size := range sizes {
		b, err := dev.Alloc(q, size)
		if err != nil {
			return t.errorf("%w", err)
		}
		bufs = append(bufs, b)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := j.Upload(dev, q, key, bufs); err != nil {
		return err
	}
	return j.Compute(dev, q, key, bufs)
}
