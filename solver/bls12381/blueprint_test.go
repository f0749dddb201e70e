package bls12381_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark/constraint"
	cs "github.com/consensys/gnark/constraint/bls12-381"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"

	solver "github.com/g16prover/g16/solver/bls12381"
)

// cubeBlueprint is a blueprint g16's solver does not know: one output, the
// cube of its input term, solved through the constraint.Solver interface.
// Calldata: 1, coefficient ID, wire ID (a one-term linear expression).
type cubeBlueprint struct{}

func (cubeBlueprint) CalldataSize() int                    { return 3 }
func (cubeBlueprint) NbConstraints() int                   { return 0 }
func (cubeBlueprint) NbOutputs(constraint.Instruction) int { return 1 }
func (cubeBlueprint) UpdateInstructionTree(inst constraint.Instruction, tree constraint.InstructionTree) constraint.Level {
	level := constraint.LevelUnset
	if w := inst.Calldata[2]; tree.HasWire(w) {
		level = tree.GetWireLevel(w)
	}
	tree.InsertWire(inst.WireOffset, level+1)
	return level + 1
}

func (cubeBlueprint) Solve(s constraint.Solver[constraint.U64], inst constraint.Instruction) error {
	if !s.IsSolved(inst.Calldata[2]) {
		return errors.New("cube: input not solved")
	}
	v, n := s.Read(inst.Calldata)
	if n != 3 {
		return errors.New("cube: read the wrong length")
	}
	if v.IsZero() {
		return errors.New("cube of zero")
	}
	if got := s.GetValue(inst.Calldata[1], inst.Calldata[2]); got != v {
		return errors.New("cube: GetValue differs from Read")
	}
	s.SetValue(inst.WireOffset, s.Mul(s.Mul(v, v), v))
	return nil
}

// statefulCube is cubeBlueprint with a Reset: a blueprint with state
// between solves, which g16's solver leaves to gnark's.
type statefulCube struct{ cubeBlueprint }

func (*statefulCube) Reset() {}

type cubes struct {
	stateful bool                `gnark:"-"`
	X        []frontend.Variable `gnark:",secret"`
	Sum      frontend.Variable   `gnark:",public"`
}

func (c *cubes) Define(api frontend.API) error {
	var bp constraint.Blueprint = cubeBlueprint{}
	if c.stateful {
		bp = &statefulCube{}
	}
	id := api.Compiler().AddBlueprint(bp)
	sum := frontend.Variable(0)
	for _, x := range c.X {
		var calldata []uint32
		api.Compiler().ToCanonicalVariable(x).Compress(&calldata)
		out := api.Compiler().AddInstruction(id, calldata)
		y := api.Compiler().InternalVariable(out[0])
		api.AssertIsEqual(y, api.Mul(x, x, x))
		sum = api.Add(sum, y)
	}
	api.AssertIsEqual(sum, c.Sum)
	return nil
}

func cubesAssignment(n int, zeroAt int, rng *rand.Rand) *cubes {
	w := &cubes{X: make([]frontend.Variable, n)}
	var sum fr.Element
	for i := range w.X {
		x := randFr(rng)
		if i == zeroAt {
			x.SetZero()
		}
		w.X[i] = x.String()
		var c fr.Element
		c.Square(&x).Mul(&c, &x)
		sum.Add(&sum, &c)
	}
	w.Sum = sum.String()
	return w
}

// TestUnknownBlueprint: a blueprint the solver does not know is solved
// through its own Solve, with gnark's results and errors.
func TestUnknownBlueprint(t *testing.T) {
	c := testCircuit{name: "cubes", shape: &cubes{X: make([]frontend.Variable, 200)}}
	cc := compile(t, c)
	if reason := cc.s.Fallback(); reason != "" {
		t.Fatalf("falls back to gnark: %s", reason)
	}
	seed := newSeed(t)
	for _, tasks := range []int{0, 5} {
		restore := solver.SetParallelism(tasks, 1)
		w := fullWitness(t, cubesAssignment(200, -1, rand.New(rand.NewPCG(seed, 7))))
		want, err := gnarkSolve(t, cc.r1cs, w)
		if err != nil {
			restore()
			t.Fatal(err)
		}
		got, err := cc.s.Solve(context.Background(), w)
		if err != nil {
			restore()
			t.Fatal(err)
		}
		sameSolution(t, got, want)

		// the blueprint's error, wrapped as gnark wraps it.
		w = fullWitness(t, cubesAssignment(200, 17, rand.New(rand.NewPCG(seed, 8))))
		_, werr := gnarkSolve(t, cc.r1cs, w)
		_, gerr := cc.s.Solve(context.Background(), w)
		restore()
		if werr == nil || gerr == nil || gerr.Error() != werr.Error() {
			t.Fatalf("error %v, gnark's %v", gerr, werr)
		}
	}
}

// TestStatefulFallback: a circuit with a stateful blueprint the solver
// does not know is solved by gnark's solver, and says so.
func TestStatefulFallback(t *testing.T) {
	c := testCircuit{name: "cubes-stateful", shape: &cubes{stateful: true, X: make([]frontend.Variable, 20)}}
	cc := compile(t, c)
	if cc.s.Fallback() == "" {
		t.Fatal("no fallback reported for a stateful blueprint")
	}
	t.Logf("fallback: %s", cc.s.Fallback())
	w := fullWitness(t, cubesAssignment(20, -1, rand.New(rand.NewPCG(newSeed(t), 9))))
	want, err := gnarkSolve(t, cc.r1cs, w)
	if err != nil {
		t.Fatal(err)
	}
	got, err := cc.s.Solve(context.Background(), w)
	if err != nil {
		t.Fatal(err)
	}
	sameSolution(t, got, want)
}

// otherR1C is an R1C blueprint that is not gnark's generic one (the same
// encoding, another type): the solver reads its R1Cs through DecompressR1C.
type otherR1C struct{ constraint.BlueprintGenericR1C }

// TestOtherR1CBlueprint swaps the generic R1C blueprint of a compiled
// circuit for otherR1C and requires gnark's solution.
func TestOtherR1CBlueprint(t *testing.T) {
	c := testCircuits()[tcArith]
	ccs, err := frontend.Compile(ecc.BLS12_381.ScalarField(), r1cs.NewBuilder, c.shape)
	if err != nil {
		t.Fatal(err)
	}
	r := ccs.(*cs.R1CS)
	swapped := 0
	for i, bp := range r.Blueprints {
		if _, ok := bp.(*constraint.BlueprintGenericR1C); ok {
			r.Blueprints[i] = &otherR1C{}
			swapped++
		}
	}
	if swapped == 0 {
		t.Fatal("no generic R1C blueprint to swap")
	}
	s, err := solver.New(r)
	if err != nil {
		t.Fatal(err)
	}
	if reason := s.Fallback(); reason != "" {
		t.Fatalf("falls back to gnark: %s", reason)
	}
	seed := newSeed(t)
	w := assignment(t, c, rand.New(rand.NewPCG(seed, 40)))
	want, err := gnarkSolve(t, r, w)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Solve(context.Background(), w)
	if err != nil {
		t.Fatal(err)
	}
	sameSolution(t, got, want)
}
