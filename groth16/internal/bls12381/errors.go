package bls12381

import (
	"github.com/g16prover/g16/groth16/internal/core"
)

// What package groth16 exports, under the names this package uses.
var (
	ErrInput         = core.ErrInput
	ErrVerify        = core.ErrVerify
	ErrHostKeyNeeded = core.ErrHostKeyNeeded
)

type (
	PhaseTimes  = core.PhaseTimes
	Span        = core.Span
	B2Placement = core.B2Placement
)

const (
	B2Auto   = core.B2Auto
	B2Device = core.B2Device
	B2Host   = core.B2Host
)

func inputErr(format string, args ...any) error { return core.InputErr(format, args...) }

func isNil(v any) bool { return core.IsNil(v) }

func optErr(name, format string, args ...any) error { return core.OptErr(name, format, args...) }
