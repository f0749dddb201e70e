package core

import "time"

// PhaseTimes is how long each phase of one proof took. The MSMs run
// concurrently, so their times overlap.
type PhaseTimes struct {
	Solve    time.Duration // solving the R1CS and filtering the wires, Commit excluded
	Commit   time.Duration // the BSB22 commitments' MSMs (on the device), within the solve
	Upload   time.Duration // moving a, b, c and the wire values to the device
	H        time.Duration // seven NTTs and the quotient step
	MSMA     time.Duration // Σ wᵢ[Aᵢ]₁
	MSMB1    time.Duration // Σ wᵢ[Bᵢ]₁
	MSMB2    time.Duration // Σ wᵢ[Bᵢ]₂
	MSMK     time.Duration // Σ wᵢ[Kᵢ]₁
	MSMZ     time.Duration // Σ hᵢ[Zᵢ]₁
	MSM      time.Duration // all MSMs, start of the first to end of the last
	Assemble time.Duration // Ar, Bs, Krs from the MSM results
	Verify   time.Duration // gnark's verifier on the proof (WithVerify)

	// SolverFallback is empty when g16's witness solver solved the
	// circuit, and otherwise says why gnark's solver did.
	SolverFallback string

	// Plan is how the device held the key and ran the MSMs: "key
	// resident", "key resident, MSMs one at a time", or "key streamed,
	// chunks of N points" when the key did not fit beside the partition;
	// then, unless B2Auto kept it on a host-bound device, where the G2 MSM
	// of B ran and why ("B2 on the device (cost model: …)", "B2 on the
	// host, …").
	Plan string

	// Spans is when each upload, H and each MSM of the device phase ran,
	// from the phase's start, when the MSMs ran side by side on a
	// resident key (FormatSpans writes them).
	Spans []Span
}
