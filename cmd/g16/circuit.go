package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/frontend"

	g16curve "github.com/g16prover/g16/curve"
	"github.com/g16prover/g16/internal/stdcircuits"
	"github.com/g16prover/g16/internal/synth"
)

// benchCircuit is what bench proves: a compiled circuit, a name that says
// its kind and size (for the key cache and the report), and a fresh
// witness per proof.
type benchCircuit struct {
	ccs     constraint.ConstraintSystem
	name    string
	witness func(i int) (witness.Witness, error) // witness of proof i, from --seed
}

// stdKinds are the --circuit values taken from gnark's standard library.
var stdKinds = map[string]bool{"sha256": true, "sha3": true, "ecdsa": true, "eddsa": true, stdcircuits.Recursion: true}

// circuitHelp is --circuit's usage line.
const circuitHelp = "circuit: mix (chain, bit decompositions, range checks with a BSB22 commitment), chain, or porep (PoRep-shaped: 328 public inputs, " +
	"many independent SHA-256-like lanes, A over 99.7% and B over 25% of the wires, --porep-tail of the wire values full field elements, the rest bits), sized by --size; " +
	"or from gnark's std: sha256 or sha3 (of --msg-bytes bytes), ecdsa (secp256k1, emulated; --signatures), eddsa (Jubjub with MiMC; --signatures) " +
	"or recursion (with --curve bw6-761: --proofs-verified Groth16 proofs over BLS12-377 verified by std/recursion/groth16)"

// compileBenchCircuit compiles the circuit the flags name (or, for the
// synthetic circuits with --cache, reads it from the cache).
func compileBenchCircuit(f *benchFlags) (*benchCircuit, error) {
	if f.mix == synth.Porep {
		var ccs constraint.ConstraintSystem
		var s synth.PorepShape
		var err error
		if f.cache != "" {
			ccs, s, f.cachedR1CS, err = cachedPorep(f.cache, int(f.size), f.porepTail)
		} else {
			ccs, s, err = synth.CompilePorep(int(f.size), f.porepTail)
		}
		if err != nil {
			return nil, err
		}
		// A random key leaves out the points at infinity as gnark's
		// Setup does: B then holds a quarter of the wires.
		f.keyOpts = []synth.KeyOption{synth.WithSetupInfinity()}
		return &benchCircuit{
			ccs:     ccs,
			name:    fmt.Sprintf("%s-tail%g-%d", synth.Porep, f.porepTail, ccs.GetNbConstraints()),
			witness: func(i int) (witness.Witness, error) { return synth.PorepWitness(s, f.seed+uint64(i)) },
		}, nil
	}
	if !stdKinds[f.mix] {
		var ccs constraint.ConstraintSystem
		var s synth.Shape
		var err error
		if f.cache != "" {
			ccs, s, f.cachedR1CS, err = cachedSynth(f.cache, f.mix, int(f.size))
		} else {
			ccs, s, err = synth.Compile(f.mix, int(f.size))
		}
		if err != nil {
			return nil, err
		}
		return &benchCircuit{
			ccs:     ccs,
			name:    fmt.Sprintf("%s-%d", f.mix, ccs.GetNbConstraints()),
			witness: func(i int) (witness.Witness, error) { return synth.Witness(s, f.seed+uint64(i)) },
		}, nil
	}
	size := f.signatures
	switch f.mix {
	case "sha256", "sha3":
		size = f.msgBytes
	case stdcircuits.Recursion:
		size = f.verified
	}
	c, err := stdcircuits.NewOn(f.curve, f.mix, size)
	if err != nil {
		return nil, err
	}
	ccs, err := c.CompileOn(f.curve)
	if err != nil {
		return nil, err
	}
	name := strings.NewReplacer("/", "-", "=", "").Replace(c.Name)
	if f.curve != ecc.BLS12_381 {
		name = g16curve.Name(f.curve) + "-" + name // the key cache's files
	}
	return &benchCircuit{
		ccs:  ccs,
		name: name,
		witness: func(i int) (witness.Witness, error) {
			a, err := c.Assign(rand.New(rand.NewPCG(f.seed, uint64(i))))
			if err != nil {
				return nil, err
			}
			return frontend.NewWitness(a, f.curve.ScalarField())
		},
	}, nil
}

// stdNames lists the circuits of gnark's std that stdcircuits builds.
func stdNames() string {
	names := make([]string, len(stdcircuits.Kinds))
	for i, k := range stdcircuits.Kinds {
		names[i] = k.Name
	}
	return strings.Join(names, ", ")
}

// stdSizes says what each std circuit's size counts.
func stdSizes() string {
	sizes := make([]string, len(stdcircuits.Kinds))
	for i, k := range stdcircuits.Kinds {
		sizes[i] = k.Name + ": " + k.Size
	}
	return strings.Join(sizes, ", ")
}

// setupCircuit compiles the circuit g16 setup writes, over curve id, and
// its witness from seed: a synthetic one (mix or chain, of size
// constraints; BLS12-381 only) or one of gnark's std (size counts what the
// circuit is made of; 1 unless sizeGiven). A circuit that cannot be made
// on id, or an unknown name, is a usage error.
func setupCircuit(kind string, id ecc.ID, size int, sizeGiven bool, seed uint64) (constraint.ConstraintSystem, witness.Witness, error) {
	if kind == synth.Mix || kind == synth.Chain {
		if id != ecc.BLS12_381 {
			return nil, nil, &failure{code: exitUsage, err: fmt.Errorf("--circuit %s is a synthetic circuit, built for bls12-381 only; on %s take one of gnark's std: %s",
				kind, g16curve.Name(id), stdNames())}
		}
		ccs, s, err := synth.Compile(kind, size)
		if err != nil {
			return nil, nil, err
		}
		w, err := synth.Witness(s, seed)
		return ccs, w, err
	}
	if !slices.ContainsFunc(stdcircuits.Kinds, func(k struct{ Name, Size string }) bool { return k.Name == kind }) {
		return nil, nil, &failure{code: exitUsage, err: fmt.Errorf("--circuit %q: want %s, %s or one of gnark's std: %s", kind, synth.Mix, synth.Chain, stdNames())}
	}
	if !sizeGiven {
		size = 1
	}
	c, err := stdcircuits.NewOn(id, kind, size)
	if err != nil {
		return nil, nil, &failure{code: exitUsage, err: fmt.Errorf("--size: %w", err)}
	}
	ccs, err := c.CompileOn(id)
	if err != nil {
		return nil, nil, err
	}
	a, err := c.Assign(rand.New(rand.NewPCG(seed, 0)))
	if err != nil {
		return nil, nil, err
	}
	w, err := frontend.NewWitness(a, id.ScalarField())
	return ccs, w, err
}
