// Package testvectors holds g16's shared test vectors and the conformance
// suite that every backend.Backend must pass.
//
// The vectors (testdata/, a directory per curve g16 supports, embedded
// in any binary that links this package) were written by gnark-crypto and
// gnark at pinned versions; each directory's README.md says how each file
// was made, and `go run ./internal/testvectors/gen -check` proves the
// files are what the generator writes. The generator and the checks of a
// curve's vectors are written once, in internal/bls12381, whose copies
// for the other curves internal/generator writes; BLS12-381's vectors are
// the largest, the other curves' smaller (suite.SizesFor). They cover, on
// every curve:
//
//   - NTT: every variant of backend.NTTSpec (forward and inverse, plain
//     and on a coset, DIF and DIT orders) at sizes 2^1 to 2^14 (2^10 on
//     the smaller curves);
//   - H: the prover's quotient step, (a·b − c)/(Xⁿ − 1) on a coset, made of
//     seven NTTs and QuotientStep, as gnark's prover computes it;
//   - MSMG1, MSMG2: random vectors of many lengths and the edge cases
//     Pippenger implementations get wrong (scalars 0, 1, r−1, (r±1)/2,
//     window digits at their extremes, the point at infinity, P beside
//     −P, repeated bases, witness-like scalars);
//   - Proof: whole proofs from gnark's prover, which g16's groth16.Prove
//     must reproduce byte for byte on the backend under test, and which
//     gnark's Verify accepts.
//
// The Concurrent group runs some of those vectors from several goroutines
// at once on one backend. Beyond the fixed vectors, the Cross group draws fresh random inputs on
// every run (from a seed it reports) and compares the backend with the CPU
// backend.
//
// Each check is named after its group, curve and vector, e.g.
// "MSMG1/bn254/len=7/edge=r-1", and an error from it starts with that
// name. RunConformance runs the suite
// as subtests of a Go test; SelfTest runs it outside the testing package
// (the `g16 selftest` command) and prints a line per group; Checks and
// CrossChecks give the checks themselves.
//
// The suite checks results, not speed; it does not test a backend's
// memory model or device-global calls (package pool's tests do).
package testvectors
