package groth16_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
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
		case <-time.After(5 * time.Second):
			return fmt.Errorf("upload %d before the G2 MSM started", h.uploads)
		}
	}
	return nil
}

// TestGPUScheduleMatchesGnark proves each test circuit on a CPU backend
// scheduled as a GPU in the HBeside order, the default (the MSMs side by
// side with H, each wire vector uploaded just before its MSMs, the G2 MSM
// first, H on an urgent queue, then Z's MSM), with Prove and
// with ProveBatch, on fresh seeds: the proofs must equal gnark's bytes.
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
				groth16.WithPhaseTimes(func(_ int, pt groth16.PhaseTimes) { plan = pt.Plan })) // HOrderAuto: HBeside
			if err != nil {
				t.Fatalf("seed %d: Prove: %v", seed, err)
			}
			if got := proofBytes(t, proof); !bytes.Equal(got, want) {
				t.Fatalf("seed %d: proof differs from gnark's\n got %x\nwant %x", seed, got, want)
			}
			if err := gnarkgroth16.Verify(proof, f.vk, f.public); err != nil {
				t.Fatalf("seed %d: gnark rejects the proof: %v", seed, err)
			}
			if plan != "key resident" {
				t.Fatalf("plan %q, want the resident plan (K and Z apart by default)", plan)
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
				groth16.WithBackend(gb), groth16.WithHOrder(groth16.HBeside), groth16.WithBatchRandomness(func(i int) io.Reader { return seeded(seeds[i]) }))
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

// hOrderLog records, from the first NTT of a proof's compute on, the
// order of its NTTs, quotient steps and MSMs (one letter each: N, Q, M).
type hOrderLog struct {
	mu  sync.Mutex
	ops []byte
}

func (h *hOrderLog) hook(op cpu.Op, _ int64) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch op {
	case cpu.OpNTT:
		h.ops = append(h.ops, 'N')
	case cpu.OpQuotientStep:
		h.ops = append(h.ops, 'Q')
	case cpu.OpMSMG1, cpu.OpMSMG2:
		if len(h.ops) > 0 { // not the commitment MSMs of the solve
			h.ops = append(h.ops, 'M')
		}
	}
	return nil
}

// TestGPUHFirstMatchesGnark proves each test circuit on a CPU backend
// scheduled as a GPU in the HFirst order, with Prove (K and Z as one MSM
// and apart) and with ProveBatch, on fresh seeds: the proofs equal gnark's
// bytes, the seven NTTs run on an urgent queue, and no MSM of the proof
// runs before h is done (NNNNNNQN, then the four MSMs, or five with K and
// Z apart).
func TestGPUHFirstMatchesGnark(t *testing.T) {
	for _, f := range testFixtures(t) {
		t.Run(f.name, func(t *testing.T) {
			for _, mode := range []groth16.KZMode{groth16.KZMerged, groth16.KZSeparate} {
				order := groth16.HFirst
				seed := rand.Uint64()
				h := &hOrderLog{}
				g := &gpuLike{Backend: cpu.MustNew(cpu.WithHook(h.hook)), urgent: map[backend.Queue]bool{}}
				proof, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithBackend(g), groth16.WithRandomness(seeded(seed)),
					groth16.WithHOrder(order), groth16.WithKZMode(mode))
				if err != nil {
					t.Fatalf("%v, seed %d: Prove: %v", order, seed, err)
				}
				if got, want := proofBytes(t, proof), gnarkProof(t, f, seed); !bytes.Equal(got, want) {
					t.Fatalf("%v, seed %d: proof differs from gnark's\n got %x\nwant %x", order, seed, got, want)
				}
				if err := gnarkgroth16.Verify(proof, f.vk, f.public); err != nil {
					t.Fatalf("%v, seed %d: gnark rejects the proof: %v", order, seed, err)
				}
				h.mu.Lock()
				ops := string(h.ops)
				h.mu.Unlock()
				want := "NNNNNNQNMMMM"
				if mode == groth16.KZSeparate {
					want += "M"
				}
				if ops != want {
					t.Fatalf("%v, %v: compute ran %q, want the seven NTTs and the quotient step before the MSMs (%s)", order, mode, ops, want)
				}
				g.mu.Lock()
				ntts, stray := g.ntts, g.stray
				g.mu.Unlock()
				if ntts != 7 || stray != 0 {
					t.Fatalf("%v: %d NTTs, %d of them off the urgent queue: want 7, all urgent", order, ntts, stray)
				}
			}

			seeds := []uint64{rand.Uint64(), rand.Uint64()}
			gb := &gpuLike{Backend: cpu.MustNew(), urgent: map[backend.Queue]bool{}}
			proofs, err := groth16.ProveBatch(context.Background(), f.ccs, f.pk, []witness.Witness{f.witness, f.witness},
				groth16.WithBackend(gb), groth16.WithHOrder(groth16.HFirst), groth16.WithBatchRandomness(func(i int) io.Reader { return seeded(seeds[i]) }))
			if err != nil {
				t.Fatalf("seeds %v: ProveBatch: %v", seeds, err)
			}
			for i, p := range proofs {
				if got, want := proofBytes(t, p), gnarkProof(t, f, seeds[i]); !bytes.Equal(got, want) {
					t.Fatalf("seed %d: batch proof %d differs from gnark's", seeds[i], i)
				}
			}
		})
	}
}

// TestWithHOrderRejectsUnknown: an order outside HOrder's constants fails
// the call with an error naming the option.
func TestWithHOrderRejectsUnknown(t *testing.T) {
	f := testFixtures(t)[0]
	_, err := groth16.NewProver(f.ccs, f.pk, groth16.WithBackend(cpu.MustNew()), groth16.WithHOrder(groth16.HOrder(7)))
	if err == nil || !strings.Contains(err.Error(), "WithHOrder") {
		t.Fatalf("WithHOrder(7): got %v, want an error naming WithHOrder", err)
	}
}
