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
// as the mix allows: the circuit CompileFrontend compiles (with the bits'
// sum checked in one constraint rather than gnark's compressed partial
// sums, and each bit's boolean check as b·b = b: bits.go), built in a
// fraction of the time and memory. gnark's frontend
// compiles the range checks, with their BSB22 commitment; the bit
// decompositions (an eighth of the constraints, bits.go) and the
// multiplication chain (the rest) are appended to the compiled system in
// gnark's layout, one R1C a link:
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
	// The bit decompositions, the check of Z, the chain's links and the
	// final check against Y.
	if fixed := ccs.GetNbConstraints() + bitsConstraints(s.NbBits); fixed+1 > target {
		return nil, Shape{}, fmt.Errorf("constraint count %d too small for the %q mix (its fixed part has %d)", target, mix, fixed+1)
	} else {
		s.Chain = target - fixed - 1
	}
	sys, ok := ccs.(*cs.R1CS)
	if !ok {
		return nil, Shape{}, fmt.Errorf("internal error: gnark compiled a %T, not a BLS12-381 R1CS", ccs)
	}
	if err := appendBits(sys, s.NbBits); err != nil {
		return nil, Shape{}, err
	}
	if err := appendChain(sys, s.Chain); err != nil {
		return nil, Shape{}, err
	}
	return sys, s, nil
}

// appendChain adds the chain of n multiplications by the secret input X to
// sys, and the check of its end against the public input Y. It writes the
// instructions, their calldata and their levels straight into sys's
// arrays, as AddR1C would lay them out (an R1C of one term a side is 10
// words of calldata: their count, the three lengths, then coefficient and
// wire of each term), without AddR1C's per-constraint cost: link i is
// solved at level i (it reads link i−1's wire), the check at level n.
// gnark's level builder (unexported) does not learn the chain's wires, so
// nothing may be added to sys through gnark's API afterwards.
func appendChain(sys *cs.R1CS, n int) error {
	x := slices.Index(sys.Secret, "X")
	y := slices.Index(sys.Public, "Y")
	if x < 0 || y < 0 {
		return fmt.Errorf("internal error: the compiled circuit has no secret X or public Y (secret %v, public %v)", sys.Secret, sys.Public)
	}
	xWire := uint32(sys.GetNbPublicVariables() + x)
	bID := genericR1C(sys)
	one := uint32(constraint.CoeffIdOne)
	wire := uint32(sys.NbInternalVariables + sys.GetNbPublicVariables() + sys.GetNbSecretVariables())
	// The arrays grow once to the length they end at, not by doubling,
	// which at 2^27 would leave up to half of their 8 GiB unused and copy
	// them at each growth. The levels past the frontend's hold one
	// instruction each, in one shared array.
	sys.CallData = slices.Grow(sys.CallData, 10*(n+1))
	sys.Instructions = slices.Grow(sys.Instructions, n+1)
	sys.Levels = slices.Grow(sys.Levels, n+1)
	own := make([]uint32, n+1)
	acc := xWire
	for i := 0; i <= n; i++ {
		r, o, offset := xWire, wire, wire+1
		if i == n { // the check x_Chain·1 = Y; wire 0 is the constant one
			r, o, offset = 0, uint32(y), wire
		}
		id := appendInstruction(sys, bID, 1, offset, 10, 1, 1, 1, one, acc, one, r, one, o)
		if i < len(sys.Levels) {
			sys.Levels[i] = append(sys.Levels[i], id)
		} else {
			own[i] = id
			sys.Levels = append(sys.Levels, own[i:i+1:i+1])
		}
		if i < n {
			acc = wire
			wire++
		}
	}
	sys.NbInternalVariables += n
	return nil
}

// appendInstruction appends an instruction of blueprint bp to sys, as
// gnark's builder lays it out: its constraints (0 for a hint), the first
// wire it writes, its calldata. It returns the instruction's index, for
// the caller to put in a level.
func appendInstruction(sys *cs.R1CS, bp constraint.BlueprintID, constraints int, offset uint32, calldata ...uint32) uint32 {
	id := uint32(len(sys.Instructions))
	sys.Instructions = append(sys.Instructions, constraint.PackedInstruction{
		BlueprintID:      bp,
		ConstraintOffset: uint32(sys.NbConstraints),
		WireOffset:       offset,
		StartCallData:    uint64(len(sys.CallData)),
	})
	sys.CallData = append(sys.CallData, calldata...)
	sys.NbConstraints += constraints
	return id
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
