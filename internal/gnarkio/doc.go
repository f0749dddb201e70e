// Package gnarkio reads gnark's files (constraint systems, proving keys,
// witnesses) without letting corrupt input crash the process.
//
// gnark's decoders return errors for most bad input, but not all of it:
//
//   - an R1CS file's levels, instructions and call data are decoded in
//     goroutines of gnark's own (constraint.System.FromBytes), and their
//     integer decompression (github.com/ronanh/intcomp) indexes past its
//     input, or loops for ever, on corrupt blocks. A panic in those
//     goroutines kills the process: no recover in the caller can reach it;
//   - lengths read from a file (the R1CS's total length, a point slice's
//     count, a key's wire count) are allocated before the data is read, so
//     a corrupt length asks for terabytes, which is a fatal error rather
//     than a panic;
//   - a system that decodes may still hold indices (of instructions,
//     blueprints, wires, coefficients) outside its own tables, and the
//     solver, which runs levels on several goroutines, panics on them.
//
// So every reader here checks the encoding first and hands gnark only what
// it can decode: for an R1CS, the header's lengths against the data, then
// each compressed block the way intcomp will walk it (block headers in
// range, each block's length what its decoder will consume, bounded
// output), then the same decompression gnark runs, on this goroutine under
// recover, which is deterministic, so that gnark's goroutines then meet only
// input already decoded once without a panic; after gnark's decode, every
// index of every instruction. For a proving key, one streaming pass over
// the file checks every count against the bytes that follow it before
// gnark allocates anything. A witness's counts must match its length.
//
// What passes is decoded by gnark itself: the result is what gnark's
// ReadFrom gives.
//
// Files of every curve g16 proves on (package curve's table) are read: the
// curve is the one the file names (an R1CS's scalar field, a key's
// domain), and a curve g16 does not prove on is an error matching
// ErrUnsupported. A witness does not name its curve; the caller gives it
// (the R1CS's). What differs between curves (the point encodings' sizes and
// flags, the coefficient table, the on-curve check) lives in
// internal/<curve>, written by internal/generator from internal/bls12381.
package gnarkio
