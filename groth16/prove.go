package groth16

import (
	"context"
	"errors"
	"time"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"

	"github.com/g16prover/g16/backend"
)

// Prove proves that fullWitness satisfies ccs, with the proving key pk: it
// is NewProver, then the Prover's Prove, then Close, except that the
// circuit's prepared solver is kept for the next Prove or ProveBatch of the
// same ccs (the last four systems; ReleasePrepared drops them). For more
// than one proof, a Prover also keeps the key on the device between them.
//
// ccs must be a BLS12-381 R1CS, pk the Groth16 key gnark's Setup made for
// it, fullWitness its full (public and secret) witness. The proof is
// gnark's type, accepted by gnark's groth16.Verify; with the same
// randomness it is byte-identical to gnark's groth16.Prove output.
//
// Bad input returns an error matching ErrInput, a witness that does not
// satisfy the circuit too (the solver's error, which names the constraint,
// wrapped). Prove takes the options of NewProver and of Prover.Prove.
func Prove(ccs constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey, fullWitness witness.Witness, opts ...Option) (gnarkgroth16.Proof, error) {
	cfg, err := newConfig("Prove", atProver|atProve, opts)
	if err != nil {
		return nil, err
	}
	cfg.prepared = true
	pr, err := newProverFrom(ccs, pk, &cfg.proverConfig)
	if err != nil {
		return nil, err
	}
	proof, err := pr.prove(context.Background(), fullWitness, &cfg.callConfig)
	if cerr := pr.Close(); err == nil && cerr != nil {
		return nil, cerr
	}
	return proof, err
}

func (pr *Prover) prove(ctx context.Context, w witness.Witness, cfg *callConfig) (gnarkgroth16.Proof, error) {
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
	// The plan first: a proof that cannot fit fails before solving.
	if err := pr.fits([]*proverDevice{d}, 0); err != nil {
		return nil, err
	}
	t := pr.p.newPartition(w, cfg.rand)
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
