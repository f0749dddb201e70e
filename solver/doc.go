// Package solver is g16's witness solver for gnark v0.16.1 R1CS, for every
// curve g16 proves on.
//
// Each curve's solver is a package of its own: solver/bls12381 (the
// reference, written once and documented there) and the packages that
// internal/generator writes from it for the other curves (solver/bn254).
// A caller that knows its curve uses that package, whose Solve returns the
// curve's *cs.R1CSSolution; New here chooses the package by the constraint
// system's curve, for callers that name no curve.
//
// Every curve's solver returns what gnark's (*cs.R1CS).Solve returns for
// the same witness and options (W, A, B and C element for element, the
// same hint calls and the same errors), or hands a circuit it cannot solve
// itself to gnark's solver as a whole and says why (Fallback).
package solver
