package groth16

import (
	"context"
	"errors"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/groth16/internal/core"
)

// Prover proves witnesses of one circuit with one proving key, for as long
// as it lives. It holds the prepared circuit, its devices and the key's
// bases resident on each device (uploaded on a device's first proof, kept
// until Close), so that a stream of proofs or batches pays for them once.
// It also keeps the host vectors of finished proofs (the wire values W and
// the constraint evaluations a, b and c, about 16 GiB a proof at 2^27
// constraints), which its next proofs fill instead of allocating: an idle
// Prover holds as many sets as its last call (or calls running together)
// had proofs in flight at once, and Close frees them. Its host-memory
// planning counts them as available to its own proofs; when a Prover's
// planning finds the host short, the vectors of every other Prover that
// runs no call are dropped and their pages returned to the host.
//
// A Prover is safe for concurrent use. Prove calls run side by side (each
// on the device with the fewest proofs in flight); a ProveBatch has the
// devices to itself: it waits for running proofs, and later calls wait for
// it.
type Prover struct {
	p core.Prover // the prover of the circuit's curve
}

// NewProver checks ccs and pk and prepares what every proof shares.
//
// ccs must be an R1CS over a curve g16 proves on (BLS12-381, BN254, BLS12-377 or BW6-761) and
// pk the Groth16 key gnark's Setup made for it. The devices are those of
// WithBackends or WithBackend, which must compute on that curve; with
// neither, NewProver opens every GPU a cuda build sees whose kernels prove
// over the curve, or else one CPU backend (saying why through the logger),
// and Close closes them. Options of NewProver: WithBackend, WithBackends,
// WithDeviceKey, WithProverOptions, WithLogger.
func NewProver(ccs constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey, opts ...Option) (*Prover, error) {
	cfg, err := newConfig("NewProver", atProver, opts)
	if err != nil {
		return nil, err
	}
	return newProver(ccs, pk, &cfg.ProverConfig)
}

func newProver(ccs constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey, cfg *core.ProverConfig) (*Prover, error) {
	e, err := engineFor(ccs, pk)
	if err != nil {
		return nil, err
	}
	p, err := e.NewProver(ccs, pk, cfg)
	if err != nil {
		return nil, err
	}
	return &Prover{p: p}, nil
}

// Devices lists the Prover's devices.
func (pr *Prover) Devices() []backend.Backend { return pr.p.Devices() }

// Close frees the keys the Prover uploaded, drops the host vectors it
// kept, trims each device's memory pool back to what it cached at
// NewProver, and closes the devices it opened. It waits for running calls; later calls fail with an error
// matching backend.ErrClosed. Closing twice is not an error.
func (pr *Prover) Close() error { return pr.p.Close() }

// SolverFallback says why gnark's solver solves the witnesses of pr's
// circuit, or "" when g16's own solver does. g16's solver has read what it
// needs of the R1CS's Levels (gnark's solving order) in NewProver: once
// every Prover of a circuit is made, only gnark's solver and prover read
// them.
func (pr *Prover) SolverFallback() string { return pr.p.SolverFallback() }

// Prove proves that w satisfies the Prover's circuit, on one of its
// devices, with the key resident there.
//
// w is a full (public and secret) witness. The proof is gnark's type,
// accepted by gnark's groth16.Verify; with the same randomness it is
// byte-identical to gnark's groth16.Prove output. Bad input returns an
// error matching ErrInput, a witness that does not satisfy the circuit too
// (the solver's error, which names the constraint, wrapped). If ctx ends
// first, Prove returns ctx.Err() at the next stage boundary. Options of
// Prove: WithRandomness, WithPhaseTimes, WithProofDone, WithVerify.
func (pr *Prover) Prove(ctx context.Context, w witness.Witness, opts ...Option) (gnarkgroth16.Proof, error) {
	cfg, err := newConfig("Prove", atProve, opts)
	if err != nil {
		return nil, err
	}
	return pr.p.Prove(ctx, w, &cfg.CallConfig)
}

// ProveBatch proves many witnesses of the Prover's circuit (partitions),
// keeping every device busy: partitions are solved on the host, several
// at once (WithSolvers), and staged on the device while others compute.
// proofs[i] is the proof of witnesses[i], byte-identical to what Prove
// gives for the same witness and randomness. Each device's key is uploaded
// on its first use by the Prover and stays there for later calls.
//
// A partition that fails leaves proofs[i] nil; the error then names every
// failed partition (a pool.Errors), and the other proofs are returned. If
// ctx is cancelled, ProveBatch stops promptly, releases the device memory
// the batch took, and returns ctx.Err(). Falling back to slower paths when
// device memory runs short is not an error. Options of ProveBatch:
// WithRandomness, WithBatchRandomness, WithPhaseTimes, WithProofDone, WithVerify,
// WithWorkersPerDevice, WithSolvers, WithMemoryBudget, WithTrace,
// WithPoolOptions.
func (pr *Prover) ProveBatch(ctx context.Context, witnesses []witness.Witness, opts ...Option) ([]gnarkgroth16.Proof, error) {
	cfg, err := newConfig("ProveBatch", atBatch, opts)
	if err != nil {
		return nil, err
	}
	return pr.p.ProveBatch(ctx, witnesses, &cfg.CallConfig)
}

// Prove proves that fullWitness satisfies ccs, with the proving key pk: it
// is NewProver, then the Prover's Prove, then Close, except that the
// circuit's prepared solver is kept for the next Prove or ProveBatch of the
// same ccs (the last four systems; ReleasePrepared drops them). For more
// than one proof, a Prover also keeps the key on the device between them.
//
// ccs must be an R1CS over a curve g16 proves on (BLS12-381, BN254, BLS12-377 or BW6-761), pk
// the Groth16 key gnark's Setup made for it, fullWitness its full (public
// and secret) witness. The proof is gnark's type, accepted by gnark's
// groth16.Verify; with the same randomness it is byte-identical to gnark's
// groth16.Prove output.
//
// Bad input returns an error matching ErrInput, a witness that does not
// satisfy the circuit too (the solver's error, which names the constraint,
// wrapped). Prove takes the options of NewProver and of Prover.Prove.
func Prove(ccs constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey, fullWitness witness.Witness, opts ...Option) (gnarkgroth16.Proof, error) {
	cfg, err := newConfig("Prove", atProver|atProve, opts)
	if err != nil {
		return nil, err
	}
	cfg.Prepared = true
	pr, err := newProver(ccs, pk, &cfg.ProverConfig)
	if err != nil {
		return nil, err
	}
	proof, err := pr.p.Prove(context.Background(), fullWitness, &cfg.CallConfig)
	if cerr := pr.Close(); err == nil && cerr != nil {
		return nil, cerr
	}
	return proof, err
}

// ProveBatch proves many witnesses of one circuit (partitions): it is
// NewProver, then the Prover's ProveBatch, then Close, with the circuit's
// prepared solver kept for the next call as Prove keeps it. It takes the
// options of NewProver and of Prover.ProveBatch.
func ProveBatch(ctx context.Context, ccs constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey, witnesses []witness.Witness, opts ...Option) ([]gnarkgroth16.Proof, error) {
	cfg, err := newConfig("ProveBatch", atProver|atBatch, opts)
	if err != nil {
		return nil, err
	}
	cfg.Prepared = true
	pr, err := newProver(ccs, pk, &cfg.ProverConfig)
	if err != nil {
		return nil, err
	}
	proofs, err := pr.p.ProveBatch(ctx, witnesses, &cfg.CallConfig)
	if cerr := pr.Close(); cerr != nil {
		err = errors.Join(err, cerr)
	}
	return proofs, err
}
