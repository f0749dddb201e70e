package groth16_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	groth16bls "github.com/consensys/gnark/backend/groth16/bls12-381"
	"github.com/consensys/gnark/backend/witness"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/curve"
	"github.com/g16prover/g16/groth16"
	"github.com/g16prover/g16/internal/synth"
	"github.com/g16prover/g16/pool"
)

// batchDeadline bounds every ProveBatch: a deadlock fails, not hangs.
const batchDeadline = 2 * time.Minute

func fixtureNamed(t *testing.T, name string) *fixture {
	t.Helper()
	for _, f := range testFixtures(t) {
		if f.name == name {
			return f
		}
	}
	t.Fatalf("no fixture %q", name)
	return nil
}

// memoryOf gives the device bytes of f's proving key and of one
// partition's buffer set, as ProveBatch lays them out on a device that
// gathers (the CPU backend): G1 bases A, B, K, Z, G2 bases B, and the wire
// index lists the device gathers by (K's, and A's and B's when some of
// their points are at infinity); a, b, c of domain size and the wire
// values for A, B and K, and W when it gathers A's and B's from it.
func memoryOf(t *testing.T, f *fixture) (key, set int64) {
	t.Helper()
	pk := f.pk.(*groth16bls.ProvingKey)
	key = int64(len(pk.G1.A)+len(pk.G1.B)+len(pk.G1.K)+len(pk.G1.Z))*curve.Must(ecc.BLS12_381).G1AffineBytes +
		int64(len(pk.G2.B))*curve.Must(ecc.BLS12_381).G2AffineBytes + indexListBytes(f)
	n := int64(pk.Domain.Cardinality)
	set = (3*n + int64(len(pk.G1.A)+len(pk.G1.B)+len(pk.G1.K))) * curve.Must(ecc.BLS12_381).FrBytes
	if pk.NbInfinityA+pk.NbInfinityB > 0 && len(pk.G1.K) > 0 {
		set += int64(len(pk.InfinityA)) * curve.Must(ecc.BLS12_381).FrBytes
	}
	return key, set
}

// indexListBytes is the device bytes of f's wire index lists on a device
// that gathers: 4 an index, K's, and A's and B's when some of their points
// are at infinity.
func indexListBytes(f *fixture) int64 {
	pk := f.pk.(*groth16bls.ProvingKey)
	if len(pk.G1.K) == 0 {
		return 0
	}
	n := int64(len(pk.G1.K))
	if pk.NbInfinityA+pk.NbInfinityB > 0 {
		n += int64(len(pk.G1.A) + len(pk.G1.B))
	}
	return 4 * n
}

// capacityForSets is a capacity whose default budget (capacity less 1/16)
// holds the key and exactly sets partitions' buffers.
func capacityForSets(t *testing.T, f *fixture, sets int64) int64 {
	key, set := memoryOf(t, f)
	return (key+sets*set)*16/15 + 64
}

func seedsFrom(base uint64) func(int) io.Reader {
	return func(i int) io.Reader { return seeded(base + uint64(i)) }
}

// proveBatch runs ProveBatch bounded by batchDeadline.
func proveBatch(t *testing.T, ctx context.Context, f *fixture, witnesses []witness.Witness, opts ...groth16.Option) ([]gnarkgroth16.Proof, error) {
	t.Helper()
	type result struct {
		proofs []gnarkgroth16.Proof
		err    error
	}
	done := make(chan result, 1)
	go func() {
		p, err := groth16.ProveBatch(ctx, f.ccs, f.pk, witnesses, opts...)
		done <- result{p, err}
	}()
	select {
	case r := <-done:
		return r.proofs, r.err
	case <-time.After(batchDeadline):
		buf := make([]byte, 1<<20)
		t.Fatalf("ProveBatch did not return within %v (deadlock?)\n%s", batchDeadline, buf[:runtime.Stack(buf, true)])
		return nil, nil
	}
}

// batchSeed seeds every batch test's randomness: partition i reads
// seeded(batchSeed + i). Drawn afresh for each test binary.
var batchSeed = rand.Uint64()

var (
	expectedMu    sync.Mutex
	expectedCache = map[string][][]byte{}
)

// expected proves partitions 0..n-1 alone with Prove, for comparison; the
// proofs are kept for the other tests of the binary.
func expected(t *testing.T, f *fixture, n int) [][]byte {
	t.Helper()
	expectedMu.Lock()
	defer expectedMu.Unlock()
	have := expectedCache[f.name]
	for i := len(have); i < n; i++ {
		p, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithRandomness(seeded(batchSeed+uint64(i))))
		if err != nil {
			t.Fatalf("Prove partition %d (seed %d): %v", i, batchSeed, err)
		}
		have = append(have, proofBytes(t, p))
	}
	expectedCache[f.name] = have
	return have[:n]
}

