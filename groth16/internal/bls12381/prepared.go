package bls12381

import (
	"sync"

	cs "github.com/consensys/gnark/constraint/bls12-381"
)

// preparedSize is how many constraint systems' solvers the package-level
// Prove and ProveBatch keep for their next calls.
const preparedSize = 4

// prepared keeps the solvers (solver.New's compiled circuit, the costly
// part of preparing a Prover: about 120 ms at 765k constraints) that the
// package-level Prove and ProveBatch made, for their next calls with the
// same constraint system. It holds at most preparedSize, the least recently
// used dropped first; each entry keeps its constraint system reachable.
// ReleasePrepared empties it. Safe for concurrent use: two calls that miss
// at once on one system both prepare it, and the second stored replaces
// the first.
var prepared struct {
	mu      sync.Mutex
	entries []preparedEntry // the most recently used last
}

type preparedEntry struct {
	r1cs  *cs.R1CS
	shape preparedShape
	ws    *witnessSolver
}

// preparedShape is what an entry checks besides the pointer: a system
// decoded anew into the same value is prepared again.
type preparedShape struct {
	constraints, internal, instructions, calldata, coefficients int
}

func shapeOf(r *cs.R1CS) preparedShape {
	return preparedShape{r.GetNbConstraints(), r.NbInternalVariables, len(r.Instructions), len(r.CallData), len(r.Coefficients)}
}

// preparedSolver returns the solver of r1cs that an earlier Prove or
// ProveBatch prepared, or prepares it and keeps it for the next.
func preparedSolver(r1cs *cs.R1CS) (*witnessSolver, error) {
	shape := shapeOf(r1cs)
	prepared.mu.Lock()
	for i, e := range prepared.entries {
		if e.r1cs == r1cs && e.shape == shape {
			copy(prepared.entries[i:], prepared.entries[i+1:])
			prepared.entries[len(prepared.entries)-1] = e
			prepared.mu.Unlock()
			return e.ws, nil
		}
	}
	prepared.mu.Unlock()
	ws, err := newWitnessSolver(r1cs) // outside the lock: other systems' calls go on
	if err != nil {
		return nil, err
	}
	prepared.mu.Lock()
	defer prepared.mu.Unlock()
	es := prepared.entries[:0]
	for _, e := range prepared.entries {
		if e.r1cs != r1cs {
			es = append(es, e)
		}
	}
	if len(es) == preparedSize {
		copy(es, es[1:])
		es = es[:preparedSize-1]
	}
	prepared.entries = append(es, preparedEntry{r1cs: r1cs, shape: shape, ws: ws})
	return ws, nil
}

// ReleasePrepared drops the prepared circuits that the package-level Prove
// and ProveBatch keep for their next calls (the solvers of the last four
// constraint systems they were given, and with them those systems), so
// that the memory can be collected. Provers made by NewProver keep their
// own.
func ReleasePrepared() {
	prepared.mu.Lock()
	clear(prepared.entries)
	prepared.entries = prepared.entries[:0]
	prepared.mu.Unlock()
}
