package synth

import (
	"fmt"
	"slices"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/constraint"
	cs "github.com/consensys/gnark/constraint/bls12-381"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
)

// Compile builds a circuit with at most target constraints, as close to it
// as the mix allows: the circuit CompileFrontend compiles, built faster and
// in less memory. gnark's frontend compiles the fixed part (the bit
// decompositions and range checks, with their BSB22 commitment: an eighth
// of the constraints); the multiplication chain, the rest, is appended to
// the compiled system through gnark's constraint API, one R1C a link:
//
//	x₁ = X·X, xᵢ₊₁ = xᵢ·X (i < Chain), then x_Chain·1 = Y
//
// so Y = X^(Chain+1), as in CompileFrontend. The result is an ordinary
// gnark R1CS: gnark's solver and prover take it as they take a compiled
// one.
func Compile(mix string, target int) (constraint.ConstraintSystem, Shape, error) {
	s, err := mixShape(mix, target)
	if err != nil {
		return nil, Shape{}, err
	}
	s.Appended = true
	ccs, err := frontend.Compile(ecc.BLS12_381.ScalarField(), r1cs.NewBuilder, s.Circuit(), frontend.IgnoreUnconstrainedInputs())
	if err != nil {
		return nil, Shape{}, err
	}
	// The chain's links and the final check against Y.
	if fixed := ccs.GetNbConstraints(); fixed+1 > target {
		return nil, Shape{}, fmt.Errorf("constraint count %d too small for the %q mix (its fixed part has %d)", target, mix, fixed+1)
	} else {
		s.Chain = target - fixed - 1
	}
	sys, ok := ccs.(*cs.R1CS)
	if !ok {
		return nil, Shape{}, fmt.Errorf("internal error: gnark compiled a %T, not a BLS12-381 R1CS", ccs)
	}
	if err := appendChain(sys, s.Chain); err != nil {
		return nil, Shape{}, err
	}
	return sys, s, nil
}

// appendChain adds the chain of n multiplications by the secret input X to
// sys, and the check of its end against the public input Y.
func appendChain(sys *cs.R1CS, n int) error {
	x := slices.Index(sys.Secret, "X")
	y := slices.Index(sys.Public, "Y")
	if x < 0 || y < 0 {
		return fmt.Errorf("internal error: the compiled circuit has no secret X or public Y (secret %v, public %v)", sys.Secret, sys.Public)
	}
	xWire := uint32(sys.GetNbPublicVariables() + x)
	bID := genericR1C(sys)
	term := func(wire uint32) constraint.LinearExpression {
		return constraint.LinearExpression{{CID: constraint.CoeffIdOne, VID: wire}}
	}
	xTerm := term(xWire)
	// The chain's sizes are known: the system's arrays grow once to the
	// length they end at, not by doubling, which at 2^27 would leave up
	// to half of their 8 GiB unused and copy them at each growth. An R1C
	// of one term a side is 10 words of calldata.
	sys.CallData = slices.Grow(sys.CallData, 10*(n+1))
	sys.Instructions = slices.Grow(sys.Instructions, n+1)
	sys.Levels = slices.Grow(sys.Levels, n+1)
	acc := xWire
	for range n {
		next := uint32(sys.AddInternalVariable())
		sys.AddR1C(constraint.R1C{L: term(acc), R: xTerm, O: term(next)}, bID)
		acc = next
	}
	// Wire 0 is the constant one.
	sys.AddR1C(constraint.R1C{L: term(acc), R: term(0), O: term(uint32(y))}, bID)
	return nil
}

// genericR1C is the blueprint of a plain R1C in sys, added if the frontend
// registered none.
func genericR1C(sys *cs.R1CS) constraint.BlueprintID {
	for i, b := range sys.Blueprints {
		if _, ok := b.(*constraint.BlueprintGenericR1C); ok {
			return constraint.BlueprintID(i)
		}
	}
	return sys.AddBlueprint(&constraint.BlueprintGenericR1C{})
}
