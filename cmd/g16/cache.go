package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/consensys/gnark-crypto/ecc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/constraint"
	cs "github.com/consensys/gnark/constraint/bls12-381"

	"github.com/g16prover/g16/internal/synth"
)

// What --cache keeps, so that a later bench on the same machine skips the
// compile (minutes at 2^25 and beyond) and the random key: the synthetic
// circuit's R1CS and shape, and its random key, under names that say the
// mix and the target size.

// cachedSynth returns the synthetic circuit of mix and target from dir, or
// compiles it and writes it there.
func cachedSynth(dir, mix string, target int) (constraint.ConstraintSystem, synth.Shape, bool, error) {
	return cachedCircuit(filepath.Join(dir, fmt.Sprintf("%s-target%d", mix, target)), func() (constraint.ConstraintSystem, synth.Shape, error) {
		return synth.Compile(mix, target)
	})
}

// cachedPorep returns the PoRep-shaped circuit of target and tail from
// dir, or builds it and writes it there.
func cachedPorep(dir string, target int, tail float64) (constraint.ConstraintSystem, synth.PorepShape, bool, error) {
	return cachedCircuit(filepath.Join(dir, fmt.Sprintf("%s-tail%g-target%d", synth.Porep, tail, target)), func() (constraint.ConstraintSystem, synth.PorepShape, error) {
		return synth.CompilePorep(target, tail)
	})
}

// cachedCircuit returns the circuit and its shape (S, as JSON) kept under
// base (base.r1cs, base.shape.json), or builds them and writes them there;
// the bool says they came from the cache.
func cachedCircuit[S any](base string, build func() (constraint.ConstraintSystem, S, error)) (constraint.ConstraintSystem, S, bool, error) {
	var shape S
	if raw, err := os.ReadFile(base + ".shape.json"); err == nil && json.Unmarshal(raw, &shape) == nil {
		r1cs := new(cs.R1CS)
		if err := readFrom(base+".r1cs", r1cs); err == nil {
			return r1cs, shape, true, nil
		}
	}
	ccs, shape, err := build()
	if err != nil {
		return nil, shape, false, err
	}
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		return nil, shape, false, err
	}
	if err := writeAtomic(base+".r1cs", func(w io.Writer) error { _, err := ccs.WriteTo(w); return err }); err != nil {
		return nil, shape, false, err
	}
	raw, err := json.Marshal(shape)
	if err != nil {
		return nil, shape, false, err
	}
	if err := writeAtomic(base+".shape.json", func(w io.Writer) error { _, err := w.Write(raw); return err }); err != nil {
		return nil, shape, false, err
	}
	return ccs, shape, false, nil
}

// cachedRandomKey returns a random key for the circuit called name from
// dir, or draws one (synth.RandomKey) and writes it there (raw format).
func cachedRandomKey(dir, name string, ccs constraint.ConstraintSystem, opts ...synth.KeyOption) (gnarkgroth16.ProvingKey, bool, error) {
	path := filepath.Join(dir, name+".random.pk")
	pk := gnarkgroth16.NewProvingKey(ecc.BLS12_381)
	if err := readRaw(path, pk); err == nil {
		return pk, true, nil
	}
	pk, err := synth.RandomKey(ccs, opts...)
	if err != nil {
		return nil, false, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, false, err
	}
	if err := writeAtomic(path, func(w io.Writer) error { _, err := pk.WriteRawTo(w); return err }); err != nil {
		return nil, false, err
	}
	return pk, false, nil
}

// readFrom loads what WriteTo wrote.
func readFrom(path string, into io.ReaderFrom) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := into.ReadFrom(bufio.NewReaderSize(f, 1<<20)); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
