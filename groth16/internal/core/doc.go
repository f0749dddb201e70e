// Package core is what package groth16 and its per-curve provers share,
// written once for every curve: the errors, the settings of NewProver and
// of each call, phase times and spans, and the interfaces through which
// groth16 drives the prover of a constraint system's curve.
//
// Each curve's prover (groth16/internal/bls12381, the reference, and its
// generated copies) implements Prover and DeviceKey; package groth16
// chooses one by the curve of the constraint system and key it is given.
package core
