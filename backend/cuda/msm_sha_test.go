//go:build cuda

package cuda

import (
	"math/big"
	mrand "math/rand/v2"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
)

// sha256Scalars returns n scalars distributed as the wires of the sha256
// proof's circuit (counted on gnark's std sha2 circuit of a 1100-byte
// message, 1,046,463 wires, solved with a random commitment: 20.0% zero,
// 5.4% one, 34.4% from 2 to 255, 0.5% below 2^32, 39.6% random; the
// lookups' log-derivative terms are the random ones). Here: 20.0% zero,
// 5.4% ±1 (one in ten of them −1, none in the circuit, for the split's −1
// path), 34.4% bytes 2..255, 0.5% 32-bit values and 39.7% random.
func sha256Scalars(rng *mrand.Rand, n int) []fr.Element {
	s := make([]fr.Element, n)
	for i := range s {
		switch k := rng.IntN(1000); {
		case k < 200:
		case k < 254:
			if rng.IntN(10) == 0 {
				s[i].SetInt64(-1)
			} else {
				s[i].SetOne()
			}
		case k < 598:
			s[i].SetUint64(2 + rng.Uint64N(254))
		case k < 603:
			s[i].SetUint64(rng.Uint64N(1 << 32))
		default:
			s[i] = randFr(rng)
		}
	}
	return s
}

// skewedScalars: one huge bucket (60% of the scalars 2), the others random,
// so that beside it most buckets hold one point.
func skewedScalars(rng *mrand.Rand, n int) []fr.Element {
	s := randScalars(rng, n)
	for i := range s {
		if rng.IntN(10) < 6 {
			s[i].SetUint64(2)
		}
	}
	return s
}

// TestMSMShaShape is the sha256 proof's MSM shape on the GPU, short form:
// sha256-like scalars over 2^16 bases of known discrete logs, G1 and G2,
// on the bases alone and on tables of 12 copies (as the prover's resident
// key has them), each MSM alone with its stage times and then the five
// MSMs of a proof (four G1, one G2) at once on five queues, every result
// checked. The timed form, at 2^20, is TestMSMShaTimed (run.sh sha).
func TestMSMShaShape(t *testing.T) {
	newTestBackend(t) // skips the test when there is no GPU
	rng := testRand(t)
	in := shaInputs(rng, 1<<16)
	for _, flags := range []int{0, msmFanin8, msmHostTail} {
		runShaFlags(t, flags, in, 1, false)
	}
}

// TestMSMShaTimed is TestMSMShaShape at 2^G16_SHA_LOG points (default 20,
// the sha256 proof's), timed: each MSM alone and the five together, the
// median of five runs, beside gnark-crypto's MultiExp of the same G1 and
// G2 MSMs on the host. G16_MSM_SHA=1 enables it (run.sh sha);
// G16_SHA_FLAGS lists the g16_msm flags to run it with (default "0").
func TestMSMShaTimed(t *testing.T) {
	if os.Getenv("G16_MSM_SHA") != "1" {
		t.Skip("set G16_MSM_SHA=1")
	}
	newTestBackend(t) // skips the test when there is no GPU
	rng := testRand(t)
	lg := 20
	if v := os.Getenv("G16_SHA_LOG"); v != "" {
		k, err := strconv.Atoi(v)
		if err != nil || k < 10 || k > 24 {
			t.Fatalf("G16_SHA_LOG=%q: want a log size in [10, 24]", v)
		}
		lg = k
	}
	in := shaInputs(rng, 1<<lg)
	flagSets := []int{0}
	if v := os.Getenv("G16_SHA_FLAGS"); v != "" {
		flagSets = flagSets[:0]
		for _, f := range strings.Split(v, ",") {
			k, err := strconv.Atoi(f)
			if err != nil || k < 0 {
				t.Fatalf("G16_SHA_FLAGS=%q: want comma-separated g16_msm flags", v)
			}
			flagSets = append(flagSets, k)
		}
	}
	for i, flags := range flagSets {
		runShaFlags(t, flags, in, 5, i == 0)
	}
}

// runShaFlags is runSha on a backend of its own with the given g16_msm
// flags, closed before it returns.
func runShaFlags(t *testing.T, flags int, in *shaIn, reps int, cpu bool) {
	t.Helper()
	b, err := New(0, withMSMFlags(flags))
	if err != nil {
		t.Fatalf("New(0) with flags %d: %v", flags, err)
	}
	defer func() {
		if err := b.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	}()
	t.Logf("g16_msm flags %d", flags)
	runSha(t, b, in, reps, cpu)
}

// shaIn is runSha's input: n bases of known discrete logs on each curve
// and five scalar vectors: sha256-like for G1's A, B1, K (0..2) and G2's B
// (4), random for G1's Z (3).
type shaIn struct {
	n            int
	g1           []bls12381.G1Affine
	g2           []bls12381.G2Affine
	logs1, logs2 []logPart
	sc           [5][]fr.Element
}

func shaInputs(rng *mrand.Rand, n int) *shaIn {
	in := &shaIn{n: n}
	in.g1, in.logs1 = randG1Logs(rng, n)
	in.g2, in.logs2 = randG2Logs(rng, n)
	for i := range in.sc {
		in.sc[i] = sha256Scalars(rng, n)
	}
	in.sc[3] = randScalars(rng, n) // Z's scalars are h's coefficients: random
	return in
}

