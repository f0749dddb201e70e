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
	"testing"

	groth16bls "github.com/consensys/gnark/backend/groth16/bls12-381"
	"github.com/consensys/gnark/frontend"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/groth16"
	"github.com/g16prover/g16/internal/stdcircuits"
	"github.com/g16prover/g16/pool"
)

// opLog records the operations a CPU backend's hook sees, with their
// sizes (bytes for Copy, points for an MSM), and fails those fail picks.
type opLog struct {
	mu   sync.Mutex
	ops  []opCall
	fail func(op cpu.Op, size int64) error
}

type opCall struct {
	op   cpu.Op
	size int64
}

func (l *opLog) hook(op cpu.Op, size int64) error {
	l.mu.Lock()
	l.ops = append(l.ops, opCall{op, size})
	fail := l.fail
	l.mu.Unlock()
	if fail != nil {
		return fail(op, size)
	}
	return nil
}

// count is how many calls of op of size (-1: any) the log holds.
func (l *opLog) count(op cpu.Op, size int64) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, c := range l.ops {
		if c.op == op && (size < 0 || c.size == size) {
			n++
		}
	}
	return n
}

func (l *opLog) reset() {
	l.mu.Lock()
	l.ops = nil
	l.mu.Unlock()
}

// newGPULike is a CPU backend with opts (its hook: log's) that the prover
// schedules as a GPU.
func newGPULike(log *opLog, opts ...cpu.Option) *gpuLike {
	return &gpuLike{Backend: cpu.MustNew(append(opts, cpu.WithHook(log.hook))...), urgent: map[backend.Queue]bool{}}
}

