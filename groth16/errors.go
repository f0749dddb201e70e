package groth16

import "github.com/g16prover/g16/groth16/internal/core"

// ErrInput is matched (errors.Is) by every error that reports bad input:
// a wrong curve, a missing or mismatched key, a malformed witness, a
// witness that does not satisfy the circuit.
var ErrInput = core.ErrInput

// ErrVerify is matched (errors.Is) by the error of a proof that WithVerify's
// check rejected.
var ErrVerify = core.ErrVerify

// ErrHostKeyNeeded is matched by NewDeviceKeyFrom's error when the key does
// not fit the device: a key that does not fit streams its bases from a
// host copy, which a BaseSource key does not have.
var ErrHostKeyNeeded = core.ErrHostKeyNeeded

func inputErr(format string, args ...any) error { return core.InputErr(format, args...) }
func isNil(v any) bool                          { return core.IsNil(v) }
