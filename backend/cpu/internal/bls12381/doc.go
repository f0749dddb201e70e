// Package bls12381 is the CPU backend's arithmetic on BLS12-381: the NTTs,
// the quotient step and the MSMs, on gnark-crypto, over byte views of the
// device's memory in gnark-crypto's layout. Package cpu checks every
// argument and models the device; this package only computes.
//
// It is the reference from which internal/generator writes the same
// package for every other curve g16 supports (internal/bn254, ...): edit
// it here, then run go run ./internal/generator.
package bls12381