// runSha runs the five MSMs of a proof over in's n points on b (reps
// times, the median reported), on the plain bases and on tables of 12
// copies; cpu adds gnark-crypto's times.
func runSha(t *testing.T, b *Backend, in *shaIn, reps int, cpu bool) {
	t.Helper()
	n, g1, g2, logs1, logs2, sc := in.n, in.g1, in.g2, in.logs1, in.logs2, in.sc
	g1gen, g2gen, _, _ := bls12381.Generators()
	want1 := make([]bls12381.G1Jac, 4)
	for i := range want1 {
		e := msmLog(logs1, 0, sc[i])
		want1[i].ScalarMultiplication(&g1gen, e.BigInt(new(big.Int)))
	}
	var want2 bls12381.G2Jac
	e := msmLog(logs2, 0, sc[4])
	want2.ScalarMultiplication(&g2gen, e.BigInt(new(big.Int)))

	var sb [5]backend.Buffer
	for i := range sc {
		sb[i] = upload(t, b, sc[i])
		defer b.Free(nil, sb[i])
	}
	queues := make([]backend.Queue, 5)
	for i := range queues {
		q, err := b.NewQueue()
		if err != nil {
			t.Fatal(err)
		}
		queues[i] = q
		defer q.Close()
	}
	for _, copies := range []int{1, 12} {
		b1, b2 := upload(t, b, g1), upload(t, b, g2)
		if copies > 1 {
			if err := b.PrecomputeBases(nil, ecc.BLS12_381, b1, 0, n, backend.KernelMSMG1, copies, 0); err != nil {
				t.Fatal(err)
			}
			if err := b.PrecomputeBases(nil, ecc.BLS12_381, b2, 0, n, backend.KernelMSMG2, copies, 0); err != nil {
				t.Fatal(err)
			}
		}
		if err := b.Sync(); err != nil { // the uploads and tables, before the queues read them
			t.Fatal(err)
		}
		// Each alone, with its stage times.
		alone := func(name string, f func() bool) {
			var times []float64
			var tm MSMTiming
			for k := 0; k < reps; k++ {
				t0 := time.Now()
				if !f() {
					t.Errorf("%s, %d copies, n=%d: differs from the discrete-log reference", name, copies, n)
				}
				times = append(times, ms(time.Since(t0)))
				tm = b.LastMSMTiming()
			}
			t.Logf("%s alone, %d copies, n=%d: %.2f ms (median of %d); w=%d: split %.2f, digits %.2f, sort %.2f, plan %.2f, accumulate %.2f, reduce %.2f ms (events %.2f); %d ±1 points, %d to Pippenger",
				name, copies, n, medianOf(times), reps, tm.Window, tm.Split, tm.Digits, tm.Sort, tm.Plan, tm.Accumulate, tm.Reduce, tm.Total, tm.Ones, tm.Rest)
		}
		alone("G1", func() bool {
			var r bls12381.G1Jac
			if err := b.MSMG1(nil, ecc.BLS12_381, backend.ValueBytes(&r), b1, 0, sb[0], n); err != nil {
				t.Fatal(err)
			}
			return r.Equal(&want1[0])
		})
		alone("G2", func() bool {
			var r bls12381.G2Jac
			if err := b.MSMG2(nil, ecc.BLS12_381, backend.ValueBytes(&r), b2, 0, sb[4], n); err != nil {
				t.Fatal(err)
			}
			return r.Equal(&want2)
		})
		// The five at once, each on its queue.
		var times []float64
		for k := 0; k < reps; k++ {
			var r1 [4]bls12381.G1Jac
			var r2 bls12381.G2Jac
			var errs [5]error
			var wg sync.WaitGroup
			t0 := time.Now()
			for i := 0; i < 5; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if i == 4 {
						errs[i] = b.MSMG2(queues[i], ecc.BLS12_381, backend.ValueBytes(&r2), b2, 0, sb[i], n)
					} else {
						errs[i] = b.MSMG1(queues[i], ecc.BLS12_381, backend.ValueBytes(&r1[i]), b1, 0, sb[i], n)
					}
				}()
			}
			wg.Wait()
			times = append(times, ms(time.Since(t0)))
			for i, err := range errs {
				if err != nil {
					t.Fatalf("MSM %d of five: %v", i, err)
				}
			}
			for i := range r1 {
				if !r1[i].Equal(&want1[i]) {
					t.Errorf("G1 MSM %d of five, %d copies, n=%d: differs from the discrete-log reference", i, copies, n)
				}
			}
			if !r2.Equal(&want2) {
				t.Errorf("G2 MSM of five, %d copies, n=%d: differs from the discrete-log reference", copies, n)
			}
		}
		t.Logf("five MSMs (4 G1 + 1 G2) on five queues, %d copies, n=%d: %.2f ms (median of %d; each: %v)", copies, n, medianOf(times), reps, times)
		b.Free(nil, b1)
		b.Free(nil, b2)
	}
	if cpu {
		var r1 bls12381.G1Jac
		var r2 bls12381.G2Jac
		t0 := time.Now()
		if _, err := r1.MultiExp(g1, sc[0], ecc.MultiExpConfig{}); err != nil {
			t.Fatal(err)
		}
		d1 := time.Since(t0)
		t0 = time.Now()
		if _, err := r2.MultiExp(g2, sc[4], ecc.MultiExpConfig{}); err != nil {
			t.Fatal(err)
		}
		d2 := time.Since(t0)
		if !r1.Equal(&want1[0]) || !r2.Equal(&want2) {
			t.Error("gnark's MultiExp differs from the discrete-log reference")
		}
		t.Logf("gnark-crypto MultiExp on the host (%d cores), n=%d: G1 %.1f ms, G2 %.1f ms", runtime.NumCPU(), n, ms(d1), ms(d2))
	}
}

// medianOf is the median of v (v is reordered).
func medianOf(v []float64) float64 {
	sort.Float64s(v)
	return v[len(v)/2]
}
