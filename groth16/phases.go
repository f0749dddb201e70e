package groth16

import "github.com/g16prover/g16/groth16/internal/core"

// PhaseTimes is how long each phase of one proof took (WithPhaseTimes):
// the solve, the commitments, the upload, H, each MSM, the assembly and
// the verification, with the device plan and the device phase's spans.
// The MSMs run concurrently, so their times overlap.
type PhaseTimes = core.PhaseTimes

// Span is one step of a proof's device work (an upload, H, one MSM): when
// it started and ended, from the start of the proof's device phase.
type Span = core.Span

// FormatSpans is spans in order of their start, "; " between them.
func FormatSpans(spans []Span) string { return core.FormatSpans(spans) }
