package groth16

import (
	"context"
	"fmt"

	cs "github.com/consensys/gnark/constraint/bls12-381"
	"github.com/consensys/gnark/constraint/solver"

	wsolver "github.com/g16prover/g16/solver"
)

// witnessSolver solves the witnesses of one circuit: g16's solver, which
// hands the circuits it cannot solve itself to gnark's solver as a whole
// and says so.
type witnessSolver struct {
	s *wsolver.Solver
}

// newWitnessSolver prepares the solver of r1cs once for every proof of
// the prover.
func newWitnessSolver(r1cs *cs.R1CS) (*witnessSolver, error) {
	s, err := wsolver.New(r1cs)
	if err != nil {
		return nil, fmt.Errorf("groth16: %w", err)
	}
	return &witnessSolver{s: s}, nil
}

// solveWitness solves t's witness with the solver options opts (gnark's
// Solve options, the commitment hints included) and records in t.times
// whether gnark's solver did it. g16's solver stops between levels when
// ctx is done and returns ctx.Err().
func (t *partition) solveWitness(ctx context.Context, opts []solver.Option) (*cs.R1CSSolution, error) {
	ws := t.p.witnessSolver
	t.times.SolverFallback = ws.s.Fallback()
	return ws.s.Solve(ctx, t.witness, opts...)
}

// SolverFallback says why gnark's solver solves the witnesses of pr's
// circuit, or "" when g16's own solver does. g16's solver has read what it
// needs of the R1CS's Levels (gnark's solving order) in NewProver: once
// every Prover of a circuit is made, only gnark's solver and prover read
// them.
func (pr *Prover) SolverFallback() string { return pr.p.witnessSolver.s.Fallback() }
