package bls12381_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	solver "github.com/g16prover/g16/solver/bls12381"
)

// curveBenchCircuits are circuits over this curve's scalar field only
// (set by a file of the package that is not generated), benchmarked after
// benchCircuits' common ones.
var curveBenchCircuits []testCircuit

// benchCircuits are the circuits of the solve benchmarks; pick one with
// -bench 'Name/circuit=NAME'.
func benchCircuits() []testCircuit {
	return append([]testCircuit{
		std("sha256-400B", "sha256", 400, true),
		std("ecdsa-secp256k1", "ecdsa", 1, true),
	}, curveBenchCircuits...)
}

// BenchmarkSolve times gnark's Solve and ours on the same circuits and
// witnesses, with the same options (the commitment hint replaced by a
// hash of its inputs: neither solver computes a commitment MSM).
//
// It and the other benchmarks whose times depend on the cores loop b.N
// times, not with b.Loop: a b.Loop benchmark runs its function once, in
// the testing package's first run, which takes the GOMAXPROCS of -cpu's
// last entry whatever the entry measured (Go issue 49980; with -cpu 1,2
// both lines were two cores', Go 1.26.8).
//
//	go test ./solver -run '^$' -bench Solve -benchtime 10x
func BenchmarkSolve(b *testing.B) {
	for _, c := range benchCircuits() {
		b.Run("circuit="+c.name, func(b *testing.B) {
			cc := compile(b, c)
			seed := rand.Uint64()
			b.Logf("seed %d", seed)
			w := assignment(b, c, rand.New(rand.NewPCG(seed, 1)))
			opts := testHints(seed)
			b.Run("solver=gnark", func(b *testing.B) {
				b.ReportAllocs()
				if _, err := cc.r1cs.Solve(w, opts...); err != nil { // warm, as below
					b.Fatal(err)
				}
				cpu := cpuTime()
				b.ResetTimer()
				for range b.N { // not b.Loop: see BenchmarkSolve
					if _, err := cc.r1cs.Solve(w, opts...); err != nil {
						b.Fatal(err)
					}
				}
				reportCPU(b, cpu)
			})
			b.Run("solver=g16", func(b *testing.B) {
				b.ReportAllocs()
				// one solve untimed: it schedules the circuit for this
				// GOMAXPROCS if New did not (a Prover's first solve).
				if _, err := cc.s.Solve(context.Background(), w, opts...); err != nil {
					b.Fatal(err)
				}
				cpu := cpuTime()
				b.ResetTimer()
				for range b.N { // not b.Loop: see BenchmarkSolve
					if _, err := cc.s.Solve(context.Background(), w, opts...); err != nil {
						b.Fatal(err)
					}
				}
				reportCPU(b, cpu)
			})
		})
	}
}

// reportCPU reports the process's CPU time per op since start: on a shared
// machine, where wall times depend on the other load, this is the work a
// solve does (the garbage collector's included).
func reportCPU(b *testing.B, start time.Duration) {
	if b.N > 0 && start > 0 {
		b.ReportMetric(float64(cpuTime()-start)/1e6/float64(b.N), "cpu-ms/op")
	}
}