func same(f *fixture, n int) []witness.Witness {
	ws := make([]witness.Witness, n)
	for i := range ws {
		ws[i] = f.witness
	}
	return ws
}

// checkProofs compares proofs with want; a nil want entry expects no proof.
func checkProofs(t *testing.T, proofs []gnarkgroth16.Proof, want [][]byte, failed map[int]bool) {
	t.Helper()
	if len(proofs) != len(want) {
		t.Fatalf("%d proofs, want %d", len(proofs), len(want))
	}
	for i, p := range proofs {
		if failed[i] {
			if p != nil {
				t.Errorf("partition %d failed but has a proof", i)
			}
			continue
		}
		if p == nil {
			t.Errorf("partition %d: no proof", i)
			continue
		}
		if got := proofBytes(t, p); !bytes.Equal(got, want[i]) {
			t.Errorf("partition %d: proof differs from Prove's", i)
		}
	}
}

func cpuDevice(t *testing.T, id int, capacity int64, hook cpu.Hook) *cpu.Backend {
	t.Helper()
	opts := []cpu.Option{cpu.WithID(id), cpu.WithTasks(1), cpu.WithCapacity(capacity)}
	if hook != nil {
		opts = append(opts, cpu.WithHook(hook))
	}
	d, err := cpu.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func checkReleased(t *testing.T, devs []*cpu.Backend, before []backend.MemStats) {
	t.Helper()
	for i, d := range devs {
		m := d.Memory()
		if m.InUse != before[i].InUse || m.Cached > before[i].Cached {
			t.Errorf("%s: after ProveBatch: in use %d, cached %d; before: %d, %d", d, m.InUse, m.Cached, before[i].InUse, before[i].Cached)
		}
	}
}

func baseline(devs []*cpu.Backend) []backend.MemStats {
	m := make([]backend.MemStats, len(devs))
	for i, d := range devs {
		m[i] = d.Memory()
	}
	return m
}

// waitGoroutines waits for the goroutine count to fall back to n. What is
// left when ProveBatch returns only winds down, at once on an idle
// machine; the wait is generous for a loaded one, and a leak still fails,
// after it.
func waitGoroutines(t *testing.T, n int) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if runtime.NumGoroutine() <= n {
			return
		}
	}
	t.Errorf("goroutines: %d after ProveBatch, %d before", runtime.NumGoroutine(), n)
}

// TestProveBatchMatchesProve: on one and on two devices, every circuit's
// batch gives Prove's bytes for each partition's randomness, and gnark
// verifies them.
func TestProveBatchMatchesProve(t *testing.T) {
	for _, f := range testFixtures(t) {
		t.Run(f.name, func(t *testing.T) {
			const n = 4
			want := expected(t, f, n)
			if gnark := gnarkProof(t, f, batchSeed); !bytes.Equal(gnark, want[0]) {
				t.Fatalf("seed %d: Prove differs from gnark", batchSeed)
			}
			for _, ndev := range []int{1, 2} {
				var devs []backend.Backend
				for i := range ndev {
					devs = append(devs, cpuDevice(t, i, 0, nil))
				}
				proofs, err := proveBatch(t, context.Background(), f, same(f, n),
					groth16.WithBackends(devs...), groth16.WithBatchRandomness(seedsFrom(batchSeed)))
				if err != nil {
					t.Fatalf("seed %d, %d devices: %v", batchSeed, ndev, err)
				}
				checkProofs(t, proofs, want, nil)
				if err := gnarkgroth16.Verify(proofs[n-1], f.vk, f.public); err != nil {
					t.Errorf("gnark rejects a batch proof: %v", err)
				}
			}
		})
	}
}

// TestProveBatchNotStarved: memory for one running and one staged
// partition, three workers, ten partitions: every proof is right and at
// least eight partitions were staged ahead.
func TestProveBatchNotStarved(t *testing.T) {
	f := fixtureNamed(t, "mulchain")
	const n = 10
	want := expected(t, f, n)
	dev := cpuDevice(t, 0, capacityForSets(t, f, 2), nil)
	tr := pool.NewTrace()
	proofs, err := proveBatch(t, context.Background(), f, same(f, n), groth16.WithBackends(dev),
		groth16.WithWorkersPerDevice(3), groth16.WithBatchRandomness(seedsFrom(batchSeed)), groth16.WithTrace(tr))
	if err != nil {
		t.Fatal(err)
	}
	checkProofs(t, proofs, want, nil)
	s := tr.Summary()
	if s.Staged < 8 {
		t.Errorf("%d of %d partitions staged ahead, want at least 8\n%v", s.Staged, n, s)
	}
}

