package main

import (
	"fmt"
	"io"
	"time"

	"github.com/g16prover/g16/groth16"
)

// printProofPhases writes one line a proof of prover name: its device
// phases as that proof measured them (the table's rows are medians taken
// row by row, so they need not add up within one proof), and its total
// without the solve and the commitments.
func printProofPhases(w io.Writer, name string, phases []groth16.PhaseTimes, totals []time.Duration) {
	for i, p := range phases {
		if i >= len(totals) {
			return
		}
		fmt.Fprintf(w, "%s proof %d: upload %s, H %s, MSM A %s, B1 %s, B2 %s, K %s, Z %s, MSMs (overlapped) %s, total − solve %s\n",
			name, i+1, fmtDur(p.Upload), fmtDur(p.H), fmtDur(p.MSMA), fmtDur(p.MSMB1), fmtDur(p.MSMB2), fmtDur(p.MSMK), fmtDur(p.MSMZ),
			fmtDur(p.MSM), fmtDur(totals[i]-p.Solve-p.Commit))
		if len(p.Spans) > 0 {
			fmt.Fprintf(w, "%s proof %d timeline (ms from the start of its device phase): %s\n", name, i+1, groth16.FormatSpans(p.Spans))
		}
	}
}
