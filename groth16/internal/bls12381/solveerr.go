package bls12381

import (
	"context"
	"errors"
	"fmt"
)

// A solve fails for one of three reasons: the witness does not satisfy the
// circuit (or a hint rejects its values), ctx ended, or a commitment's MSMs
// failed on the device the solver's hint ran them on (commit.go). Only the
// first is bad input.

// deviceErr marks an error of device work run from within the solver, so
// that solveErr does not report it as bad input. It reads as what it wraps.
type deviceErr struct{ err error }

func (e *deviceErr) Error() string { return e.err.Error() }
func (e *deviceErr) Unwrap() error { return e.err }

// rejectedWitness is the solver's error for a witness it rejects: its
// message is the solver's (which names the constraint), and it matches
// ErrInput beside what it wraps.
type rejectedWitness struct{ err error }

func (e *rejectedWitness) Error() string        { return "groth16: solving the circuit: " + e.err.Error() }
func (e *rejectedWitness) Unwrap() error        { return e.err }
func (e *rejectedWitness) Is(target error) bool { return target == ErrInput }

// solveErr reports err, the solver's: matching ErrInput unless the solve
// stopped because ctx ended or device work failed.
func solveErr(err error) error {
	var dev *deviceErr
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.As(err, &dev) {
		return fmt.Errorf("groth16: solving the circuit: %w", err)
	}
	return &rejectedWitness{err}
}
