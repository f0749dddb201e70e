//go:build cuda

package cuda

import (
	"fmt"
	mrand "math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
)

// Benchmarks. BenchmarkMSMG1 and BenchmarkMSMG2 are the usual Go
// benchmarks (sizes from G16_BENCH_LOGS, default 16,20), with sub-benchmarks
// backend=cuda/resident (bases already on the device), backend=cuda/upload
// (bases and scalars uploaded each time) and backend=gnark (MultiExp on the
// host's cores). TestMSMTable, run when G16_MSM_TABLE=1, times the sizes of
// BENCHMARKS.md in one run and prints a table with the GPU/CPU ratios and
// where the GPU time goes.

func benchLogs(env, def string) []int {
	s := os.Getenv(env)
	if s == "" {
		s = def
	}
	var logs []int
	for _, f := range strings.Split(s, ",") {
		if k, err := strconv.Atoi(strings.TrimSpace(f)); err == nil {
			logs = append(logs, k)
		}
	}
	return logs
}

func BenchmarkMSMG1(b *testing.B) {
	logs := benchLogs("G16_BENCH_LOGS", "16,20")
	g := newTestBackend(b)
	rng := testRand(b)
	n := 1 << slices.Max(logs)
	p, s := randG1(rng, n), randScalars(rng, n)
	bb, sb := upload(b, g, p), upload(b, g, s)
	for _, k := range logs {
		m := 1 << k
		b.Run(fmt.Sprintf("backend=cuda/resident/n=2^%d", k), func(b *testing.B) {
			var r bls12381.G1Jac
			b.ReportAllocs()
			for b.Loop() {
				if err := g.MSMG1(nil, ecc.BLS12_381, backend.ValueBytes(&r), bb, 0, sb, m); err != nil {
					b.Fatal(err)
				}
			}
			reportTiming(b, g.LastMSMTiming())
		})
		b.Run(fmt.Sprintf("backend=cuda/upload/n=2^%d", k), func(b *testing.B) {
			var r bls12381.G1Jac
			for b.Loop() {
				pb, ss := upload(b, g, p[:m]), upload(b, g, s[:m])
				if err := g.MSMG1(nil, ecc.BLS12_381, backend.ValueBytes(&r), pb, 0, ss, m); err != nil {
					b.Fatal(err)
				}
				g.Free(nil, pb)
				g.Free(nil, ss)
			}
		})
		b.Run(fmt.Sprintf("backend=gnark/n=2^%d", k), func(b *testing.B) {
			for b.Loop() {
				refG1(p[:m], s[:m])
			}
		})
	}
}

func BenchmarkMSMG2(b *testing.B) {
	logs := benchLogs("G16_BENCH_LOGS", "16,20")
	g := newTestBackend(b)
	rng := testRand(b)
	n := 1 << slices.Max(logs)
	p, s := randG2(rng, n), randScalars(rng, n)
	bb, sb := upload(b, g, p), upload(b, g, s)
	for _, k := range logs {
		m := 1 << k
		b.Run(fmt.Sprintf("backend=cuda/resident/n=2^%d", k), func(b *testing.B) {
			var r bls12381.G2Jac
			for b.Loop() {
				if err := g.MSMG2(nil, ecc.BLS12_381, backend.ValueBytes(&r), bb, 0, sb, m); err != nil {
					b.Fatal(err)
				}
			}
			reportTiming(b, g.LastMSMTiming())
		})
		b.Run(fmt.Sprintf("backend=gnark/n=2^%d", k), func(b *testing.B) {
			for b.Loop() {
				refG2(p[:m], s[:m])
			}
		})
	}
}

func reportTiming(b *testing.B, t MSMTiming) {
	b.ReportMetric(t.Total, "gpu-ms")
	b.ReportMetric(t.Accumulate, "accum-ms")
	b.ReportMetric(t.Sort, "sort-ms")
	b.ReportMetric(float64(t.Window), "window")
}

