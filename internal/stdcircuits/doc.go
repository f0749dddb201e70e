// Package stdcircuits builds real circuits from gnark's standard library,
// each with fresh valid assignments, for the tests and benchmarks that must
// run on what users prove rather than on synthetic systems: SHA-256 and
// SHA3-256 (std/hash), ECDSA verification over secp256k1 with emulated
// arithmetic (std/signature/ecdsa), EdDSA on Jubjub with MiMC
// (std/signature/eddsa), range checks (std/rangecheck) and log-derivative
// lookups (std/lookup/logderivlookup).
//
// Every Circuit has a shape to compile (Circuit.Shape) and an Assign that
// draws a new valid assignment from a random source, so that callers can log
// a seed and reproduce a run. Circuits are compiled for BLS12-381's scalar
// field (Compile). Range checks, lookups and the emulated arithmetic of
// ECDSA commit to their values with a BSB22 commitment, as gnark's R1CS
// builder does.
package stdcircuits
