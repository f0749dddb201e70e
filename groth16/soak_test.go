package groth16_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/groth16"
	"github.com/g16prover/g16/internal/synth"
)

// SoakEnv sets how many proofs TestSoak makes (it is skipped without it).
const soakEnv = "G16_SOAK"

// soakProofs returns the proof count G16_SOAK asks for, or skips.
func soakProofs(t *testing.T) int {
	s := os.Getenv(soakEnv)
	if s == "" {
		t.Skipf("set %s=N to prove N proofs (make soak: 1000)", soakEnv)
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q: want a positive count", soakEnv, s)
	}
	return n
}

// soakSample is one reading of the process and the device.
type soakSample struct {
	proofs     int
	heap       uint64 // live heap after a GC
	goroutines int
	dev        backend.MemStats
}

func (s soakSample) String() string {
	return fmt.Sprintf("after %5d proofs: heap %6.1f MiB, %3d goroutines, device in use %d B, cached %d B",
		s.proofs, float64(s.heap)/(1<<20), s.goroutines, s.dev.InUse, s.dev.Cached)
}

func sample(proofs int, dev backend.Backend) soakSample {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return soakSample{proofs: proofs, heap: m.HeapAlloc, goroutines: runtime.NumGoroutine(), dev: dev.Memory()}
}

// runSoak proves n proofs of the synthetic circuit of 2^8 constraints
// through one Prover's ProveBatch, in batches of 50 distinct witnesses, on
// dev; it checks a proof of every batch with gnark's verifier, and that the
// heap, the goroutines and the device memory after the soak are what they
// were after the first batch, within bounds.
func runSoak(t *testing.T, dev backend.Backend, n int) {
	const batch = 50
	ccs, shape, err := synth.Compile(synth.Mix, 1<<8)
	if err != nil {
		t.Fatal(err)
	}
	pk, vk, err := gnarkgroth16.Setup(ccs)
	if err != nil {
		t.Fatal(err)
	}
	witnesses := make([]witness.Witness, batch)
	publics := make([]witness.Witness, batch)
	for i := range witnesses {
		if witnesses[i], err = synth.Witness(shape, uint64(i+1)); err != nil {
			t.Fatal(err)
		}
		if publics[i], err = witnesses[i].Public(); err != nil {
			t.Fatal(err)
		}
	}
	pr, err := groth16.NewProver(ccs, pk, groth16.WithBackend(dev))
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	ctx := context.Background()
	proveBatch := func(round int) {
		proofs, err := pr.ProveBatch(ctx, witnesses)
		if err != nil {
			t.Fatalf("batch %d: %v", round, err)
		}
		k := round % batch
		if err := gnarkgroth16.Verify(proofs[k], vk, publics[k]); err != nil {
			t.Fatalf("batch %d: proof %d does not verify: %v", round, k, err)
		}
	}
	// The first batch loads the key and allocates what every batch reuses.
	proveBatch(0)
	first := sample(batch, dev)
	t.Log(first)
	samples := []soakSample{first}
	start := time.Now()
	rounds := max(1, (n-batch+batch-1)/batch)
	for r := 1; r <= rounds; r++ {
		proveBatch(r)
		if r%(max(1, rounds/5)) == 0 || r == rounds {
			s := sample(batch*(r+1), dev)
			t.Log(s)
			samples = append(samples, s)
		}
	}
	elapsed := time.Since(start)
	last := samples[len(samples)-1]
	t.Logf("soak on %s: %d proofs after the first batch in %v (%.1f ms a proof)", dev, batch*rounds, elapsed.Round(time.Millisecond),
		float64(elapsed.Milliseconds())/float64(batch*rounds))
	// Bounded growth: the heap may differ by GC timing and caches that
	// reach their size (16 MiB or a quarter, whichever is larger); the
	// goroutines by ones still winding down; the device not at all.
	if bound := max(first.heap/4, 16<<20); last.heap > first.heap+bound {
		t.Errorf("heap grew from %d to %d bytes (bound %d)", first.heap, last.heap, bound)
	}
	if last.goroutines > first.goroutines+2 {
		t.Errorf("goroutines grew from %d to %d", first.goroutines, last.goroutines)
	}
	if last.dev.InUse != first.dev.InUse || last.dev.Cached > first.dev.Cached {
		t.Errorf("device memory grew: in use %d → %d, cached %d → %d", first.dev.InUse, last.dev.InUse, first.dev.Cached, last.dev.Cached)
	}
}

// TestSoak: G16_SOAK proofs on the CPU backend (make soak: 1000).
func TestSoak(t *testing.T) {
	n := soakProofs(t)
	dev := cpu.MustNew()
	defer dev.Close()
	runSoak(t, dev, n)
}