// BenchmarkNew times the preparation of a circuit's solver.
func BenchmarkNew(b *testing.B) {
	c := std("sha256-400B", "sha256", 400, true)
	cc := compile(b, c)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N { // not b.Loop: see BenchmarkSolve
		if _, err := solver.New(cc.r1cs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSchedule reports, for the benchmark circuits, the speedup over
// one worker that the solve's schedule allows on 2 to 16 workers in a model
// (SimulatedSpeedup: estimated instruction costs, 8 units ≈ 100 ns a
// wait), the schedule's chunks and waits, and the share of the wires read
// that another worker solved (RemoteReads). It measures no time; it says
// how far the schedule itself would let a solve scale.
//
//	go test ./solver -run '^$' -bench Schedule -benchtime 1x
func BenchmarkSchedule(b *testing.B) {
	for _, c := range benchCircuits() {
		b.Run("circuit="+c.name, func(b *testing.B) {
			cc := compile(b, c)
			for b.Loop() {
			}
			total, levelMax, path, top := cc.s.Shape()
			b.Logf("work %d, Σ levels' costliest %d, costliest path %d; costliest: %v", total, levelMax, path, top)
			for _, nt := range []int{2, 4, 8, 16} {
				chunks, waits := cc.s.ScheduleStats(nt)
				reads, remote := cc.s.RemoteReads(nt)
				b.Logf("%2d workers: %6d chunks, %6d waits, model speedup %.2f, %.0f%% of %d wire reads from another worker",
					nt, chunks, waits, cc.s.SimulatedSpeedup(nt, 8), 100*float64(remote)/float64(reads), reads)
				b.ReportMetric(cc.s.SimulatedSpeedup(nt, 8), fmt.Sprintf("speedup-%d", nt))
			}
		})
	}
}

// BenchmarkConcurrentSolves solves sha256-400B k times at once (a batch's
// partitions on the host), each solve on its share of the cores (the
// default: GOMAXPROCS / solves in flight) or on every core; ns/op is the
// wall time of one solve's share, a batch's time over its partitions.
//
//	go test ./solver -run '^$' -bench ConcurrentSolves -benchtime 4x
func BenchmarkConcurrentSolves(b *testing.B) {
	c := std("sha256-400B", "sha256", 400, true)
	cc := compile(b, c)
	seed := rand.Uint64()
	b.Logf("seed %d", seed)
	w := assignment(b, c, rand.New(rand.NewPCG(seed, 1)))
	opts := testHints(seed)
	procs := runtime.GOMAXPROCS(0)
	for _, k := range []int{1, 2, 4} {
		for _, mode := range []string{"shared", "every-core"} {
			if k == 1 && mode == "every-core" {
				continue // the same as shared
			}
			b.Run(fmt.Sprintf("solves=%d/workers=%s", k, mode), func(b *testing.B) {
				if mode == "every-core" {
					defer solver.SetTasks(procs)()
				}
				round := func() {
					var wg sync.WaitGroup
					errs := make([]error, k)
					for i := 0; i < k; i++ {
						wg.Add(1)
						go func() {
							defer wg.Done()
							_, errs[i] = cc.s.Solve(context.Background(), w, opts...)
						}()
					}
					wg.Wait()
					for _, err := range errs {
						if err != nil {
							b.Fatal(err)
						}
					}
				}
				round() // untimed: schedules the circuit for the workers each solve gets
				cpu := cpuTime()
				b.ResetTimer()
				for range b.N { // not b.Loop: see BenchmarkSolve
					round()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*k), "ns/solve")
				if b.N > 0 {
					b.ReportMetric(float64(cpuTime()-cpu)/1e6/float64(b.N*k), "cpu-ms/solve")
				}
			})
		}
	}
}

// BenchmarkCriticalPath reports what bounds a solve on many cores: the
// longest chain of instructions in the wire-dependency graph, the
// costliest chain (estimated cost units, the large instructions that a
// solve cuts into parts taken as cut over 16 cores), and the total work;
// ns/op is one solve on one goroutine, from which the time per
// instruction and per cost unit, and so the chain's and the work's times,
// are estimated. bound-16-ms is the larger of the costliest chain and a
// sixteenth of the work: no 16-core solve on this schedule's costs is
// faster.
//
//	go test ./solver/bls12381 -run '^$' -bench CriticalPath -benchtime 5x -cpu 1
func BenchmarkCriticalPath(b *testing.B) {
	for _, c := range benchCircuits() {
		b.Run("circuit="+c.name, func(b *testing.B) {
			cc := compile(b, c)
			seed := rand.Uint64()
			b.Logf("seed %d", seed)
			w := assignment(b, c, rand.New(rand.NewPCG(seed, 1)))
			opts := testHints(seed)
			defer solver.SetTasks(1)()
			if _, err := cc.s.Solve(context.Background(), w, opts...); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := cc.s.Solve(context.Background(), w, opts...); err != nil {
					b.Fatal(err)
				}
			}
			one := float64(b.Elapsed().Nanoseconds()) / float64(b.N) // ns, one solve on one goroutine
			ps := cc.s.CriticalPath(16)
			perOp, perUnit := one/float64(ps.Ops), one/float64(ps.Work)
			chainOps := float64(ps.PathOps) * perOp / 1e6
			chain := float64(ps.Path) * perUnit / 1e6
			work := float64(ps.Work) * perUnit / 1e6
			b.Logf("%d instructions (%d R1Cs solve a wire, %d are checks: %.0f%% of the work), work %d units: %.1f ns an instruction, %.2f ns a unit",
				ps.Ops, ps.Solving, ps.Checks, 100*float64(ps.CheckWork)/float64(ps.Work), ps.Work, perOp, perUnit)
			b.Logf("longest chain %d instructions ≈ %.2f ms; costliest chain on 16 cores %d units, %d instructions ≈ %.2f ms; work/16 ≈ %.2f ms; by kind: %v",
				ps.PathOps, chainOps, ps.Path, ps.PathLinks, chain, work/16, ps.PathKinds)
			b.ReportMetric(float64(ps.PathOps), "chain-ops")
			b.ReportMetric(chain, "chain-16-ms")
			b.ReportMetric(max(chain, work/16), "bound-16-ms")
		})
	}
}

// BenchmarkOpCosts times every instruction of a solve on one goroutine
// (each alone, the least of 3 times: OpTimes) and reports, by kind of instruction, the time
// against the schedule's estimated cost, and the speedup the 16-worker
// schedule allows with the measured times (waits of 100 ns) beside the
// one its estimates predict, and the speedup of a schedule built on the
// measured times: how far the estimates' errors unbalance it.
//
//	go test ./solver/bls12381 -run '^$' -bench OpCosts -benchtime 1x -cpu 1
func BenchmarkOpCosts(b *testing.B) {
	for _, c := range benchCircuits() {
		b.Run("circuit="+c.name, func(b *testing.B) {
			cc := compile(b, c)
			seed := rand.Uint64()
			b.Logf("seed %d", seed)
			w := assignment(b, c, rand.New(rand.NewPCG(seed, 1)))
			opts := testHints(seed)
			var ns []int64
			for b.Loop() {
				var err error
				var clock int64
				if ns, clock, err = cc.s.OpTimes(w, 3, opts...); err != nil {
					b.Fatal(err)
				}
				b.Logf("a clock reading: %d ns", clock)
			}
			type kind struct {
				n        int
				ns, est  int64
				maxRatio float64
			}
			kinds := map[string]*kind{}
			var total, est int64
			for i, t := range ns {
				k := kinds[cc.s.KindName(i)]
				if k == nil {
					k = &kind{}
					kinds[cc.s.KindName(i)] = k
				}
				e := cc.s.EstimatedCost(i)
				k.n++
				k.ns += t
				k.est += e
				total += t
				est += e
			}
			unit := float64(total) / float64(est) // ns a unit, over the whole solve
			names := make([]string, 0, len(kinds))
			for name := range kinds {
				names = append(names, name)
			}
			slices.SortFunc(names, func(x, y string) int { return int(kinds[y].ns - kinds[x].ns) })
			b.Logf("%d instructions, %.1f ms one at a time, %.2f ns a unit", len(ns), float64(total)/1e6, unit)
			for _, name := range names {
				k := kinds[name]
				b.Logf("%-40s %7d  %7.2f ms  %5.1f%%  measured/estimated %.2f", name, k.n, float64(k.ns)/1e6, 100*float64(k.ns)/float64(total), float64(k.ns)/(float64(k.est)*unit))
			}
			for _, nt := range []int{2, 16} {
				model := cc.s.SimulatedSpeedup(nt, 8)
				measured := cc.s.SimulatedSpeedupOf(nt, 100, ns)
				restore := cc.s.ScheduleOn(ns)
				ideal := cc.s.SimulatedSpeedupOf(nt, 100, ns)
				restore()
				b.Logf("%2d workers: speedup %.2f on the estimates, %.2f on the measured times (%.1f ms), %.2f scheduled on the measured times",
					nt, model, measured, float64(total)/1e6/measured, ideal)
				b.ReportMetric(measured, fmt.Sprintf("speedup-%d", nt))
			}
		})
	}
}
