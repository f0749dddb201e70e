package bls12381

import (
	"context"
	cryptorand "crypto/rand"
	"fmt"
	"math/big"
	"time"

	curve "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16/bls12-381"
	cs "github.com/consensys/gnark/constraint/bls12-381"
	"github.com/consensys/gnark/constraint/solver"

	wsolver "github.com/g16prover/g16/solver/bls12381"
)

// solution is what the solve of one partition leaves for the device and
// the assembly: the proof with its commitments, the constraint
// evaluations, the wire values filtered for each MSM, and r and s.
type solution struct {
	proof      *gnarkgroth16.Proof // Commitments and CommitmentPok set; Ar, Bs, Krs by assemble
	a, b, c    []fr.Element        // constraint evaluations, padded to n
	w          []fr.Element        // all the wire values
	wA, wB, wK wireVector          // W filtered for the A, B and K MSMs (wiresA, wiresB, kWires)
	wUploaded  bool                // W itself went up (into bufW, for the device to gather from)
	r, s       fr.Element
}

// solve runs on the host: it solves the circuit (computing BSB22
// commitments from within the solver, as gnark does, their MSMs on a
// device: commit.go), folds the commitments' proofs of knowledge, draws r
// and s, and filters the wire values for the A and B MSMs.
func (t *partition) solve(ctx context.Context) (*solution, error) {
	start := time.Now()
	p := t.p
	if err := checkWitness(p.r1cs, t.witness); err != nil {
		return nil, err
	}
	ci := p.commitmentInfo
	sol := &solution{proof: &gnarkgroth16.Proof{Commitments: make([]curve.G1Affine, len(ci))}}
	com, release, err := newCommitter(p, sol.proof, t.commitKeys)
	if err != nil {
		return nil, err
	}
	defer release()
	opts := append(p.solverOpts[:len(p.solverOpts):len(p.solverOpts)], com.hintOption())

	if len(ci) > 0 {
		// gnark masks each commitment with a value its solver draws from
		// crypto/rand.Reader; draw it from ours, in the same order.
		opts = append(opts, solver.OverrideHint(randomizeHintID, func(mod *big.Int, in, out []*big.Int) error {
			if len(in) != 0 {
				return fmt.Errorf("groth16: commitment mask hint takes no input, got %d", len(in))
			}
			for i := range out {
				v, err := cryptorand.Int(t.rand, mod)
				if err != nil {
					return fmt.Errorf("groth16: reading randomness for a commitment mask: %w", err)
				}
				out[i].Set(v)
			}
			return nil
		}))
	}

	// The lease's set goes back to the list when the solve fails; once
	// solved, the solution's vectors are handed back by Finish instead.
	set := t.vectors.take(t)
	ok := false
	defer func() {
		if !ok {
			t.vectors.giveBack(t, set)
		}
	}()
	solved, err := t.solveWitness(ctx, opts, set.solver)
	if err != nil {
		return nil, solveErr(err)
	}
	w := []fr.Element(solved.W)

	if err := com.fold(w); err != nil {
		return nil, err
	}

	// r then s, read after solving, as gnark reads them.
	if sol.r, err = randomElement(t.rand); err != nil {
		return nil, err
	}
	if sol.s, err = randomElement(t.rand); err != nil {
		return nil, err
	}

	sol.a = padded(solved.A, p.n)
	sol.b = padded(solved.B, p.n)
	sol.c = padded(solved.C, p.n)

	sol.w = w
	sol.wA, sol.wB, sol.wK = wireVector{into: set.wA}, wireVector{into: set.wB}, wireVector{into: set.wK}
	t.times.Commit = com.elapsed()
	t.times.Solve = time.Since(start) - t.times.Commit
	ok = true
	return sol, nil
}

// wireVector is one wire MSM's values: W filtered (filterOutInto) on
// first use, into a vector another partition handed back when it has
// room.
type wireVector struct {
	vals []fr.Element // nil until filtered; W itself when nothing is left out
	into []fr.Element // the vector filter may fill (vectorList)
}

