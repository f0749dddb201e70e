package main

import (
	"github.com/consensys/gnark/constraint"

	"github.com/g16prover/g16/groth16"
	"github.com/g16prover/g16/internal/gnarkio"
)

// releaseLevels drops the R1CS's Levels, gnark's solving order (a slice a
// level: 3.1 GiB at 2^27 for the synthetic circuit, where most levels hold
// one constraint), when nothing in this run reads them again: gnark's
// prover does not run (gnarkRuns false) and every backend proves through
// a Prover already made (provers has no nil) whose witnesses g16's solver
// solves, which read the levels in NewProver. It reports whether it
// dropped them and what they took.
func releaseLevels(ccs constraint.ConstraintSystem, provers []*groth16.Prover, gnarkRuns bool) (bool, int64) {
	r, ok := gnarkio.System(ccs)
	if !ok || gnarkRuns || len(provers) == 0 {
		return false, 0
	}
	for _, pr := range provers {
		if pr == nil || pr.SolverFallback() != "" {
			return false, 0
		}
	}
	var bytes int64
	for _, l := range r.Levels {
		bytes += 24 + 4*int64(cap(l)) // slice header and values
	}
	r.Levels = nil
	return true, bytes
}
