package cpu

import (
	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu/internal/bls12377"
	"github.com/g16prover/g16/backend/cpu/internal/bls12381"
	"github.com/g16prover/g16/backend/cpu/internal/bn254"
	"github.com/g16prover/g16/backend/cpu/internal/bw6761"
	"github.com/g16prover/g16/curve"
)

// kernels is one curve's arithmetic over byte views of device memory, in
// the curve's gnark-crypto layout. Every curve's implementation is
// internal/bls12381 or a copy of it that internal/generator writes; the
// arguments are checked before a call.
type kernels interface {
	MaxLogN() int
	ScalarIsZero(s []byte) bool
	NTT(data []byte, logN int, inverse, dit bool, shift []byte, tasks int, keep func(logN int) bool)
	HasTables(logN int, keep func(logN int) bool) bool
	Quotient(a, b, c, zInv []byte, parallel func(n int, f func(lo, hi int)))
	MSM(g2 bool, out, bases, scalars []byte, tasks int) error
	AddJac(g2 bool, r, p []byte)
}

// newKernels returns a device's kernels for every curve it computes on.
func newKernels() map[ecc.ID]kernels {
	return map[ecc.ID]kernels{
		ecc.BLS12_381: bls12381.New(),
		ecc.BN254:     bn254.New(),
		ecc.BLS12_377: bls12377.New(),
		ecc.BW6_761:   bw6761.New(),
	}
}

// Supports returns nil for every curve in package curve's table.
func (b *Backend) Supports(c ecc.ID) error {
	_, _, err := b.curve(OpSupports, "curve", c)
	return err
}

// curve returns c, op's argument arg, with its parameters and kernels, or
// an error matching backend.ErrUnsupportedCurve.
func (b *Backend) curve(op Op, arg string, c ecc.ID) (*curve.Params, kernels, error) {
	k, ok := b.kernels[c]
	if !ok {
		return nil, nil, b.errorf(op, "%s: %s: %w (it computes on %s)", arg, curve.Name(c), backend.ErrUnsupportedCurve, curve.SupportedNames())
	}
	return curve.Must(c), k, nil
}
