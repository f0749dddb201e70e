package main

import (
	"strings"
	"testing"
	"time"

	"github.com/g16prover/g16/groth16"
)

// TestPrintProofPhases: one line a proof, with that proof's own phases and
// its total less the solve and the commitments.
func TestPrintProofPhases(t *testing.T) {
	var b strings.Builder
	phases := []groth16.PhaseTimes{
		{Solve: 3 * time.Second, Commit: 4 * time.Millisecond, H: 200 * time.Millisecond, MSMZ: 150 * time.Millisecond, MSM: 700 * time.Millisecond,
			Spans: []groth16.Span{{Name: "MSM Z", Start: 450 * time.Millisecond, End: 600 * time.Millisecond}, {Name: "MSM B2", Start: 0, End: 700 * time.Millisecond}}},
		{Solve: 2 * time.Second, MSM: 600 * time.Millisecond},
	}
	printProofPhases(&b, "g16 cuda:0", phases, []time.Duration{3734 * time.Millisecond, 2650 * time.Millisecond})
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3:\n%s", len(lines), b.String())
	}
	for i, want := range [][]string{
		{"g16 cuda:0 proof 1:", "H 200.0ms", "Z 150.0ms", "MSMs (overlapped) 700.0ms", "total − solve 730.0ms"},
		{"g16 cuda:0 proof 1 timeline", "MSM B2 0.0–700.0; MSM Z 450.0–600.0"},
		{"g16 cuda:0 proof 2:", "MSMs (overlapped) 600.0ms", "total − solve 650.0ms"},
	} {
		for _, w := range want {
			if !strings.Contains(lines[i], w) {
				t.Errorf("line %d %q lacks %q", i+1, lines[i], w)
			}
		}
	}
}