// filter returns the values of w whose skip entry is false, want of them,
// filtered on the first call.
func (v *wireVector) filter(w []fr.Element, skip []bool, want int) []fr.Element {
	if v.vals == nil {
		v.vals = filterOutInto(v.into, w, skip, want)
	}
	return v.vals
}

// handBack is the vector for another partition's solve to fill: the
// filtered copy, or the one given and not filled when there is none (not
// filtered, or W itself: aliased).
func (v *wireVector) handBack(aliased bool) []fr.Element {
	if v.vals != nil && !aliased {
		return v.vals
	}
	return v.into
}

// kWires returns the K MSM's wire values: the private wires but the
// committed ones, filtered from w on the first call. A streamed key reads
// them chunk by chunk instead (filteredChunks), and the host holds no copy.
// A device that gathers picks them from W itself (gather.go), and the host
// filters nothing.
func (sol *solution) kWires(p *prover) []fr.Element {
	return sol.wK.filter(sol.w[p.nbPublic:], p.kRemove, len(p.pk.G1.K))
}

// wiresA and wiresB return the A and B MSMs' wire values (the wires whose
// point is not at infinity), filtered from w on the first call, as kWires.
func (sol *solution) wiresA(p *prover) []fr.Element {
	return sol.wA.filter(sol.w, p.pk.InfinityA, len(p.pk.G1.A))
}

func (sol *solution) wiresB(p *prover) []fr.Element {
	return sol.wB.filter(sol.w, p.pk.InfinityB, len(p.pk.G1.B))
}

// vectors are sol's vectors for another partition's solve to fill
// (vectorList): the solver's a, b, c and W, and the filtered copies of W
// for the wire MSMs. When a backend may read the wire vectors in place for
// as long as its buffer lives (inPlace: backend.ReadOnlyUploader), the
// filtered copies are left out, and so is W if a wire MSM's vector is W
// itself (none of its wires filtered out) or W went up itself (a device
// that gathers), so that nothing a buffer may still read is written again.
func (sol *solution) vectors(p *prover, inPlace bool) hostVectors {
	v := hostVectors{solver: wsolver.Vectors{A: sol.a, B: sol.b, C: sol.c}}
	aliased := func(u []fr.Element, from int) bool {
		return len(u) > 0 && len(sol.w) > from && &u[0] == &sol.w[from]
	}
	wA, wB, wK := aliased(sol.wA.vals, 0), aliased(sol.wB.vals, 0), aliased(sol.wK.vals, p.nbPublic)
	if !inPlace || !wA && !wB && !wK && !sol.wUploaded {
		v.solver.W = sol.w
	}
	if inPlace {
		return v
	}
	// K's vector not filled: K's wires are W's, or a streamed key reads
	// them in chunks.
	v.wA, v.wB, v.wK = sol.wA.handBack(wA), sol.wB.handBack(wB), sol.wK.handBack(wK)
	return v
}

// release drops the host copies that upload has moved to the device.
func (sol *solution) release() {
	sol.a, sol.b, sol.c = nil, nil, nil
	sol.w = nil
	sol.wA, sol.wB, sol.wK = wireVector{}, wireVector{}, wireVector{}
}

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
func (t *partition) solveWitness(ctx context.Context, opts []solver.Option, buf wsolver.Vectors) (*cs.R1CSSolution, error) {
	ws := t.p.witnessSolver
	t.times.SolverFallback = ws.s.Fallback()
	// gnark's solver leaves buf alone and allocates the solution's
	// vectors, which Finish hands back in buf's place.
	return ws.s.SolveInto(ctx, t.witness, buf, opts...)
}

// SolverFallback says why gnark's solver solves the witnesses of pr's
// circuit, or "" when g16's own solver does. g16's solver has read what it
// needs of the R1CS's Levels (gnark's solving order) in NewProver: once
// every Prover of a circuit is made, only gnark's solver and prover read
// them.
func (pr *Prover) SolverFallback() string { return pr.p.witnessSolver.s.Fallback() }