// regionCheck fails the test when Sync or TrimPool is called by a worker
// that does not hold the compute region (for instance, one holding only
// the staging region).
type regionCheck struct {
	t            *testing.T
	syncs, trims atomic.Int32
}

func (c *regionCheck) wrap(b backend.Backend, w *pool.Worker) backend.Backend {
	return &regionChecked{Backend: b, w: w, c: c}
}

type regionChecked struct {
	backend.Backend
	w *pool.Worker
	c *regionCheck
}

func (b *regionChecked) check(op string) {
	if !b.w.Holds(pool.RegionCompute) {
		b.c.t.Errorf("%s by device %d worker %d (partition %d) outside the compute region (staging held: %v)",
			op, b.w.Device, b.w.ID, b.w.Partition(), b.w.Holds(pool.RegionStaging))
	}
}

func (b *regionChecked) Sync() error {
	b.c.syncs.Add(1)
	b.check("Sync")
	return b.Backend.Sync()
}

func (b *regionChecked) TrimPool(keep int64) error {
	b.c.trims.Add(1)
	b.check("TrimPool")
	return b.Backend.TrimPool(keep)
}

// TestProveBatchSingleSet: the device holds the key and one partition's
// buffers. With a budget that claims more, staging runs out of memory and
// partitions go through the fallback (trim, allocate, compute); all ten
// proofs are still right, with no error. The region check watches every
// Sync and TrimPool on the way.
func TestProveBatchSingleSet(t *testing.T) {
	f := fixtureNamed(t, "mulchain")
	const n = 10
	want := expected(t, f, n)
	capacity := capacityForSets(t, f, 1)
	dev := cpuDevice(t, 0, capacity, nil)
	before := baseline([]*cpu.Backend{dev})
	tr := pool.NewTrace()
	check := &regionCheck{t: t}
	proofs, err := proveBatch(t, context.Background(), f, same(f, n), groth16.WithBackends(dev),
		// The lie covers the MSMs' scratch too (a MiB), so that the
		// budget admits a second set, which does not fit.
		groth16.WithWorkersPerDevice(3), groth16.WithMemoryBudget(3*capacity+1<<20),
		groth16.WithBatchRandomness(seedsFrom(batchSeed)), groth16.WithTrace(tr),
		groth16.WithPoolOptions(pool.WithInstrument(check.wrap)))
	if err != nil {
		t.Fatalf("ProveBatch: %v", err)
	}
	checkProofs(t, proofs, want, nil)
	checkReleased(t, []*cpu.Backend{dev}, before)
	s := tr.Summary()
	if s.Fallbacks == 0 || s.Staged+s.Fallbacks != n {
		t.Errorf("want some of the %d partitions through the fallback\n%v", n, s)
	}
	if check.syncs.Load() == 0 || check.trims.Load() == 0 {
		t.Errorf("no Sync (%d) or TrimPool (%d) to check", check.syncs.Load(), check.trims.Load())
	}
}

// TestProveBatchOverlap: device operations take simulated time. The trace
// shows one partition staged while another computes on the same device,
// and two devices share a batch.
func TestProveBatchOverlap(t *testing.T) {
	f := fixtureNamed(t, "mulchain")
	slow := func(op cpu.Op, size int64) error {
		switch op {
		case cpu.OpNTT, cpu.OpMSMG1, cpu.OpMSMG2:
			time.Sleep(2 * time.Millisecond)
		case cpu.OpUpload:
			time.Sleep(200 * time.Microsecond)
		}
		return nil
	}
	const n = 6
	want := expected(t, f, n)
	for _, ndev := range []int{1, 2} {
		t.Run(fmt.Sprintf("devices=%d", ndev), func(t *testing.T) {
			var devs []backend.Backend
			for i := range ndev {
				devs = append(devs, cpuDevice(t, i, 0, slow))
			}
			tr := pool.NewTrace()
			proofs, err := proveBatch(t, context.Background(), f, same(f, n), groth16.WithBackends(devs...),
				groth16.WithBatchRandomness(seedsFrom(batchSeed)), groth16.WithTrace(tr))
			if err != nil {
				t.Fatal(err)
			}
			checkProofs(t, proofs, want, nil)
			s := tr.Summary()
			if ndev == 2 {
				for _, d := range s.Devices {
					if d.Partitions == 0 {
						t.Errorf("%s proved nothing\n%v", d.Device, s)
					}
				}
			}
			var staging, compute []pool.Event
			for _, e := range tr.Events() {
				if e.Kind != pool.KindRegion {
					continue
				}
				if e.Name == string(pool.RegionStaging) && e.Outcome == pool.OutcomeStaged {
					staging = append(staging, e)
				}
				if e.Name == string(pool.RegionCompute) && (e.Outcome == pool.OutcomeStaged || e.Outcome == pool.OutcomeFallback) {
					compute = append(compute, e)
				}
			}
			overlap := false
			for _, c := range compute {
				for _, st := range staging {
					if st.Device == c.Device && st.Partition != c.Partition && st.Start < c.End && c.Start < st.End {
						overlap = true
					}
				}
			}
			if !overlap {
				t.Errorf("no partition staged while another computed on its device\n%v", s)
			}
		})
	}
}