// median runs f reps times and returns the median duration.
func median(reps int, f func()) time.Duration {
	d := make([]time.Duration, reps)
	for i := range d {
		t0 := time.Now()
		f()
		d[i] = time.Since(t0)
	}
	slices.Sort(d)
	return d[reps/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// TestMSMTable times G1 and G2 MSMs on the GPU (bases resident, median of
// three, after a warm-up; and with bases and scalars uploaded) and with
// gnark-crypto on the host, in one run. G16_MSM_TABLE=1 enables it;
// G16_TABLE_G1, G16_TABLE_G2 (log sizes), G16_TABLE_CPU_MAX (largest log size
// run on the CPU), G16_TABLE_SWEEP (window:flags[:task[:copies]] variants
// tried at the largest G1 size below 2^26, or at G16_TABLE_SWEEP_LOG, one of
// G16_TABLE_G1's sizes; sweepVariants), G16_TABLE_SWEEP2 (the same at the largest G2 size) and
// G16_TABLE_01 (log sizes of the 0/1-heavy rows: 90% of the scalars 0 or 1,
// with the split of the ±1 points and without it; default 20,24 for G1, the
// G2 sizes up to 2^22 for G2) adjust it.
func TestMSMTable(t *testing.T) {
	if os.Getenv("G16_MSM_TABLE") != "1" {
		t.Skip("set G16_MSM_TABLE=1")
	}
	g := newTestBackend(t)
	rng := testRand(t)
	cpuMax := 24
	if v := benchLogs("G16_TABLE_CPU_MAX", "24"); len(v) > 0 {
		cpuMax = v[0]
	}
	t.Logf("device %s; host %d cores (GOMAXPROCS %d)", g.Description(), runtime.NumCPU(), runtime.GOMAXPROCS(0))
	var rows []string
	row := func(curve string, k int, res, up, cpu time.Duration, tm MSMTiming) {
		ratio, cpuS := "-", "-"
		if cpu > 0 {
			cpuS = fmt.Sprintf("%.1f", ms(cpu))
			ratio = fmt.Sprintf("%.1f×", float64(cpu)/float64(res))
		}
		rows = append(rows, fmt.Sprintf("| %s | 2^%d | %.2f | %.2f | %s | %s | w=%d: split %.1f, digits %.1f, sort %.1f, plan %.1f, accumulate %.1f, reduce %.1f (events %.1f) |",
			curve, k, ms(res), ms(up), cpuS, ratio, tm.Window, tm.Split, tm.Digits, tm.Sort, tm.Plan, tm.Accumulate, tm.Reduce, tm.Total))
		t.Log(rows[len(rows)-1])
	}

	g1Logs := benchLogs("G16_TABLE_G1", "16,20,22,24,26")
	if len(g1Logs) > 0 {
		n := 1 << slices.Max(g1Logs)
		t0 := time.Now()
		p, s := randG1(rng, n), randScalars(rng, n)
		t.Logf("G1: %d random points in %v", n, time.Since(t0))
		t0 = time.Now()
		bb, sb := upload(t, g, p), upload(t, g, s)
		if err := g.Sync(); err != nil {
			t.Fatal(err)
		}
		el := time.Since(t0)
		t.Logf("G1: uploaded %.2f GB in %v (%.1f GB/s)", float64(n)*128/1e9, el, float64(n)*128/1e9/el.Seconds())
		for _, k := range g1Logs {
			m := 1 << k
			var r bls12381.G1Jac
			run := func() {
				if err := g.MSMG1(nil, ecc.BLS12_381, backend.ValueBytes(&r), bb, 0, sb, m); err != nil {
					t.Fatalf("MSMG1 2^%d: %v", k, err)
				}
			}
			run()
			res := median(3, run)
			tm := g.LastMSMTiming()
			up := median(1, func() {
				pb, ss := upload(t, g, p[:m]), upload(t, g, s[:m])
				if err := g.MSMG1(nil, ecc.BLS12_381, backend.ValueBytes(&r), pb, 0, ss, m); err != nil {
					t.Fatalf("MSMG1 2^%d: %v", k, err)
				}
				g.Free(nil, pb)
				g.Free(nil, ss)
			})
			var cpu time.Duration
			if k <= cpuMax {
				var want bls12381.G1Jac
				cpu = median(1, func() { want = refG1(p[:m], s[:m]) })
				if !r.Equal(&want) {
					t.Errorf("G1 2^%d: GPU differs from gnark", k)
				}
			}
			row("G1", k, res, up, cpu, tm)
		}
		heavyRows(t, "G1", g1Logs, cpuMax, rng, &rows, func(gw *Backend, m int, sc backend.Buffer) (func() bls12381.G1Jac, func()) {
			bw := upload(t, gw, p[:m])
			return func() bls12381.G1Jac {
				var r bls12381.G1Jac
				if err := gw.MSMG1(nil, ecc.BLS12_381, backend.ValueBytes(&r), bw, 0, sc, m); err != nil {
					t.Fatalf("MSMG1 0/1-heavy 2^%d: %v", m, err)
				}
				return r
			}, func() { gw.Free(nil, bw) }
		}, func(m int, sc []fr.Element) bls12381.G1Jac { return refG1(p[:m], sc) },
			func(a, b bls12381.G1Jac) bool { return a.Equal(&b) })
		// Variants at the largest size below 2^26, or at the size
		// G16_TABLE_SWEEP_LOG names among G16_TABLE_G1's (G16_TABLE_SWEEP).
		kk := largestBelow(g1Logs, 26)
		if v := benchLogs("G16_TABLE_SWEEP_LOG", ""); len(v) > 0 {
			if !slices.Contains(g1Logs, v[0]) {
				t.Fatalf("G16_TABLE_SWEEP_LOG=%d is not among G16_TABLE_G1's sizes %v", v[0], g1Logs)
			}
			kk = v[0]
		}
		var want bls12381.G1Jac
		if sweep := os.Getenv("G16_TABLE_SWEEP"); sweep != "" && kk > 0 {
			if err := g.MSMG1(nil, ecc.BLS12_381, backend.ValueBytes(&want), bb, 0, sb, 1<<kk); err != nil {
				t.Fatal(err)
			}
			sweepVariants(t, "G1", kk, backend.KernelMSMG1, sweep, func(gw *Backend) (func() bls12381.G1Jac, backend.Buffer) {
				bw, sw := upload(t, gw, p[:1<<kk]), upload(t, gw, s[:1<<kk])
				return func() bls12381.G1Jac {
					var r bls12381.G1Jac
					if err := gw.MSMG1(nil, ecc.BLS12_381, backend.ValueBytes(&r), bw, 0, sw, 1<<kk); err != nil {
						t.Fatalf("MSMG1: %v", err)
					}
					return r
				}, bw
			}, func(r bls12381.G1Jac) bool { return r.Equal(&want) })
		}
		g.Free(nil, bb)
		g.Free(nil, sb)
		p, s = nil, nil
		runtime.GC()
	}

	g2Logs := benchLogs("G16_TABLE_G2", "20,22,24")
	if len(g2Logs) > 0 {
		n := 1 << slices.Max(g2Logs)
		t0 := time.Now()
		p, s := randG2(rng, n), randScalars(rng, n)
		t.Logf("G2: %d random points in %v", n, time.Since(t0))
		bb, sb := upload(t, g, p), upload(t, g, s)
		for _, k := range g2Logs {
			m := 1 << k
			var r bls12381.G2Jac
			run := func() {
				if err := g.MSMG2(nil, ecc.BLS12_381, backend.ValueBytes(&r), bb, 0, sb, m); err != nil {
					t.Fatalf("MSMG2 2^%d: %v", k, err)
				}
			}
			run()
			res := median(3, run)
			tm := g.LastMSMTiming()
			up := median(1, func() {
				pb, ss := upload(t, g, p[:m]), upload(t, g, s[:m])
				if err := g.MSMG2(nil, ecc.BLS12_381, backend.ValueBytes(&r), pb, 0, ss, m); err != nil {
					t.Fatalf("MSMG2 2^%d: %v", k, err)
				}
				g.Free(nil, pb)
				g.Free(nil, ss)
			})
			var cpu time.Duration
			if k <= cpuMax {
				var want bls12381.G2Jac
				cpu = median(1, func() { want = refG2(p[:m], s[:m]) })
				if !r.Equal(&want) {
					t.Errorf("G2 2^%d: GPU differs from gnark", k)
				}
			}
			row("G2", k, res, up, cpu, tm)
		}
		var g2Heavy []int
		for _, k := range g2Logs {
			if k <= 22 {
				g2Heavy = append(g2Heavy, k)
			}
		}
		heavyRows(t, "G2", g2Heavy, cpuMax, rng, &rows, func(gw *Backend, m int, sc backend.Buffer) (func() bls12381.G2Jac, func()) {
			bw := upload(t, gw, p[:m])
			return func() bls12381.G2Jac {
				var r bls12381.G2Jac
				if err := gw.MSMG2(nil, ecc.BLS12_381, backend.ValueBytes(&r), bw, 0, sc, m); err != nil {
					t.Fatalf("MSMG2 0/1-heavy 2^%d: %v", m, err)
				}
				return r
			}, func() { gw.Free(nil, bw) }
		}, func(m int, sc []fr.Element) bls12381.G2Jac { return refG2(p[:m], sc) },
			func(a, b bls12381.G2Jac) bool { return a.Equal(&b) })
		// Variants at the largest G2 size (G16_TABLE_SWEEP2).
		kk := largestBelow(g2Logs, 64)
		var want bls12381.G2Jac
		if sweep := os.Getenv("G16_TABLE_SWEEP2"); sweep != "" && kk > 0 {
			if err := g.MSMG2(nil, ecc.BLS12_381, backend.ValueBytes(&want), bb, 0, sb, 1<<kk); err != nil {
				t.Fatal(err)
			}
			sweepVariants(t, "G2", kk, backend.KernelMSMG2, sweep, func(gw *Backend) (func() bls12381.G2Jac, backend.Buffer) {
				bw, sw := upload(t, gw, p[:1<<kk]), upload(t, gw, s[:1<<kk])
				return func() bls12381.G2Jac {
					var r bls12381.G2Jac
					if err := gw.MSMG2(nil, ecc.BLS12_381, backend.ValueBytes(&r), bw, 0, sw, 1<<kk); err != nil {
						t.Fatalf("MSMG2: %v", err)
					}
					return r
				}, bw
			}, func(r bls12381.G2Jac) bool { return r.Equal(&want) })
		}
	}
	fmt.Println("| curve | n | GPU resident (ms) | GPU with upload (ms) | gnark CPU (ms) | CPU/GPU | GPU stages (ms) |")
	fmt.Println("| --- | --- | --- | --- | --- | --- | --- |")
	for _, r := range rows {
		fmt.Println(r)
	}
}

// heavyRows adds TestMSMTable's 0/1-heavy rows for curve: at each size 2^k
// of G16_TABLE_01 (default 20,24) that logs holds, 90% of the scalars 0 or
// 1 and the rest random (fresh each run), timed on the GPU with the split
// of the ±1 points (the default) and without it (G16_MSM_NO_SPLIT), each on
// a backend of its own (prep uploads the first m bases there and returns
// the MSM over scalars sc and a release of the bases), and with gnark-crypto
// on the host up to 2^cpuMax. All results must agree.
func heavyRows[J any](t *testing.T, curve string, logs []int, cpuMax int, rng *mrand.Rand, rows *[]string,
	prep func(gw *Backend, m int, sc backend.Buffer) (func() J, func()), ref func(m int, sc []fr.Element) J, eq func(a, b J) bool) {
	t.Helper()
	want := benchLogs("G16_TABLE_01", "20,24")
	for _, k := range logs {
		if !slices.Contains(want, k) {
			continue
		}
		m := 1 << k
		sc := zeroOneHeavy(rng, m, 90)
		var res [2]J
		var dur [2]time.Duration
		var tms [2]MSMTiming
		for v, flags := range []int{0, msmNoSplit} {
			gw, err := New(0, withMSMFlags(flags))
			if err != nil {
				t.Fatal(err)
			}
			sb := upload(t, gw, sc)
			msm, release := prep(gw, m, sb)
			run := func() { res[v] = msm() }
			run()
			dur[v] = median(3, run)
			tms[v] = gw.LastMSMTiming()
			release()
			gw.Free(nil, sb)
			if err := gw.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		}
		if !eq(res[0], res[1]) {
			t.Errorf("%s 0/1-heavy 2^%d: split and unsplit MSMs differ", curve, k)
		}
		cpuS, ratio := "-", "-"
		if k <= cpuMax {
			var cpuRes J
			cpu := median(1, func() { cpuRes = ref(m, sc) })
			if !eq(res[0], cpuRes) {
				t.Errorf("%s 0/1-heavy 2^%d: GPU differs from gnark", curve, k)
			}
			cpuS = fmt.Sprintf("%.1f", ms(cpu))
			ratio = fmt.Sprintf("%.1f×", float64(cpu)/float64(dur[0]))
		}
		tm := tms[0]
		*rows = append(*rows, fmt.Sprintf("| %s 0/1-heavy | 2^%d | %.2f | no split: %.2f (%.2f×) | %s | %s | %d ±1 points, %d to Pippenger; w=%d: split %.1f, digits %.1f, sort %.1f, plan %.1f, accumulate %.1f, reduce %.1f (events %.1f) |",
			curve, k, ms(dur[0]), ms(dur[1]), float64(dur[1])/float64(dur[0]), cpuS, ratio, tm.Ones, tm.Rest, tm.Window,
			tm.Split, tm.Digits, tm.Sort, tm.Plan, tm.Accumulate, tm.Reduce, tm.Total))
		t.Log((*rows)[len(*rows)-1])
	}
}
