package groth16

import (
	"errors"
	"fmt"
	"time"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
)

// Prove proves that fullWitness satisfies ccs, with the proving key pk.
//
// ccs must be a BLS12-381 R1CS, pk the Groth16 key gnark's Setup made for
// it, fullWitness its full (public and secret) witness. The proof is
// gnark's type, accepted by gnark's groth16.Verify; with the same
// randomness it is byte-identical to gnark's groth16.Prove output.
//
// Bad input returns an error matching ErrInput; a witness that does not
// satisfy the circuit returns the solver's error, which names the
// constraint.
func Prove(ccs constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey, fullWitness witness.Witness, opts ...Option) (gnarkgroth16.Proof, error) {
	cfg, p, err := begin(ccs, pk, opts)
	if err != nil {
		return nil, err
	}
	dev := cfg.backend
	var resident *deviceKey
	if k := cfg.deviceKey; k != nil {
		if k.pk != p.pk {
			return nil, inputErr("WithDeviceKey: the device key was made from another proving key")
		}
		if dev == nil {
			dev = k.dev
		}
		if dev != k.dev {
			return nil, inputErr("WithDeviceKey: the device key lives on %s, the proof runs on %s", k.dev, dev)
		}
		resident = k.key
	}
	if dev == nil {
		dev = cpu.MustNew()
	}
	t := p.newPartition(0, fullWitness, cfg.rand)
	if err := t.solve(); err != nil {
		return nil, err
	}
	if err := proveOnDevice(dev, t, resident); err != nil {
		return nil, err
	}
	proof, err := t.assemble()
	if err != nil {
		return nil, err
	}
	if cfg.phaseTimes != nil {
		cfg.phaseTimes(0, t.times)
	}
	return proof, nil
}

// proveOnDevice uploads t's inputs and runs its device work on dev. key
// may be nil, in which case pk's bases are uploaded for this proof alone.
// Every buffer it allocates is freed before it returns.
func proveOnDevice(dev backend.Backend, t *partition, key *deviceKey) (err error) {
	q, err := dev.NewQueue()
	if err != nil {
		return fmt.Errorf("groth16: %s: %w", dev, err)
	}
	defer func() { err = errors.Join(err, q.Close()) }()
	if key == nil {
		start := time.Now()
		if key, err = uploadKey(dev, q, t.p.pk, nil); err != nil {
			return err
		}
		t.times.Upload += time.Since(start)
		defer func() { err = errors.Join(err, key.free(dev, q)) }()
	}
	sizes := t.bufferSizes()
	bufs := make([]backend.Buffer, 0, len(sizes))
	defer func() {
		for _, b := range bufs {
			err = errors.Join(err, dev.Free(q, b))
		}
	}()
	for _, size := range sizes {
		b, err := dev.Alloc(q, size)
		if err != nil {
			return fmt.Errorf("groth16: partition %d: %w", t.index, err)
		}
		bufs = append(bufs, b)
	}
	// The wire values go up first, so that their MSMs can start while a, b
	// and c go up and H runs.
	if err := t.upload(dev, q, bufs, wireBuffers); err != nil {
		return err
	}
	err = t.compute(dev, q, key, bufs, evalBuffers)
	t.release()
	return err
}

// begin reads the options and checks the circuit and key: what Prove and
// ProveBatch both do first.
func begin(ccs constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey, opts []Option) (*config, *prover, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, nil, err
	}
	r1cs, key, err := asBLS12381(ccs, pk)
	if err != nil {
		return nil, nil, err
	}
	p, err := newProver(r1cs, key, cfg.proverOpts)
	if err != nil {
		return nil, nil, err
	}
	return cfg, p, nil
}
