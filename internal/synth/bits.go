package synth

import (
	"fmt"
	"strings"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark/constraint"
	cs "github.com/consensys/gnark/constraint/bls12-381"
	"github.com/consensys/gnark/constraint/solver"
	"github.com/consensys/gnark/std/math/bits"
)

// bitsConstraints is how many constraints appendBits adds for n
// decompositions: per decomposition 64 boolean checks and the
// recomposition, then the one check of the sum against Z.
func bitsConstraints(n int) int { return 65*n + 1 }

// appendBits adds to sys the bit decompositions of the secret inputs
// Bits_0 … Bits_{n−1} and the check that the sum of all their bits and of
// the secret inputs Ranged_* is the public Z, written straight into sys's
// arrays as gnark's constraint API would lay them out (see appendChain).
// Each decomposition is gnark's but for the form of its boolean checks:
// the std bits hint (nBits) gives 64 wires bᵢ, each checked by
// bᵢ·bᵢ = bᵢ (gnark's AssertIsBoolean writes bᵢ·(1 − bᵢ) = 0, the same
// constraint with one more term), and (Σ 2ⁱ·bᵢ)·1 = Bits_j. The hint is
// at level 0 (it reads an input), the checks at level 1.
func appendBits(sys *cs.R1CS, n int) error {
	hint, err := nBitsHint()
	if err != nil {
		return err
	}
	nbPublic := sys.GetNbPublicVariables()
	secret := make(map[string]uint32, len(sys.Secret))
	for i, name := range sys.Secret {
		secret[name] = uint32(nbPublic + i)
	}
	z := -1
	for i, name := range sys.Public {
		if name == "Z" {
			z = i
		}
	}
	if z < 0 {
		return fmt.Errorf("internal error: the compiled circuit has no public Z (public %v)", sys.Public)
	}
	bID := genericR1C(sys)
	hID := genericHint(sys)
	one := uint32(constraint.CoeffIdOne)
	var pow [64]uint32 // coefficient IDs of 2^i
	var c fr.Element
	c.SetOne()
	for i := range pow {
		var u constraint.U64
		copy(u[:], c[:])
		pow[i] = sys.AddCoeff(u)
		c.Double(&c)
	}
	for len(sys.Levels) < 2 {
		sys.Levels = append(sys.Levels, nil)
	}
	wire := uint32(sys.NbInternalVariables + nbPublic + sys.GetNbSecretVariables())
	add := func(bp constraint.BlueprintID, constraints int, offset uint32, level int, calldata ...uint32) {
		id := appendInstruction(sys, bp, constraints, offset, calldata...)
		sys.Levels[level] = append(sys.Levels[level], id)
	}
	first := wire
	recompose := make([]uint32, 0, 4+2*66)
	for j := range n {
		v, ok := secret[fmt.Sprintf("Bits_%d", j)]
		if !ok {
			return fmt.Errorf("internal error: the compiled circuit has no secret Bits_%d", j)
		}
		b0 := wire
		wire += 64
		add(hID, 0, wire, 0, 8, uint32(hint), 1, 1, one, v, b0, wire)
		for b := b0; b < wire; b++ {
			add(bID, 1, wire, 1, 10, 1, 1, 1, one, b, one, b, one, b)
		}
		recompose = append(recompose[:0], 4+2*66, 64, 1, 1)
		for i := range uint32(64) {
			recompose = append(recompose, pow[i], b0+i)
		}
		recompose = append(recompose, one, 0, one, v)
		add(bID, 1, wire, 1, recompose...)
	}
	sys.NbInternalVariables += int(wire - first)

	// Σ bits + Σ Ranged_* = Z, one linear expression.
	var ranged []uint32
	for _, name := range sys.Secret {
		if strings.HasPrefix(name, "Ranged_") {
			ranged = append(ranged, secret[name])
		}
	}
	nbL := int(wire-first) + len(ranged)
	sum := make([]uint32, 0, 4+2*(nbL+2))
	sum = append(sum, uint32(4+2*(nbL+2)), uint32(nbL), 1, 1)
	for b := first; b < wire; b++ {
		sum = append(sum, one, b)
	}
	for _, r := range ranged {
		sum = append(sum, one, r)
	}
	sum = append(sum, one, 0, one, uint32(z))
	add(bID, 1, wire, 1, sum...)
	return nil
}

// nBitsHint is the ID of gnark's bit decomposition hint (std/math/bits).
func nBitsHint() (solver.HintID, error) {
	for _, h := range bits.GetHints() {
		if strings.HasSuffix(solver.GetHintName(h), ".nBits") {
			return solver.GetHintID(h), nil
		}
	}
	return 0, fmt.Errorf("internal error: gnark's std/math/bits has no nBits hint")
}

// genericHint is the blueprint of a plain hint in sys, added if the
// frontend registered none.
func genericHint(sys *cs.R1CS) constraint.BlueprintID {
	for i, b := range sys.Blueprints {
		if _, ok := b.(*constraint.BlueprintGenericHint); ok {
			return constraint.BlueprintID(i)
		}
	}
	return sys.AddBlueprint(&constraint.BlueprintGenericHint{})
}