// faults fails Alloc, NTT and MSM calls at random.
func faults(seed uint64, p float64) cpu.Hook {
	var mu sync.Mutex
	rng := rand.New(rand.NewPCG(seed, 2))
	return func(op cpu.Op, size int64) error {
		switch op {
		case cpu.OpAlloc, cpu.OpAllocDirect, cpu.OpNTT, cpu.OpMSMG1, cpu.OpMSMG2:
		default:
			return nil
		}
		mu.Lock()
		fail := rng.Float64() < p
		mu.Unlock()
		if fail {
			return fmt.Errorf("injected fault in %s", op)
		}
		return nil
	}
}

// TestProveBatchFaults injects failures at random points: the batch ends,
// names each failed partition, returns the other proofs right, and leaves
// device memory and goroutines as it found them.
func TestProveBatchFaults(t *testing.T) {
	f := fixtureNamed(t, "mulchain")
	const n = 4
	want := expected(t, f, n)
	rounds := 8
	if testing.Short() {
		rounds = 4
	}
	t.Logf("seed %d", batchSeed)
	var nfailed, nok int
	for r := range rounds {
		goroutines := runtime.NumGoroutine()
		var devs []*cpu.Backend
		var bdevs []backend.Backend
		for i := range 1 + r%2 {
			capacity := int64(0)
			if r%4 >= 2 {
				capacity = capacityForSets(t, f, 1)
			}
			d := cpuDevice(t, i, capacity, faults(batchSeed+uint64(10*r+i), 0.04))
			devs = append(devs, d)
			bdevs = append(bdevs, d)
		}
		before := baseline(devs)
		check := &regionCheck{t: t}
		proofs, err := proveBatch(t, context.Background(), f, same(f, n), groth16.WithBackends(bdevs...),
			groth16.WithBatchRandomness(seedsFrom(batchSeed)), groth16.WithPoolOptions(pool.WithInstrument(check.wrap)))
		failed := map[int]bool{}
		if err != nil {
			var errs pool.Errors
			if !errors.As(err, &errs) {
				t.Fatalf("round %d: %T %v, want pool.Errors", r, err, err)
			}
			for _, je := range errs {
				failed[je.Job] = true
				if !strings.Contains(je.Error(), fmt.Sprintf("partition %d", je.Job)) || !strings.Contains(je.Error(), "injected fault") {
					t.Errorf("round %d: %v", r, je)
				}
			}
		}
		nfailed += len(failed)
		nok += n - len(failed)
		checkProofs(t, proofs, want, failed)
		checkReleased(t, devs, before)
		waitGoroutines(t, goroutines)
	}
	t.Logf("%d partitions failed, %d proved", nfailed, nok)
}

// TestProveBatchCancel: cancelling stops the batch, returns ctx.Err(),
// and releases device memory.
func TestProveBatchCancel(t *testing.T) {
	f := fixtureNamed(t, "mulchain")
	goroutines := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var msms atomic.Int32
	dev := cpuDevice(t, 0, 0, func(op cpu.Op, size int64) error {
		if op == cpu.OpMSMG1 && msms.Add(1) == 6 {
			cancel()
		}
		return nil
	})
	before := baseline([]*cpu.Backend{dev})
	_, err := proveBatch(t, ctx, f, same(f, 20), groth16.WithBackends(dev))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("ProveBatch returned %v, want context.Canceled", err)
	}
	if m := msms.Load(); m >= 20*4 {
		t.Errorf("%d G1 MSMs ran: the batch was not stopped", m)
	}
	checkReleased(t, []*cpu.Backend{dev}, before)
	waitGoroutines(t, goroutines)
}

