// Reference only: internal/generator does not copy this file.

package bls12381_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	cs "github.com/consensys/gnark/constraint/bls12-381"

	"github.com/g16prover/g16/internal/synth"
	solver "github.com/g16prover/g16/solver/bls12381"
)

// BenchmarkSolvePorep solves the PoRep-shaped circuit of internal/synth
// (many independent lanes, mostly bit wires; BLS12-381 only) at 2^20 and
// 2^22 constraints, with fresh vectors each solve (solve=fresh) and into
// the vectors of the previous solution (solve=into, as a batch reuses
// them).
//
//	go test ./solver/bls12381 -run '^$' -bench SolvePorep -benchtime 5x -cpu 1,2
func BenchmarkSolvePorep(b *testing.B) {
	for _, logn := range []int{20, 22} {
		b.Run(fmt.Sprintf("n=2^%d", logn), func(b *testing.B) {
			ccs, shape, err := synth.CompilePorep(1<<logn, synth.PorepTailDefault)
			if err != nil {
				b.Fatal(err)
			}
			r := ccs.(*cs.R1CS)
			seed := rand.Uint64()
			b.Logf("seed %d, %d constraints", seed, r.GetNbConstraints())
			w, err := synth.PorepWitness(shape, seed)
			if err != nil {
				b.Fatal(err)
			}
			s, err := solver.New(r)
			if err != nil {
				b.Fatal(err)
			}
			if reason := s.Fallback(); reason != "" {
				b.Fatalf("falls back to gnark: %s", reason)
			}
			ps := s.CriticalPath(16)
			b.Logf("%d instructions (%d checks), longest chain %d, costliest chain on 16 cores %d of %d units", ps.Ops, ps.Checks, ps.PathOps, ps.Path, ps.Work)
			for _, nt := range []int{2, 16} {
				chunks, waits := s.ScheduleStats(nt)
				reads, remote := s.RemoteReads(nt)
				b.Logf("%2d workers: %d chunks, %d waits, model speedup %.2f, %.0f%% of %d wire reads from another worker",
					nt, chunks, waits, s.SimulatedSpeedup(nt, 8), 100*float64(remote)/float64(reads), reads)
			}
			for _, mode := range []string{"fresh", "into"} {
				b.Run("solve="+mode, func(b *testing.B) {
					b.ReportAllocs()
					sol, err := s.Solve(context.Background(), w)
					if err != nil {
						b.Fatal(err)
					}
					cpu := cpuTime()
					b.ResetTimer()
					for range b.N { // not b.Loop: see BenchmarkSolve
						var buf solver.Vectors
						if mode == "into" {
							buf = solver.Vectors{W: sol.W, A: sol.A, B: sol.B, C: sol.C}
						}
						if sol, err = s.SolveInto(context.Background(), w, buf); err != nil {
							b.Fatal(err)
						}
					}
					reportCPU(b, cpu)
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(r.GetNbConstraints()), "ns/constraint")
				})
			}
		})
	}
}
