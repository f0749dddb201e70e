package groth16

import (
	"context"
	"errors"
	"fmt"
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
// Bad input returns an error matching ErrInput; a witness that does not
// satisfy the circuit returns the solver's error, which names the
// constraint. Prove takes the options of NewProver and of Prover.Prove.
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

// proveOnDevice uploads sol's values and runs t's device work on d, with
// the key resident there (uploaded now if this is d's first proof), and
// returns the MSMs' results. Every buffer it allocates for t is freed
// before it returns.
func (pr *Prover) proveOnDevice(ctx context.Context, d *proverDevice, t *partition, sol *solution) (res *msmResults, err error) {
	dev := d.dev
	q, err := dev.NewQueue()
	if err != nil {
		return nil, fmt.Errorf("groth16: %w", err)
	}
	defer func() { err = errors.Join(err, q.Close()) }()
	start := time.Now()
	key, uploaded, err := d.residentKey(t.p, dev, q, 0)
	if err != nil {
		return nil, err
	}
	if uploaded {
		t.times.Upload += time.Since(start)
	}
	lay := layOut(t.p.pk, key)
	bufs := make([]backend.Buffer, 0, nbBuffers)
	defer func() {
		for _, b := range bufs {
			err = errors.Join(err, dev.Free(q, b))
		}
	}()
	for _, size := range lay.sizes {
		b, err := dev.Alloc(q, size)
		if err != nil {
			return nil, fmt.Errorf("groth16: partition %d: %w", t.index, err)
		}
		bufs = append(bufs, b)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// compute uploads the buffers, each wire vector just before its MSMs
	// start; with a streamed key the wire values stream with the bases.
	res, err = t.compute(dev, q, key, bufs, lay, sol, lay.uploads())
	sol.release()
	return res, err
}
