// Package synth builds the synthetic circuits and random proving keys that
// g16 bench and the large-size tests use.
package synth

import (
	"fmt"
	"math/big"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	"github.com/consensys/gnark/std/rangecheck"
)

// Circuit is the synthetic circuit g16 bench proves. Its mix is what
// real circuits look like to a prover: a long multiplication chain (wires
// with large random values), bit decompositions (wires that are 0 or 1),
// and range checks through gnark's std/rangecheck, which add a BSB22
// commitment.
type Circuit struct {
	Chain   int `gnark:"-"`
	NbBits  int `gnark:"-"`
	NbRange int `gnark:"-"`
	// Appended leaves the chain and its check against Y, the bit
	// decompositions and the check of Z out of Define: Compile appends
	// them to the compiled system (chain.go, bits.go).
	Appended bool `gnark:"-"`

	X      frontend.Variable   `gnark:",secret"`
	Bits   []frontend.Variable `gnark:",secret"`
	Ranged []frontend.Variable `gnark:",secret"`
	Y      frontend.Variable   `gnark:",public"`
	Z      frontend.Variable   `gnark:",public"`
}

func (c *Circuit) Define(api frontend.API) error {
	if !c.Appended {
		acc := c.X
		for i := 0; i < c.Chain; i++ {
			acc = api.Mul(acc, c.X)
		}
		api.AssertIsEqual(acc, c.Y)
	}

	if c.Appended {
		// Compile appends the bit decompositions and the check of Z
		// (bits.go); only the range checks are built here.
		if len(c.Ranged) > 0 {
			rc := rangecheck.New(api)
			for _, v := range c.Ranged {
				rc.Check(v, 32)
			}
		}
		return nil
	}
	sum := frontend.Variable(0)
	for _, v := range c.Bits {
		// One Add a decomposition: each Add copies sum's terms.
		bits := api.ToBinary(v, 64)
		sum = api.Add(sum, bits[0], bits[1:]...)
	}
	if len(c.Ranged) > 0 {
		rc := rangecheck.New(api)
		for _, v := range c.Ranged {
			rc.Check(v, 32)
			sum = api.Add(sum, v)
		}
	}
	api.AssertIsEqual(sum, c.Z)
	return nil
}

// Shape is how a Circuit of a target size is built.
type Shape struct {
	Chain, NbBits, NbRange int
	Appended               bool `json:",omitempty"` // see Circuit.Appended
}

func (s Shape) Circuit() *Circuit {
	return &Circuit{
		Chain: s.Chain, NbBits: s.NbBits, NbRange: s.NbRange, Appended: s.Appended,
		Bits:   make([]frontend.Variable, s.NbBits),
		Ranged: make([]frontend.Variable, s.NbRange),
	}
}

// assignment returns a satisfying assignment; seed varies the witness.
func (s Shape) Assignment(seed uint64) *Circuit {
	a := s.Circuit()
	x := new(big.Int).SetUint64(seed*0x9e3779b97f4a7c15 + 3)
	a.X = x
	q := ecc.BLS12_381.ScalarField()
	a.Y = new(big.Int).Exp(x, big.NewInt(int64(s.Chain+1)), q)
	sum := new(big.Int)
	state := seed | 1
	next := func() uint64 { // xorshift: varied values, not random-grade
		state ^= state << 13
		state ^= state >> 7
		state ^= state << 17
		return state
	}
	for i := range a.Bits {
		v := next()
		a.Bits[i] = v
		for ; v != 0; v &= v - 1 {
			sum.Add(sum, big.NewInt(1))
		}
	}
	for i := range a.Ranged {
		v := next() & 0xffffffff
		a.Ranged[i] = v
		sum.Add(sum, new(big.Int).SetUint64(v))
	}
	a.Z = sum
	return a
}

// Mixes of the synthetic circuit.
const (
	Mix   = "mix"   // chain + bits + range checks (BSB22 commitment)
	Chain = "chain" // multiplication chain only
)

// CompileFrontend compiles a circuit with at most target constraints, as
// close to it as the mix allows, all of it through gnark's frontend
// (minutes and tens of GiB at 2^26; Compile builds the same circuit in a
// fraction of that).
func CompileFrontend(mix string, target int) (constraint.ConstraintSystem, Shape, error) {
	s, err := mixShape(mix, target)
	if err != nil {
		return nil, Shape{}, err
	}
	compile := func(s Shape) (constraint.ConstraintSystem, error) {
		return frontend.Compile(ecc.BLS12_381.ScalarField(), r1cs.NewBuilder, s.Circuit())
	}
	base, err := compile(s)
	if err != nil {
		return nil, Shape{}, err
	}
	if base.GetNbConstraints() > target {
		return nil, Shape{}, fmt.Errorf("constraint count %d too small for the %q mix (its fixed part has %d)", target, mix, base.GetNbConstraints())
	}
	s.Chain = target - base.GetNbConstraints()
	for {
		ccs, err := compile(s)
		if err != nil {
			return nil, Shape{}, err
		}
		over := ccs.GetNbConstraints() - target
		if over <= 0 {
			return ccs, s, nil
		}
		if s.Chain < over {
			return nil, Shape{}, fmt.Errorf("internal error: cannot fit the %q mix in %d constraints", mix, target)
		}
		s.Chain -= over
	}
}

// mixShape is the fixed part of mix's shape at target constraints: the
// bit decompositions and range checks; the chain fills the rest.
func mixShape(mix string, target int) (Shape, error) {
	if target < 8 {
		return Shape{}, fmt.Errorf("constraint count %d too small (need at least 8)", target)
	}
	var s Shape
	switch mix {
	case Chain:
	case Mix:
		// about 1/8 of the constraints in bit decompositions (65 each), a
		// few hundred range-checked values.
		s.NbBits = max(1, target/8/65)
		s.NbRange = min(256, max(4, target/256))
	default:
		return Shape{}, fmt.Errorf("unknown circuit mix %q (want %q or %q)", mix, Mix, Chain)
	}
	return s, nil
}

// Witness returns a full witness of the circuit s describes; seed varies
// its values.
func Witness(s Shape, seed uint64) (witness.Witness, error) {
	return frontend.NewWitness(s.Assignment(seed), ecc.BLS12_381.ScalarField())
}
