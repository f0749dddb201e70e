package solver

import (
	"context"
	"errors"
	"fmt"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"
	csbls12377 "github.com/consensys/gnark/constraint/bls12-377"
	csbls12381 "github.com/consensys/gnark/constraint/bls12-381"
	csbn254 "github.com/consensys/gnark/constraint/bn254"
	csbw6761 "github.com/consensys/gnark/constraint/bw6-761"
	csolver "github.com/consensys/gnark/constraint/solver"

	"github.com/g16prover/g16/curve"
	"github.com/g16prover/g16/solver/bls12377"
	"github.com/g16prover/g16/solver/bls12381"
	"github.com/g16prover/g16/solver/bn254"
	"github.com/g16prover/g16/solver/bw6761"
	"github.com/g16prover/g16/solver/internal/gnarkcheck"
)

// ErrUnsupported is matched (errors.Is) by New's error for a constraint
// system no solver of this package takes: one over a curve g16 does not
// prove on, or a PLONK system.
var ErrUnsupported = errors.New("solver: unsupported constraint system")

// Solver solves one gnark R1CS, of any curve g16 proves on.
type Solver interface {
	// Solve solves the circuit for a full witness as gnark's Solve does
	// with the same options (see the curve's package).
	Solve(ctx context.Context, w witness.Witness, opts ...csolver.Option) (*Solution, error)
	// Fallback returns why Solve hands this circuit to gnark's solver as a
	// whole, or "" when g16's solver solves it.
	Fallback() string
	// Curve is the curve of the circuit's field.
	Curve() ecc.ID
}

// Solution is a solve's result.
type Solution struct {
	// R1CS is the curve's *cs.R1CSSolution (constraint/bn254's,
	// constraint/bls12-381's, constraint/bls12-377's), as gnark's Solve returns it.
	R1CS any
	// W, A, B and C are R1CS's vectors in gnark-crypto's in-memory layout
	// (curve.Params.FrBytes bytes an element: Montgomery form,
	// little-endian 64-bit limbs). They share R1CS's memory.
	W, A, B, C []byte
}

// New prepares the solver of ccs, chosen by its curve. It fails, with an
// error matching ErrUnsupported that names the curve or the system, for a
// constraint system of a curve g16 does not prove on or a PLONK system, and
// as the curve's New fails otherwise.
func New(ccs constraint.ConstraintSystem) (Solver, error) {
	if ccs == nil {
		return nil, errors.New("solver: nil constraint system")
	}
	var (
		s   Solver
		err error
	)
	switch r := ccs.(type) {
	case *csbls12381.R1CS:
		if err := isR1CS(r.Type); err != nil {
			return nil, err
		}
		s, err = adapt(ecc.BLS12_381, bls12381.New, r, func(x *csbls12381.R1CSSolution) *Solution {
			return &Solution{R1CS: x, W: bytesOf(x.W), A: bytesOf(x.A), B: bytesOf(x.B), C: bytesOf(x.C)}
		})
	case *csbn254.R1CS:
		if err := isR1CS(r.Type); err != nil {
			return nil, err
		}
		s, err = adapt(ecc.BN254, bn254.New, r, func(x *csbn254.R1CSSolution) *Solution {
			return &Solution{R1CS: x, W: bytesOf(x.W), A: bytesOf(x.A), B: bytesOf(x.B), C: bytesOf(x.C)}
		})
	case *csbls12377.R1CS:
		if err := isR1CS(r.Type); err != nil {
			return nil, err
		}
		s, err = adapt(ecc.BLS12_377, bls12377.New, r, func(x *csbls12377.R1CSSolution) *Solution {
			return &Solution{R1CS: x, W: bytesOf(x.W), A: bytesOf(x.A), B: bytesOf(x.B), C: bytesOf(x.C)}
		})
	case *csbw6761.R1CS:
		if err := isR1CS(r.Type); err != nil {
			return nil, err
		}
		s, err = adapt(ecc.BW6_761, bw6761.New, r, func(x *csbw6761.R1CSSolution) *Solution {
			return &Solution{R1CS: x, W: bytesOf(x.W), A: bytesOf(x.A), B: bytesOf(x.B), C: bytesOf(x.C)}
		})
	default:
		return nil, fmt.Errorf("%w: the constraint system is over %s; g16 solves R1CS over %s", ErrUnsupported, fieldName(ccs), curve.SupportedNames())
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// CheckGnark returns an error when the linked gnark is not the release
// the solvers were written against.
func CheckGnark() error { return gnarkcheck.Check() }

func isR1CS(t constraint.SystemType) error {
	if t != constraint.SystemR1CS {
		return fmt.Errorf("%w: a PLONK system (SparseR1CS), not an R1CS", ErrUnsupported)
	}
	return nil
}

// fieldName names the curve whose scalar field is ccs's.
func fieldName(ccs constraint.ConstraintSystem) string {
	q := ccs.Field()
	for _, id := range []ecc.ID{ecc.BN254, ecc.BLS12_377, ecc.BLS12_381, ecc.BLS24_315, ecc.BLS24_317, ecc.BW6_761, ecc.BW6_633, ecc.SECP256K1, ecc.GRUMPKIN, ecc.STARK_CURVE} {
		if f := id.ScalarField(); f != nil && f.Cmp(q) == 0 {
			return curve.Name(id)
		}
	}
	return fmt.Sprintf("an unknown %d-bit field", q.BitLen())
}

// curveSolver is one curve's solver behind the Solver interface.
type curveSolver[Sol any] struct {
	id ecc.ID
	s  interface {
		Solve(context.Context, witness.Witness, ...csolver.Option) (Sol, error)
		Fallback() string
	}
	wrap func(Sol) *Solution
}

func adapt[R any, S interface {
	Solve(context.Context, witness.Witness, ...csolver.Option) (Sol, error)
	Fallback() string
}, Sol any](id ecc.ID, newSolver func(R) (S, error), r R, wrap func(Sol) *Solution) (Solver, error) {
	s, err := newSolver(r)
	if err != nil {
		return nil, err
	}
	return &curveSolver[Sol]{id: id, s: s, wrap: wrap}, nil
}

func (c *curveSolver[Sol]) Solve(ctx context.Context, w witness.Witness, opts ...csolver.Option) (*Solution, error) {
	sol, err := c.s.Solve(ctx, w, opts...)
	if err != nil {
		return nil, err
	}
	return c.wrap(sol), nil
}

func (c *curveSolver[Sol]) Fallback() string { return c.s.Fallback() }

func (c *curveSolver[Sol]) Curve() ecc.ID { return c.id }

// bytesOf is v's memory as bytes (not a copy).
func bytesOf[E any](v []E) []byte {
	if len(v) == 0 {
		return nil
	}
	var e E
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), len(v)*int(unsafe.Sizeof(e)))
}
