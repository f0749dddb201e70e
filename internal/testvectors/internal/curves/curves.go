// Package curves lists the curves whose test vectors g16 checks in: for
// each, its directory below testdata/ and its package's generator and
// checks (internal/testvectors/internal/bls12381, and the copies
// internal/generator writes of it for the other curves).
package curves

import (
	"io/fs"

	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/curve"
	"github.com/g16prover/g16/internal/testvectors/internal/bls12377"
	"github.com/g16prover/g16/internal/testvectors/internal/bls12381"
	"github.com/g16prover/g16/internal/testvectors/internal/bn254"
	"github.com/g16prover/g16/internal/testvectors/internal/bw6761"
	"github.com/g16prover/g16/internal/testvectors/internal/suite"
)

// Curve is one curve's vectors.
type Curve struct {
	ID ecc.ID
	// Generate makes the curve's files, their paths relative to Dir.
	Generate func(logf func(format string, args ...any)) ([]suite.File, error)
	// Checks are a check of each vector file's records in fsys (Dir).
	Checks func(fsys fs.FS) ([]suite.Check, error)
	// CrossChecks compare a backend with the CPU backend on inputs drawn
	// from seed.
	CrossChecks func(seed uint64) []suite.Check
}

// Dir is the curve's directory below testdata/: its name in package
// curve's table ("bls12-381").
func (c Curve) Dir() string { return curve.Name(c.ID) }

// All lists the curves, in the order of package curve's table.
func All() []Curve {
	byID := map[ecc.ID]Curve{
		ecc.BLS12_381: {ID: ecc.BLS12_381, Generate: bls12381.Generate, Checks: bls12381.Checks, CrossChecks: bls12381.CrossChecks},
		ecc.BN254:     {ID: ecc.BN254, Generate: bn254.Generate, Checks: bn254.Checks, CrossChecks: bn254.CrossChecks},
		ecc.BLS12_377: {ID: ecc.BLS12_377, Generate: bls12377.Generate, Checks: bls12377.Checks, CrossChecks: bls12377.CrossChecks},
		ecc.BW6_761:   {ID: ecc.BW6_761, Generate: bw6761.Generate, Checks: bw6761.Checks, CrossChecks: bw6761.CrossChecks},
	}
	var out []Curve
	for _, id := range curve.Supported() {
		if c, ok := byID[id]; ok {
			out = append(out, c)
		}
	}
	return out
}
