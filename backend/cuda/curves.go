//go:build cuda

package cuda

/*
#include "g16cuda.h"
*/
import "C"

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cuda/internal/bls12377"
	"github.com/g16prover/g16/backend/cuda/internal/bls12381"
	"github.com/g16prover/g16/backend/cuda/internal/bn254"
	"github.com/g16prover/g16/backend/cuda/internal/bw6761"
	"github.com/g16prover/g16/curve"
)

// The curve codes of sizes.go are g16cuda.h's: each array below has length
// 0 only when they agree, and fails to compile otherwise.
var (
	_ [1 - C.G16_CURVE_BLS12_381]struct{}
	_ [C.G16_CURVE_BLS12_381 - 1]struct{}
	_ [2 - C.G16_CURVE_BN254]struct{}
	_ [C.G16_CURVE_BN254 - 2]struct{}
	_ [3 - C.G16_CURVE_BLS12_377]struct{}
	_ [C.G16_CURVE_BLS12_377 - 3]struct{}
	_ [4 - C.G16_CURVE_BW6_761]struct{}
	_ [C.G16_CURVE_BW6_761 - 4]struct{}
)

// hostCurve is one curve's host side of the kernels, over bytes in the
// curve's gnark-crypto layout: internal/bls12381, or a copy of it that
// internal/generator writes. The arguments are checked before a call.
type hostCurve interface {
	// MaxLogN is the scalar field's 2-adicity.
	MaxLogN() int
	ScalarIsZero(s []byte) bool
	NInverse(logN int) []byte
	// TwiddleTables and ScaleTables build the NTT's tables (nttLayout's
	// parts, concatenated).
	TwiddleTables(logN int, inverse bool, logRoots, win, logDirect int) []byte
	ScaleTables(logN int, inverse bool, win int, shift []byte) []byte
	// SetInfinity and AddSums give an MSM's Jacobian result from its
	// passes' window sums.
	SetInfinity(g2 bool, p []byte)
	AddSums(g2 bool, acc, win []byte, nw, pairs, shift int)
}

// hosts holds the host side of every curve of kernelCurves.
var hosts = map[ecc.ID]hostCurve{
	ecc.BLS12_381: bls12381.Host{},
	ecc.BN254:     bn254.Host{},
	ecc.BLS12_377: bls12377.Host{},
	ecc.BW6_761:   bw6761.Host{},
}

// Supports returns nil for BLS12-381, BN254, BLS12-377 and BW6-761 and an error matching
// backend.ErrUnsupportedCurve for any other curve.
func (b *Backend) Supports(c ecc.ID) error { return b.supportsArg("Supports", "curve", c) }

func (b *Backend) supports(op string, c ecc.ID) error { return b.supportsArg(op, "curve", c) }

// supportsArg is nil when op's argument arg, the curve c, is one the
// kernels compute on.
func (b *Backend) supportsArg(op, arg string, c ecc.ID) error {
	if err := SupportsCurve(c); err != nil {
		return fmt.Errorf("%v: %s: %s: %w", b, op, arg, err)
	}
	return nil
}

// SupportsCurve returns nil when the kernels compute on the curve c
// (BLS12-381, BN254, BLS12-377, BW6-761), and otherwise an error matching
// backend.ErrUnsupportedCurve, without opening a device.
func SupportsCurve(c ecc.ID) error {
	if curveCode(c) == 0 {
		return fmt.Errorf("%s: %w (the CUDA kernels compute on %s)", curve.Name(c), backend.ErrUnsupportedCurve, kernelCurveNames())
	}
	return nil
}

// resultOf checks an MSM's curve and result bytes, out, a Jacobian point
// of the group of k on c, and returns the group.
func (b *Backend) resultOf(op string, c ecc.ID, k backend.Kernel, out []byte) (group, error) {
	if err := b.supports(op, c); err != nil {
		return group{}, err
	}
	g, _ := groupOf(c, k)
	if out == nil {
		return group{}, fmt.Errorf("%v: %s: out: nil result", b, op)
	}
	if want := g.jacBytes(); int64(len(out)) != want {
		return group{}, fmt.Errorf("%v: %s: out: %d bytes, a %s Jacobian point takes %d", b, op, len(out), g, want)
	}
	return g, nil
}