// stdFixture is a circuit of gnark's standard library at a small size
// (stdcircuits: a log-derivative lookup, which commits to its values with
// a BSB22 commitment), set up with gnark's Setup, with an assignment drawn
// from seed.
func stdFixture(t *testing.T, kind string, size int, seed uint64) *fixture {
	t.Helper()
	c, err := stdcircuits.New(kind, size)
	if err != nil {
		t.Fatal(err)
	}
	a, err := c.Assign(rand.New(rand.NewPCG(seed, 1)))
	if err != nil {
		t.Fatal(err)
	}
	f, err := newFixture("std/"+c.Name, c.Shape, a)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// kzFixtures are the test circuits and a standard-library lookup.
func kzFixtures(t *testing.T) []*fixture {
	seed := rand.Uint64()
	t.Logf("lookup assignment seed %d", seed)
	return append(append([]*fixture(nil), testFixtures(t)...), stdFixture(t, "lookup", 40, seed))
}

// kzSizes are the points of f's K and Z MSMs.
func kzSizes(f *fixture) (nbK, nbZ int) {
	pk := f.pk.(*groth16bls.ProvingKey)
	return len(pk.G1.K), len(pk.G1.Z)
}

// checkKZRan checks what a proof's device phase ran, from log and its
// phase times: K and Z as one MSM (merged: one copy of h, n−1 values, and
// one G1 MSM over K's and Z's points; the span "MSM K+Z", MSMKZ its time,
// MSMK and MSMZ zero, the plan saying so), or apart (no copy, no merged
// MSM; MSMK and MSMZ, MSMKZ zero; spans, when there are any, K and Z
// apart).
func checkKZRan(t *testing.T, f *fixture, log *opLog, pt groth16.PhaseTimes, merged bool) {
	t.Helper()
	nbK, nbZ := kzSizes(f)
	copies := log.count(cpu.OpCopy, -1)
	hCopies := log.count(cpu.OpCopy, int64(nbZ)*backend.ScalarBytes)
	msmKZ := log.count(cpu.OpMSMG1, int64(nbK+nbZ))
	spans := map[string]int{}
	for _, s := range pt.Spans {
		spans[s.Name]++
	}
	note := strings.Contains(pt.Plan, "K and Z as one MSM")
	if merged {
		if copies != 1 || hCopies != 1 || msmKZ < 1 {
			t.Errorf("%s: merged: %d copies (%d of h), %d G1 MSMs of K's and Z's %d points: want one copy of h and the merged MSM", f.name, copies, hCopies, msmKZ, nbK+nbZ)
		}
		if pt.MSMKZ <= 0 || pt.MSMK != 0 || pt.MSMZ != 0 || !note {
			t.Errorf("%s: merged: MSMKZ %v, MSMK %v, MSMZ %v, plan %q", f.name, pt.MSMKZ, pt.MSMK, pt.MSMZ, pt.Plan)
		}
		if spans["MSM K+Z"] != 1 || spans["MSM K"] != 0 || spans["MSM Z"] != 0 {
			t.Errorf("%s: merged: spans %s", f.name, groth16.FormatSpans(pt.Spans))
		}
		return
	}
	if copies != 0 {
		t.Errorf("%s: apart: %d copies on the device", f.name, copies)
	}
	if pt.MSMKZ != 0 || pt.MSMK <= 0 || pt.MSMZ <= 0 || note {
		t.Errorf("%s: apart: MSMKZ %v, MSMK %v, MSMZ %v, plan %q", f.name, pt.MSMKZ, pt.MSMK, pt.MSMZ, pt.Plan)
	}
	if spans["MSM K+Z"] != 0 || (len(pt.Spans) > 0 && (spans["MSM K"] != 1 || spans["MSM Z"] != 1)) {
		t.Errorf("%s: apart: spans %s", f.name, groth16.FormatSpans(pt.Spans))
	}
}

// TestKZMatchesGnark proves each test circuit and a standard-library
// lookup with K and Z as one MSM and apart (WithKZMode), on a CPU backend
// scheduled as a GPU (H beside the wire MSMs, and H first) and on the CPU
// backend's side-by-side schedule (H first, on the host), on seeds drawn
// fresh: every proof equals gnark's bytes and verifies, and the device
// ran what the mode says (checkKZRan).
func TestKZMatchesGnark(t *testing.T) {
	type device struct {
		name string
		dev  func(log *opLog) backend.Backend
		h    groth16.HOrder
	}
	devices := []device{
		{"gpu-beside", func(log *opLog) backend.Backend { return newGPULike(log) }, groth16.HBeside},
		{"gpu-h-first", func(log *opLog) backend.Backend { return newGPULike(log) }, groth16.HFirst},
		{"cpu-side-by-side", func(log *opLog) backend.Backend {
			return cpu.MustNew(cpu.WithHostMemory(1<<50), cpu.WithTasks(8), cpu.WithHook(log.hook))
		}, groth16.HOrderAuto},
	}
	for _, f := range kzFixtures(t) {
		for _, d := range devices {
			for _, mode := range []groth16.KZMode{groth16.KZMerged, groth16.KZSeparate} {
				t.Run(fmt.Sprintf("%s/%s/%v", f.name, d.name, mode), func(t *testing.T) {
					seed := rand.Uint64()
					log := &opLog{}
					var pt groth16.PhaseTimes
					proof, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithBackend(d.dev(log)),
						groth16.WithHOrder(d.h), groth16.WithKZMode(mode), groth16.WithRandomness(seeded(seed)),
						groth16.WithPhaseTimes(func(_ int, p groth16.PhaseTimes) { pt = p }))
					if err != nil {
						t.Fatalf("seed %d: Prove: %v", seed, err)
					}
					checkProof(t, f, proof, seed)
					checkKZRan(t, f, log, pt, mode == groth16.KZMerged)
				})
			}
		}
	}
}

