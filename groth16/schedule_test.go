package groth16_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	groth16bls "github.com/consensys/gnark/backend/groth16/bls12-381"
	"github.com/consensys/gnark/backend/witness"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/groth16"
)

// gpuLike is a CPU backend that the prover schedules as a GPU: not host
// bound, with urgent queues (which it records, and on which it checks that
// every NTT runs).
type gpuLike struct {
	*cpu.Backend
	mu     sync.Mutex
	urgent map[backend.Queue]bool
	ntts   int
	stray  int // NTTs on a queue that is not urgent
}

func (g *gpuLike) HostBound() bool { return false }

func (g *gpuLike) NewUrgentQueue() (backend.Queue, error) {
	q, err := g.Backend.NewQueue()
	if err == nil {
		g.mu.Lock()
		g.urgent[q] = true
		g.mu.Unlock()
	}
	return q, err
}

func (g *gpuLike) NTT(q backend.Queue, data backend.Buffer, spec backend.NTTSpec) error {
	g.mu.Lock()
	g.ntts++
	if !g.urgent[q] {
		g.stray++
	}
	g.mu.Unlock()
	return g.Backend.NTT(q, data, spec)
}

// g2First is a hook that holds the uploads of a, b and c (evalBytes each)
// until the G2 MSM has started (or fails them after a while): the G2 MSM
// must start on its wire vector, before a, b, c go up.
type g2First struct {
	evalBytes int64
	mu        sync.Mutex
	uploads   int
	started   chan struct{}
	once      sync.Once
}

func (h *g2First) hook(op cpu.Op, size int64) error {
	switch op {
	case cpu.OpMSMG2:
		h.once.Do(func() { close(h.started) })
	case cpu.OpUpload:
		if size != h.evalBytes {
			return nil
		}
		h.mu.Lock()
		h.uploads++
		h.mu.Unlock()
		select {
		case <-h.started:
		case <-time.After(time.Minute): // generous: a loaded machine may start the G2 MSM late
			return fmt.Errorf("upload %d before the G2 MSM started", h.uploads)
		}
	}
	return nil
}

// TestGPUScheduleMatchesGnark proves each test circuit on a CPU backend
// scheduled as a GPU (the MSMs side by side with H, each wire vector
// uploaded just before its MSMs, the G2 MSM first, H on an urgent queue,
// then Z's MSM), with Prove and with ProveBatch, on fresh seeds: the
// proofs must equal gnark's bytes.
func TestGPUScheduleMatchesGnark(t *testing.T) {
	for _, f := range testFixtures(t) {
		t.Run(f.name, func(t *testing.T) {
			seed := rand.Uint64()
			want := gnarkProof(t, f, seed)
			n := int64(f.pk.(*groth16bls.ProvingKey).Domain.Cardinality)
			h := &g2First{evalBytes: n * 32, started: make(chan struct{})}
			g := &gpuLike{Backend: cpu.MustNew(cpu.WithHook(h.hook)), urgent: map[backend.Queue]bool{}}
			var plan string
			proof, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithBackend(g), groth16.WithRandomness(seeded(seed)),
				groth16.WithPhaseTimes(func(_ int, pt groth16.PhaseTimes) { plan = pt.Plan }))
			if err != nil {
				t.Fatalf("seed %d: Prove: %v", seed, err)
			}
			if got := proofBytes(t, proof); !bytes.Equal(got, want) {
				t.Fatalf("seed %d: proof differs from gnark's\n got %x\nwant %x", seed, got, want)
			}
			if err := gnarkgroth16.Verify(proof, f.vk, f.public); err != nil {
				t.Fatalf("seed %d: gnark rejects the proof: %v", seed, err)
			}
			if plan != "key resident" && !strings.HasPrefix(plan, "key resident; B2 on the device") {
				t.Fatalf("plan %q, want the resident plan", plan)
			}
			g.mu.Lock()
			ntts, stray, urgent := g.ntts, g.stray, len(g.urgent)
			g.mu.Unlock()
			h.mu.Lock()
			uploads := h.uploads
			h.mu.Unlock()
			if uploads != 3 {
				t.Fatalf("%d uploads of %d bytes, want a, b and c", uploads, h.evalBytes)
			}
			if ntts != 7 || stray != 0 || urgent != 1 {
				t.Fatalf("%d NTTs, %d of them off the urgent queue, %d urgent queues: want 7 NTTs on one urgent queue", ntts, stray, urgent)
			}

			// A batch of two (staged by the scheduler, then computed).
			seeds := []uint64{rand.Uint64(), rand.Uint64()}
			gb := &gpuLike{Backend: cpu.MustNew(), urgent: map[backend.Queue]bool{}}
			proofs, err := groth16.ProveBatch(context.Background(), f.ccs, f.pk, []witness.Witness{f.witness, f.witness},
				groth16.WithBackend(gb), groth16.WithBatchRandomness(func(i int) io.Reader { return seeded(seeds[i]) }))
			if err != nil {
				t.Fatalf("seeds %v: ProveBatch: %v", seeds, err)
			}
			for i, p := range proofs {
				if got, want := proofBytes(t, p), gnarkProof(t, f, seeds[i]); !bytes.Equal(got, want) {
					t.Fatalf("seed %d: batch proof %d differs from gnark's", seeds[i], i)
				}
			}
			gb.mu.Lock()
			defer gb.mu.Unlock()
			if gb.ntts != 14 || gb.stray != 0 {
				t.Fatalf("batch: %d NTTs, %d of them off the urgent queues: want 14, all urgent", gb.ntts, gb.stray)
			}
		})
	}
}

// domainSize is the domain size of f's proving key, on any curve (each
// curve's key has a Domain with a Cardinality).
func domainSize(t *testing.T, f *fixture) int64 {
	t.Helper()
	d := reflect.ValueOf(f.pk).Elem().FieldByName("Domain")
	if !d.IsValid() {
		t.Fatalf("proving key %T has no Domain", f.pk)
	}
	return int64(d.FieldByName("Cardinality").Uint())
}
