//go:build cuda

package groth16_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	groth16bls "github.com/consensys/gnark/backend/groth16/bls12-381"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/backend/cuda"
	"github.com/g16prover/g16/curve"
	"github.com/g16prover/g16/groth16"
	"github.com/g16prover/g16/internal/synth"
	"github.com/g16prover/g16/pool"
)

// newGPU opens GPU 0. A cuda build's tests are meant for a machine with a
// GPU: no device is a failure, not a skip.
func newGPU(t *testing.T, opts ...cuda.Option) *cuda.Backend {
	t.Helper()
	g, err := cuda.New(0, opts...)
	if err != nil {
		t.Fatalf("cuda.New(0): %v", err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

// TestCUDAProveMatchesGnark proves the test circuits on the GPU, on each
// curve of package curve's table that the kernels compute on (a subtest
// skips, naming it, any other): the bytes must be gnark's for the same
// randomness, and gnark must accept them.
func TestCUDAProveMatchesGnark(t *testing.T) {
	gpu := newGPU(t)
	var fixtures []*fixture
	for _, id := range curve.Supported() {
		if err := cuda.SupportsCurve(id); err != nil {
			t.Run(curve.Name(id), func(t *testing.T) { t.Skipf("the CUDA kernels do not compute on %s: %v", curve.Name(id), err) })
			continue
		}
		fixtures = append(fixtures, fixturesOn(t, id)...)
	}
	for _, f := range fixtures {
		t.Run(curve.Name(f.pk.CurveID())+"/"+f.name, func(t *testing.T) {
			seed := rand.Uint64()
			want := gnarkProof(t, f, seed)
			proof, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithBackend(gpu), groth16.WithRandomness(seeded(seed)))
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if got := proofBytes(t, proof); !bytes.Equal(got, want) {
				t.Fatalf("seed %d: GPU proof differs from gnark's", seed)
			}
			if err := gnarkgroth16.Verify(proof, f.vk, f.public); err != nil {
				t.Fatalf("seed %d: gnark rejects the GPU proof: %v", seed, err)
			}
		})
	}
}

// TestCUDAProveSizes proves synthetic circuits from 2^10 to 2^20
// constraints (2^14 with -short) on the GPU and on the CPU backend with the
// same randomness: the bytes must agree. Up to 2^12 the keys come from
// gnark's setup and the proofs must verify; above, keys have random bases.
func TestCUDAProveSizes(t *testing.T) {
	gpu := newGPU(t)
	host := cpu.MustNew()
	maxLog := 20
	if testing.Short() {
		maxLog = 14
	}
	for k := 10; k <= maxLog; k++ {
		for _, target := range []int{1 << k, 1<<k - 37} {
			if k > 12 && target != 1<<k {
				continue // one odd size per small k is enough
			}
			t.Run(fmt.Sprintf("n=%d", target), func(t *testing.T) {
				ccs, shape, err := synth.Compile(synth.Mix, target)
				if err != nil {
					t.Fatal(err)
				}
				w, err := synth.Witness(shape, rand.Uint64())
				if err != nil {
					t.Fatal(err)
				}
				var pk gnarkgroth16.ProvingKey
				var vk gnarkgroth16.VerifyingKey
				if k <= 12 {
					if pk, vk, err = gnarkgroth16.Setup(ccs); err != nil {
						t.Fatal(err)
					}
				} else if pk, err = synth.RandomKey(ccs); err != nil {
					t.Fatal(err)
				}
				seed := rand.Uint64()
				want, err := groth16.Prove(ccs, pk, w, groth16.WithBackend(host), groth16.WithRandomness(seeded(seed)))
				if err != nil {
					t.Fatalf("CPU backend: %v", err)
				}
				got, err := groth16.Prove(ccs, pk, w, groth16.WithBackend(gpu), groth16.WithRandomness(seeded(seed)))
				if err != nil {
					t.Fatalf("GPU: %v", err)
				}
				if !bytes.Equal(proofBytes(t, got), proofBytes(t, want)) {
					t.Fatalf("seed %d: GPU and CPU proofs differ", seed)
				}
				if vk != nil {
					pub, _ := w.Public()
					if err := gnarkgroth16.Verify(got, vk, pub); err != nil {
						t.Fatalf("gnark rejects the GPU proof: %v", err)
					}
				}
			})
		}
	}
}

// stagingOOM is a GPU whose pooled allocations of a partition's buffer
// sizes fail with out-of-memory, as on a device too full for a second set:
// staging is skipped every time, and the fallback's direct allocations
// (after a trim) reach the real device.
type stagingOOM struct {
	backend.Backend
	sizes map[int64]bool
}

func (g *stagingOOM) Alloc(q backend.Queue, bytes int64) (backend.Buffer, error) {
	if g.sizes[bytes] {
		return nil, fmt.Errorf("%s: Alloc(%d): %w (injected: device full)", g.Backend, bytes, backend.ErrOutOfMemory)
	}
	return g.Backend.Alloc(q, bytes)
}

// TestCUDABatchFallback proves batches on the GPU where staging cannot get
// memory, and checks every proof and what the trace says.
//
// With "full", every pooled allocation of a partition's buffers fails, so
// every partition goes through the fallback: trim the pool, allocate
// directly (cudaMalloc), compute. With "limit", the device's memory limit is
// set to what one proof holds at its peak (key, one buffer set, the MSMs'
// scratch) plus half a set, with the budget set too high on purpose; the
// proofs must all be right whatever the scheduler could stage.
func TestCUDABatchFallback(t *testing.T) {
	f := fixtureNamed(t, "rangecheck-bsb22")
	key, set := memoryOf(t, f)
	const partitions = 6
	want := expected(t, f, partitions)

	t.Run("full", func(t *testing.T) {
		gpu := newGPU(t)
		sizes := map[int64]bool{}
		pk := f.pk.(*groth16bls.ProvingKey)
		n := int64(pk.Domain.Cardinality)
		sizes[n*curve.Must(ecc.BLS12_381).FrBytes] = true
		trace := pool.NewTrace()
		proofs, err := proveBatch(t, context.Background(), f, same(f, partitions),
			groth16.WithBackends(&stagingOOM{Backend: gpu, sizes: sizes}), groth16.WithWorkersPerDevice(3),
			groth16.WithTrace(trace), groth16.WithBatchRandomness(seedsFrom(batchSeed)))
		if err != nil {
			t.Fatal(err)
		}
		checkProofs(t, proofs, want, nil)
		s := trace.Summary()
		t.Logf("trace summary:\n%s", s)
		if s.Fallbacks == 0 || s.StagingSkipped == 0 {
			t.Fatalf("want fallbacks and staging skipped, got %d fallbacks, %d skipped", s.Fallbacks, s.StagingSkipped)
		}
	})

	t.Run("limit", func(t *testing.T) {
		probe := newGPU(t)
		if err := probe.TrimPool(0); err != nil { // the pool is the device's: start it empty
			t.Fatal(err)
		}
		probe.PeakMemory(true)
		if _, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithBackend(probe)); err != nil {
			t.Fatal(err)
		}
		// Prove trims what it held on return: its peak is the backend's
		// count of bytes in use (buffers and MSM scratch).
		peak := probe.PeakMemory(false)
		if peak < key+set {
			t.Fatalf("one proof's peak %d bytes is below the key and a buffer set (%d)", peak, key+set)
		}
		t.Logf("one proof holds %d bytes at its peak (key %d, buffer set %d)", peak, key, set)
		gpu := newGPU(t, cuda.WithMemoryLimit(peak+set/2))
		// The budget lies: four buffer sets beside the key and the MSMs'
		// scratch (Backend.Scratch, summed as when they run side by side).
		pk := f.pk.(*groth16bls.ProvingKey)
		var scratch int64
		for _, n := range []int{len(pk.G1.A), len(pk.G1.B), len(pk.G1.K), len(pk.G1.Z)} {
			scratch += gpu.Scratch(backend.KernelMSMG1, ecc.BLS12_381, n)
		}
		scratch += gpu.Scratch(backend.KernelMSMG2, ecc.BLS12_381, len(pk.G2.B))
		for _, ck := range pk.CommitmentKeys {
			scratch += gpu.Scratch(backend.KernelMSMG1, ecc.BLS12_381, len(ck.Basis))
		}
		trace := pool.NewTrace()
		proofs, err := proveBatch(t, context.Background(), f, same(f, partitions),
			groth16.WithBackends(gpu), groth16.WithWorkersPerDevice(3), groth16.WithTrace(trace),
			groth16.WithMemoryBudget(key+4*set+scratch), groth16.WithBatchRandomness(seedsFrom(batchSeed)))
		if err != nil {
			t.Fatal(err)
		}
		checkProofs(t, proofs, want, nil)
		t.Logf("trace summary:\n%s", trace.Summary())
	})
}

// faultyGPU fails its MSMs from the after-th call on, as a GPU that breaks
// mid-batch would.
type faultyGPU struct {
	backend.Backend
	calls, after int32
}

func (f *faultyGPU) MSMG1(q backend.Queue, cv ecc.ID, out []byte, bases backend.Buffer, off int64, scalars backend.Buffer, n int) error {
	if atomic.AddInt32(&f.calls, 1) > f.after {
		return fmt.Errorf("%s: injected fault in MSMG1", f.Backend)
	}
	return f.Backend.MSMG1(q, cv, out, bases, off, scalars, n)
}

// TestCUDAMultiGPU proves one batch over every visible GPU (at least two),
// first healthy, then with GPU 1 failing mid-batch: every partition must
// still give Prove's bytes, the trace must show the retries, and both GPUs
// must have worked.
func TestCUDAMultiGPU(t *testing.T) {
	n, err := cuda.DeviceCount()
	if err != nil {
		t.Fatal(err)
	}
	if n < 2 {
		t.Skipf("needs two GPUs, %d visible", n)
	}
	f := fixtureNamed(t, "rangecheck-bsb22")
	const partitions = 10
	want := expected(t, f, partitions)
	for _, faulty := range []bool{false, true} {
		t.Run(fmt.Sprintf("fault=%v", faulty), func(t *testing.T) {
			g0, g1 := newGPUn(t, 0), newGPUn(t, 1)
			var second backend.Backend = g1
			if faulty {
				second = &faultyGPU{Backend: g1, after: 6} // a partition and a bit
			}
			trace := pool.NewTrace()
			proofs, err := proveBatch(t, context.Background(), f, same(f, partitions),
				groth16.WithBackends(g0, second), groth16.WithTrace(trace), groth16.WithBatchRandomness(seedsFrom(batchSeed)))
			if err != nil {
				t.Fatal(err)
			}
			checkProofs(t, proofs, want, nil)
			s := trace.Summary()
			t.Logf("trace summary:\n%s", s)
			if faulty && s.Retries == 0 {
				t.Fatal("GPU 1 failed but no partition was retried")
			}
			if !faulty {
				for _, d := range s.Devices {
					if d.Partitions == 0 {
						t.Errorf("%s proved no partition", d.Device)
					}
				}
			}
		})
	}
}

func newGPUn(t *testing.T, i int) *cuda.Backend {
	t.Helper()
	g, err := cuda.New(i)
	if err != nil {
		t.Fatalf("cuda.New(%d): %v", i, err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}
