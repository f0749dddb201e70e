// Package bls12381 is the host side of the CUDA kernels on BLS12-381, in
// pure Go on gnark-crypto: an MSM's window sums, XYZZ points as the
// kernels write them, added into the Jacobian result; the NTT's twiddle and
// scale tables and n⁻¹. Values cross as bytes in gnark-crypto's layout
// (package curve's sizes); package cuda checks every argument, calls the
// kernels, and picks this package or a copy by the curve's ecc.ID.
//
// It is the reference from which internal/generator writes the same
// package for every other curve g16 supports (internal/bn254, ...): edit
// it here, then run go run ./internal/generator.
package bls12381
