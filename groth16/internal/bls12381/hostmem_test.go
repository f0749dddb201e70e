// Reference only: internal/generator does not copy this file.

package bls12381

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"

	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/groth16/internal/core"
	"github.com/g16prover/g16/internal/synth"
	"github.com/g16prover/g16/pool"
)

// TestHostMemoryPreflight: a proof whose vectors do not fit in the host's
// available memory fails before anything is solved, in Prove and in
// ProveBatch, with an error that says so; with enough memory it proves.
func TestHostMemoryPreflight(t *testing.T) {
	ccs, shape, err := synth.Compile(synth.Mix, 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	pk, err := synth.RandomKey(ccs)
	if err != nil {
		t.Fatal(err)
	}
	w, err := synth.Witness(shape, 3)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := NewProver(ccs, pk, onDevice(cpu.MustNew()))
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	need := pr.p.hostNeed()
	if need <= 0 {
		t.Fatalf("hostNeed %d", need)
	}
	saved := availableHostMemory
	defer func() { availableHostMemory = saved }()

	availableHostMemory = func() int64 { return need - 1 }
	solved := false
	phases := call(withPhaseTimes(func(int, PhaseTimes) { solved = true }))
	if _, err := pr.Prove(context.Background(), w, phases); err == nil || !strings.Contains(err.Error(), "host memory") {
		t.Fatalf("Prove with %d bytes available for %d needed: %v, want a host-memory error", need-1, need, err)
	}
	if _, err := pr.ProveBatch(context.Background(), []witness.Witness{w, w}, phases); err == nil || !strings.Contains(err.Error(), "host memory") {
		t.Fatalf("ProveBatch with %d bytes available for %d needed: %v, want a host-memory error", need-1, need, err)
	}
	if solved {
		t.Fatal("a proof was solved although the preflight failed")
	}

	availableHostMemory = func() int64 { return need }
	if _, err := pr.Prove(context.Background(), w, phases); err != nil {
		t.Fatalf("Prove with the memory it needs: %v", err)
	}
	if !solved {
		t.Fatal("Prove succeeded without reporting its phases")
	}
}

// TestBatchHostSlots: with the host's available memory stubbed to hold k
// partitions' vectors (beyond the key the CPU device still loads), a batch
// of 6 never has more than k partitions between the start of their solve
// and the end of their assembly (read from the trace, which records the
// bound), and every proof equals Prove's with the same randomness. A host
// that cannot hold one partition fails the batch before anything is
// solved, naming the memory needed and available.
func TestBatchHostSlots(t *testing.T) {
	ccs, shape, err := synth.Compile(synth.Mix, 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	pk, err := synth.RandomKey(ccs)
	if err != nil {
		t.Fatal(err)
	}
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	const batch = 6
	ws := make([]witness.Witness, batch)
	for i := range ws {
		if ws[i], err = synth.Witness(shape, seed+uint64(i)); err != nil {
			t.Fatal(err)
		}
	}
	randFor := func(i int) io.Reader { return seededReader(seed ^ uint64(1000+i)) }

	var logged bytes.Buffer
	pcfg := onDevice(cpu.MustNew())
	pcfg.Logger = slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelDebug}))
	pr, err := NewProver(ccs, pk, pcfg)
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	saved := availableHostMemory
	defer func() { availableHostMemory = saved }()
	need := pr.p.hostNeed()
	// reserve is what the CPU device (the host's memory) takes for a
	// batch with two workers: their copies of a, b and c and the MSMs'
	// scratch (it reads the key's bases in place).
	reserve := func() int64 {
		availableHostMemory = func() int64 { return 1 << 50 }
		hp, err := pr.planHost(0, 2, 1)
		if err != nil {
			t.Fatal(err)
		}
		return hp.reserve
	}

	r := reserve()
	pl, err := pr.devices[0].planFor(pr.p, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := pl.scratch + 2*3*int64(pr.p.n)*scalarBytes; r != want {
		t.Fatalf("the CPU device reserves %d bytes of host memory for a batch, want %d: two workers' a, b, c and the scratch, the key read in place", r, want)
	}
	availableHostMemory = func() int64 { return r + need - 1 }
	solved := false
	failing := call(func(c *core.CallConfig) {
		c.RandFor = randFor
		c.PhaseTimes = func(int, PhaseTimes) { solved = true }
	})
	_, err = pr.ProveBatch(context.Background(), ws, failing)
	if err == nil || !strings.Contains(err.Error(), "host memory") || !strings.Contains(err.Error(), gibs(r+need-1)) {
		t.Fatalf("ProveBatch with %d bytes available, %d needed for the key and one partition: %v, want a host-memory error naming both", r+need-1, r+need, err)
	}
	if solved {
		t.Fatal("a partition was solved although the batch could not fit one")
	}

	want := make([]gnarkgroth16.Proof, batch)
	for i, w := range ws {
		if want[i], err = pr.Prove(context.Background(), w, call(withRandomness(randFor(i)))); err != nil {
			t.Fatal(err)
		}
	}
	for _, k := range []int{1, 2, 3} {
		t.Run(fmt.Sprintf("slots=%d", k), func(t *testing.T) {
			r := reserve()
			// The host has room for the key and k partitions, less what
			// the Prover holds of earlier proofs' vectors (as a real
			// host's available memory would be).
			avail := r + int64(k)*need + need/2
			availableHostMemory = func() int64 { return avail - pr.vectors.held() }
			tr := pool.NewTrace()
			proofs, err := pr.ProveBatch(context.Background(), ws, call(func(c *core.CallConfig) {
				c.RandFor = randFor
				c.PoolOpts = []pool.Option{pool.WithTrace(tr), pool.WithWorkers(2), pool.WithSolvers(3)}
			}))
			if err != nil {
				t.Fatal(err)
			}
			if got := tr.Summary().HostSlots; got != k {
				t.Fatalf("trace: host slots %d, want %d (available %d, partition %d, key %d)", got, k, avail, need, r)
			}
			if line := fmt.Sprintf("slots=%d plan=\"at most %d partitions hold their host vectors at once", k, k); !strings.Contains(logged.String(), line) {
				t.Errorf("no Debug line %q in the log:\n%s", line, logged.String())
			}
			logged.Reset()
			held := tr.HeldAtOnce()
			t.Logf("slots %d: at most %d partitions held at once", k, held)
			if held > k {
				t.Errorf("%d partitions solved and not finished at once, over the %d the host holds", held, k)
			}
			for i := range proofs {
				if !sameProof(t, proofs[i], want[i]) {
					t.Errorf("partition %d: the batch's proof differs from Prove's", i)
				}
			}
		})
	}
}

// sameProof compares two proofs by their serialized bytes.
func sameProof(t *testing.T, a, b gnarkgroth16.Proof) bool {
	t.Helper()
	var ba, bb bytes.Buffer
	if _, err := a.WriteRawTo(&ba); err != nil {
		t.Fatal(err)
	}
	if _, err := b.WriteRawTo(&bb); err != nil {
		t.Fatal(err)
	}
	return bytes.Equal(ba.Bytes(), bb.Bytes())
}