// TestProveBatchRetry: one of two devices fails every NTT; each partition
// it takes is retried on the other device, and every proof comes out
// right.
func TestProveBatchRetry(t *testing.T) {
	f := fixtureNamed(t, "mulchain")
	const n = 6
	want := expected(t, f, n)
	broken := func(op cpu.Op, size int64) error {
		if op == cpu.OpNTT {
			return errors.New("injected: device lost")
		}
		return nil
	}
	devs := []*cpu.Backend{cpuDevice(t, 0, 0, broken), cpuDevice(t, 1, 0, nil)}
	before := baseline(devs)
	tr := pool.NewTrace()
	proofs, err := proveBatch(t, context.Background(), f, same(f, n), groth16.WithBackends(devs[0], devs[1]),
		groth16.WithBatchRandomness(seedsFrom(batchSeed)), groth16.WithTrace(tr))
	if err != nil {
		t.Fatal(err)
	}
	checkProofs(t, proofs, want, nil)
	checkReleased(t, devs, before)
	s := tr.Summary()
	if s.Retries == 0 || s.Devices[1].Partitions != n {
		t.Errorf("want every partition proved on cpu:1, some after a retry\n%v", s)
	}
}

// TestProveBatchBadWitness: a partition whose witness does not satisfy
// the circuit fails alone, named; the others are proved.
func TestProveBatchBadWitness(t *testing.T) {
	f := fixtureNamed(t, "mulchain")
	bad := fixtureNamed(t, "manypublic").witness // a witness of another circuit
	const n = 3
	want := expected(t, f, n)
	ws := same(f, n)
	ws[1] = bad
	proofs, err := proveBatch(t, context.Background(), f, ws, groth16.WithBatchRandomness(seedsFrom(batchSeed)))
	var errs pool.Errors
	if !errors.As(err, &errs) || len(errs) != 1 || errs[0].Job != 1 || !strings.Contains(err.Error(), "partition 1") {
		t.Fatalf("ProveBatch returned %v, want partition 1 alone to fail", err)
	}
	checkProofs(t, proofs, want, map[int]bool{1: true})
}

// TestProveBatchEmpty: no witnesses, no proofs, no error.
func TestProveBatchEmpty(t *testing.T) {
	f := fixtureNamed(t, "mulchain")
	proofs, err := groth16.ProveBatch(context.Background(), f.ccs, f.pk, nil)
	if err != nil || len(proofs) != 0 {
		t.Fatalf("ProveBatch(nil witnesses) = %v, %v", proofs, err)
	}
}

// BenchmarkProveBatch proves ten partitions of the synthetic mix circuit
// (random key) three ways, for ratios taken in one run: gnark's prover ten
// times, our Prove ten times, and one ProveBatch of ten.
func BenchmarkProveBatch(b *testing.B) {
	const partitions = 10
	for _, logN := range []int{12, 14, 16} {
		ccs, shape, err := synth.Compile(synth.Mix, 1<<logN)
		if err != nil {
			b.Fatal(err)
		}
		pk, err := synth.RandomKey(ccs)
		if err != nil {
			b.Fatal(err)
		}
		ws := make([]witness.Witness, partitions)
		for i := range ws {
			if ws[i], err = synth.Witness(shape, uint64(i)); err != nil {
				b.Fatal(err)
			}
		}
		dev := cpu.MustNew()
		b.Run(fmt.Sprintf("prover=gnark/n=2^%d", logN), func(b *testing.B) {
			b.ReportAllocs()
			defer reportCPU(b)()
			for range b.N {
				for _, w := range ws {
					if _, err := gnarkgroth16.Prove(ccs, pk, w); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		b.Run(fmt.Sprintf("prover=g16-prove/n=2^%d", logN), func(b *testing.B) {
			b.ReportAllocs()
			defer reportCPU(b)()
			for range b.N {
				for _, w := range ws {
					if _, err := groth16.Prove(ccs, pk, w, groth16.WithBackend(dev)); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("prover=g16-batch/workers=%d/n=2^%d", workers, logN), func(b *testing.B) {
				b.ReportAllocs()
				defer reportCPU(b)()
				for range b.N {
					if _, err := groth16.ProveBatch(context.Background(), ccs, pk, ws, groth16.WithBackends(dev), groth16.WithWorkersPerDevice(workers)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// reportCPU reports the process's CPU time (user and system) per op: on a
// shared machine it varies less than wall time with other tenants' load.
// Call as defer reportCPU(b)().
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		b.ReportMetric((cpuTime()-start).Seconds()/float64(b.N), "cpu-s/op")
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