// TestKZBatchMatchesGnark: a batch of three on a CPU backend scheduled as a
// GPU, staged by the scheduler, K and Z as one MSM (and traced, so that
// the device the prover sees is the scheduler's wrapper, which does not
// copy itself): each proof equals gnark's bytes, and each ran the merged
// MSM.
func TestKZBatchMatchesGnark(t *testing.T) {
	f := fixtureNamed(t, "rangecheck-bsb22")
	seeds := []uint64{rand.Uint64(), rand.Uint64(), rand.Uint64()}
	log := &opLog{}
	g := newGPULike(log)
	var mu sync.Mutex
	var times []groth16.PhaseTimes
	proofs, err := groth16.ProveBatch(context.Background(), f.ccs, f.pk, same(f, len(seeds)), groth16.WithBackend(g),
		groth16.WithBatchRandomness(func(i int) io.Reader { return seeded(seeds[i]) }), groth16.WithTrace(pool.NewTrace()),
		groth16.WithKZMode(groth16.KZMerged), groth16.WithPhaseTimes(func(_ int, p groth16.PhaseTimes) { mu.Lock(); times = append(times, p); mu.Unlock() }))
	if err != nil {
		t.Fatalf("seeds %v: ProveBatch: %v", seeds, err)
	}
	for i, p := range proofs {
		if got, want := proofBytes(t, p), gnarkProof(t, f, seeds[i]); !bytes.Equal(got, want) {
			t.Fatalf("seed %d: batch proof %d differs from gnark's", seeds[i], i)
		}
	}
	nbK, nbZ := kzSizes(f)
	if n := log.count(cpu.OpCopy, int64(nbZ)*backend.ScalarBytes); n != len(seeds) {
		t.Errorf("%d copies of h for %d proofs", n, len(seeds))
	}
	if n := log.count(cpu.OpMSMG1, int64(nbK+nbZ)); n < len(seeds) {
		t.Errorf("%d merged MSMs for %d proofs", n, len(seeds))
	}
	for _, p := range times {
		if p.MSMKZ <= 0 || p.MSMK != 0 || p.MSMZ != 0 {
			t.Errorf("phase times: MSMKZ %v, MSMK %v, MSMZ %v", p.MSMKZ, p.MSMK, p.MSMZ)
		}
	}
}

// TestKZApart: K and Z stay two MSMs, with gnark's bytes, where one would
// not do: a key that streams, a plan with the MSMs one at a time (a
// device with room for one MSM's scratch), the CPU backend's one-at-a-time
// schedule (K and Z would be merged by the mode), and a key without K
// points.
func TestKZApart(t *testing.T) {
	stream, err := streamFixture()
	if err != nil {
		t.Fatal(err)
	}
	chain := fixtureNamed(t, "mulchain")
	key, set := memoryOf(t, chain)
	one := cpu.MustNew().Scratch(backend.KernelMSMG1, len(chain.pk.(*groth16bls.ProvingKey).G1.Z))
	streamKey, _ := memoryOf(t, stream)
	noK := noKFixture(t)
	for _, c := range []struct {
		name string
		f    *fixture
		dev  func(log *opLog) backend.Backend
		plan string // the plan's prefix
	}{
		{"streamed", stream, func(log *opLog) backend.Backend {
			return newGPULike(log, cpu.WithCapacity(streamKey*9/10))
		}, "key streamed"},
		{"one-at-a-time-plan", chain, func(log *opLog) backend.Backend {
			return newGPULike(log, cpu.WithCapacity((key+set+2*one)*16/15+64))
		}, "key resident, MSMs one at a time"},
		{"cpu-one-at-a-time", chain, func(log *opLog) backend.Backend {
			return cpu.MustNew(cpu.WithHostMemory(1), cpu.WithHook(log.hook))
		}, "key resident; MSMs one at a time"},
		{"no-K-points", noK, func(log *opLog) backend.Backend { return newGPULike(log) }, "key resident"},
	} {
		t.Run(c.name, func(t *testing.T) {
			seed := rand.Uint64()
			want := gnarkProof(t, c.f, seed)
			log := &opLog{}
			var pt groth16.PhaseTimes
			proof, err := groth16.Prove(c.f.ccs, c.f.pk, c.f.witness, groth16.WithBackend(c.dev(log)),
				groth16.WithKZMode(groth16.KZMerged), groth16.WithRandomness(seeded(seed)),
				groth16.WithPhaseTimes(func(_ int, p groth16.PhaseTimes) { pt = p }))
			if err != nil {
				t.Fatalf("seed %d: Prove: %v", seed, err)
			}
			if got := proofBytes(t, proof); !bytes.Equal(got, want) {
				t.Fatalf("seed %d: proof differs from gnark's", seed)
			}
			if !strings.HasPrefix(pt.Plan, c.plan) {
				t.Errorf("plan %q, want %q", pt.Plan, c.plan)
			}
			checkKZRan(t, c.f, log, pt, false)
		})
	}
}

// allPublic has only public inputs and no wire of its own: the key has no
// K point.
type allPublic struct {
	X frontend.Variable `gnark:",public"`
	Y frontend.Variable `gnark:",public"`
	Z frontend.Variable `gnark:",public"`
}

func (c *allPublic) Define(api frontend.API) error {
	api.AssertIsEqual(c.X, c.Y)
	api.AssertIsEqual(api.Add(c.X, c.Y), c.Z)
	return nil
}

// noKFixture is allPublic with a random X, its key checked to have no K
// point.
func noKFixture(t *testing.T) *fixture {
	t.Helper()
	x := rand.Uint64N(1<<32) + 1
	t.Logf("all-public witness X = %d", x)
	f, err := newFixture("all-public", &allPublic{}, &allPublic{X: x, Y: x, Z: 2 * x})
	if err != nil {
		t.Fatal(err)
	}
	if nbK, _ := kzSizes(f); nbK != 0 {
		t.Fatalf("the all-public circuit's key has %d K points, want none", nbK)
	}
	return f
}

// TestKZDeviceKey: a DeviceKey planned for K and Z as one MSM (KZMerged)
// serves a Prover that keeps them apart (KZSeparate, the default) too, and
// a DeviceKey planned with KZSeparate keeps them apart for every Prover.
// Each proof gives gnark's bytes and runs what both modes allow.
func TestKZDeviceKey(t *testing.T) {
	f := fixtureNamed(t, "manypublic")
	for _, keyMode := range []groth16.KZMode{groth16.KZMerged, groth16.KZSeparate} {
		log := &opLog{}
		g := newGPULike(log)
		k, err := groth16.NewDeviceKey(g, f.pk, groth16.WithKZMode(keyMode))
		if err != nil {
			t.Fatal(err)
		}
		for _, mode := range []groth16.KZMode{groth16.KZMerged, groth16.KZSeparate} {
			log.reset()
			seed := rand.Uint64()
			var pt groth16.PhaseTimes
			proof, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithDeviceKey(k), groth16.WithKZMode(mode),
				groth16.WithRandomness(seeded(seed)), groth16.WithPhaseTimes(func(_ int, p groth16.PhaseTimes) { pt = p }))
			if err != nil {
				t.Fatalf("key %v, prover %v, seed %d: %v", keyMode, mode, seed, err)
			}
			if !bytes.Equal(proofBytes(t, proof), gnarkProof(t, f, seed)) {
				t.Fatalf("key %v, prover %v, seed %d: proof differs from gnark's", keyMode, mode, seed)
			}
			checkKZRan(t, f, log, pt, keyMode == groth16.KZMerged && mode == groth16.KZMerged)
		}
		if err := k.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestKZFallbacks: the merged MSM that runs out of memory beside the
// others runs again alone, and the proof is right; a merged MSM or copy
// of h that fails is an error naming the merged MSM (and the copy); a
// batch cancelled at the first copy of h returns context.Canceled and
// leaves the device as it found it.
func TestKZFallbacks(t *testing.T) {
	f := fixtureNamed(t, "mulchain")
	nbK, nbZ := kzSizes(f)
	merged := int64(nbK + nbZ)

	t.Run("out-of-memory", func(t *testing.T) {
		log := &opLog{}
		var failed bool
		log.fail = func(op cpu.Op, size int64) error {
			if op == cpu.OpMSMG1 && size == merged && !failed {
				failed = true
				return fmt.Errorf("injected: %w", backend.ErrOutOfMemory)
			}
			return nil
		}
		seed := rand.Uint64()
		var pt groth16.PhaseTimes
		proof, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithBackend(newGPULike(log)), groth16.WithRandomness(seeded(seed)),
			groth16.WithKZMode(groth16.KZMerged), groth16.WithPhaseTimes(func(_ int, p groth16.PhaseTimes) { pt = p }))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if !bytes.Equal(proofBytes(t, proof), gnarkProof(t, f, seed)) {
			t.Fatalf("seed %d: the proof after the retry differs from gnark's", seed)
		}
		if !strings.Contains(groth16.FormatSpans(pt.Spans), "MSM K+Z (alone, again)") {
			t.Errorf("spans %s: no retry of the merged MSM", groth16.FormatSpans(pt.Spans))
		}
		if n := log.count(cpu.OpCopy, int64(nbZ)*backend.ScalarBytes); n != 2 {
			t.Errorf("%d copies of h, want 2 (the retry copies again)", n)
		}
	})

	for _, c := range []struct {
		name string
		op   cpu.Op
		size int64
		want []string
	}{
		{"msm-fails", cpu.OpMSMG1, merged, []string{"MSM K+Z", "injected fault"}},
		{"copy-fails", cpu.OpCopy, int64(nbZ) * backend.ScalarBytes, []string{"MSM K+Z", "Copy", "injected fault"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			log := &opLog{fail: func(op cpu.Op, size int64) error {
				if op == c.op && size == c.size {
					return errors.New("injected fault")
				}
				return nil
			}}
			_, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithBackend(newGPULike(log)), groth16.WithKZMode(groth16.KZMerged))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}

	t.Run("cancel", func(t *testing.T) {
		goroutines := runtime.NumGoroutine()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		log := &opLog{fail: func(op cpu.Op, _ int64) error {
			if op == cpu.OpCopy {
				cancel()
			}
			return nil
		}}
		g := newGPULike(log)
		before := baseline([]*cpu.Backend{g.Backend})
		_, err := proveBatch(t, ctx, f, same(f, 20), groth16.WithBackend(g), groth16.WithKZMode(groth16.KZMerged))
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("ProveBatch returned %v, want context.Canceled", err)
		}
		if n := log.count(cpu.OpCopy, -1); n >= 20 {
			t.Errorf("%d copies of h: the batch was not stopped", n)
		}
		checkReleased(t, []*cpu.Backend{g.Backend}, before)
		waitGoroutines(t, goroutines)
	})
}

// TestWithKZModeRejectsUnknown: a mode outside KZMode's constants fails
// the call with an error naming the option.
func TestWithKZModeRejectsUnknown(t *testing.T) {
	f := testFixtures(t)[0]
	for _, m := range []groth16.KZMode{-1, 2} {
		_, err := groth16.NewProver(f.ccs, f.pk, groth16.WithBackend(cpu.MustNew()), groth16.WithKZMode(m))
		if err == nil || !strings.Contains(err.Error(), "WithKZMode") || !errors.Is(err, groth16.ErrInput) {
			t.Errorf("WithKZMode(%d): got %v, want an input error naming WithKZMode", int(m), err)
		}
	}
	if got := fmt.Sprint(groth16.KZMerged, groth16.KZSeparate, groth16.KZMode(5)); got != "merged separate KZMode(5)" {
		t.Errorf("KZMode strings %q", got)
	}
}
