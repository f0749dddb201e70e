package cpu_test

import (
	"errors"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/curve"
)

// randomMSM draws n random G1 bases and scalars from seed.
func randomMSM(t *testing.T, seed uint64, n int) ([]bls12381.G1Affine, []fr.Element) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	mults := make([]fr.Element, n)
	scalars := make([]fr.Element, n)
	for i := range n {
		mults[i].SetUint64(rng.Uint64())
		scalars[i] = fr.Element{rng.Uint64(), rng.Uint64(), rng.Uint64(), rng.Uint64() >> 4}
	}
	_, _, g, _ := bls12381.Generators()
	return bls12381.BatchScalarMultiplicationG1(&g, mults), scalars
}

func TestScratchQuery(t *testing.T) {
	b := cpu.MustNew(cpu.WithMSMScratch(100, 1000))
	for _, c := range []struct {
		k    backend.Kernel
		n    int
		want int64
	}{
		{backend.KernelMSMG1, 10, 1000},
		{backend.KernelMSMG2, 5000, 100000}, // one pass of 1000 points
		{backend.KernelNTT, 1 << 10, 0},
		{backend.KernelQuotientStep, 1 << 10, 0},
	} {
		if got := b.Scratch(c.k, ecc.BLS12_381, c.n); got != c.want {
			t.Errorf("Scratch(%v, %d) = %d, want %d", c.k, c.n, got, c.want)
		}
	}
	if got := cpu.MustNew().Scratch(backend.KernelMSMG1, ecc.BLS12_381, 64); got != 64*cpu.DefaultMSMScratch {
		t.Errorf("default Scratch(MSMG1, 64) = %d, want %d", got, 64*cpu.DefaultMSMScratch)
	}
	for _, o := range []cpu.Option{cpu.WithMSMScratch(-1, 10), cpu.WithMSMScratch(10, 0)} {
		if _, err := cpu.New(o); err == nil {
			t.Error("a bad WithMSMScratch was accepted")
		}
	}
}

// TestMSMScratchPasses: the device has room for the MSM's arguments and
// the scratch of 300 points, not of the 1000 the MSM asks for. The MSM
// halves its pass until the scratch fits and gives gnark-crypto's result;
// the scratch is back in the pool's cache afterwards.
func TestMSMScratchPasses(t *testing.T) {
	const n, perPoint = 1000, 320
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	points, scalars := randomMSM(t, seed, n)
	args := int64(n)*curve.Must(ecc.BLS12_381).G1AffineBytes + int64(n)*curve.Must(ecc.BLS12_381).FrBytes
	var mu sync.Mutex
	var passes []int64
	hook := func(op cpu.Op, size int64) error {
		if op == cpu.OpScratch {
			mu.Lock()
			passes = append(passes, size/perPoint)
			mu.Unlock()
		}
		return nil
	}
	b := cpu.MustNew(cpu.WithCapacity(args+300*perPoint), cpu.WithMSMScratch(perPoint, 1<<20), cpu.WithHook(hook))
	q := mustQueue(t, b)
	bb, err := b.Alloc(q, int64(n)*curve.Must(ecc.BLS12_381).G1AffineBytes)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := b.Alloc(q, int64(n)*curve.Must(ecc.BLS12_381).FrBytes)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Upload(q, bb, 0, backend.AsBytes(points)); err != nil {
		t.Fatal(err)
	}
	if err := b.Upload(q, sb, 0, backend.AsBytes(scalars)); err != nil {
		t.Fatal(err)
	}
	var got, want bls12381.G1Jac
	if err := b.MSMG1(q, ecc.BLS12_381, backend.ValueBytes(&got), bb, 0, sb, n); err != nil {
		t.Fatalf("MSMG1: %v", err)
	}
	if _, err := want.MultiExp(points, scalars, ecc.MultiExpConfig{}); err != nil {
		t.Fatal(err)
	}
	if !got.Equal(&want) {
		t.Fatal("MSM in short passes differs from gnark-crypto's MultiExp")
	}
	// 1000 and 500 do not fit; 250 does: 250, 250, 250, 250.
	if len(passes) != 6 || passes[0] != 1000 || passes[1] != 500 || passes[2] != 250 || passes[5] != 250 {
		t.Errorf("scratch asked for passes %v; want 1000, 500, then 250 four times", passes)
	}
	checkMem(t, b, args, 250*perPoint)
}

// TestMSMScratchOutOfMemory: when not even the shortest pass's scratch
// fits, the MSM reports out-of-memory.
func TestMSMScratchOutOfMemory(t *testing.T) {
	const n = 1000
	points, scalars := randomMSM(t, 7, n)
	args := int64(n)*curve.Must(ecc.BLS12_381).G1AffineBytes + int64(n)*curve.Must(ecc.BLS12_381).FrBytes
	b := cpu.MustNew(cpu.WithCapacity(args+15*320), cpu.WithMSMScratch(320, 1<<20))
	q := mustQueue(t, b)
	bb, _ := b.Alloc(q, int64(n)*curve.Must(ecc.BLS12_381).G1AffineBytes)
	sb, _ := b.Alloc(q, int64(n)*curve.Must(ecc.BLS12_381).FrBytes)
	_ = b.Upload(q, bb, 0, backend.AsBytes(points))
	_ = b.Upload(q, sb, 0, backend.AsBytes(scalars))
	var got bls12381.G1Jac
	if err := b.MSMG1(q, ecc.BLS12_381, backend.ValueBytes(&got), bb, 0, sb, n); !errors.Is(err, backend.ErrOutOfMemory) {
		t.Fatalf("MSMG1 = %v; want out of memory", err)
	}
	checkMem(t, b, args, 0)
}

// TestDirectFreeWaits: freeing a direct buffer waits for the operations
// in flight on the device, from any goroutine, as cudaFree does; a pooled
// Free does not.
func TestDirectFreeWaits(t *testing.T) {
	started := make(chan struct{})
	release := make(chan struct{})
	hook := func(op cpu.Op, size int64) error {
		if op == cpu.OpNTT {
			close(started)
			<-release
		}
		return nil
	}
	b := cpu.MustNew(cpu.WithHook(hook))
	q := mustQueue(t, b)
	data, _ := b.Alloc(q, 8*curve.Must(ecc.BLS12_381).FrBytes)
	pooled, _ := b.Alloc(q, 64)
	direct, _ := b.AllocDirect(64)
	done := make(chan error, 1)
	go func() { done <- b.NTT(q, data, backend.NTTSpec{Curve: ecc.BLS12_381, LogN: 3, Order: backend.DIF}) }()
	<-started
	if err := b.Free(q, pooled); err != nil {
		t.Fatalf("pooled Free: %v", err)
	}
	freed := make(chan error, 1)
	go func() { freed <- b.Free(nil, direct) }()
	select {
	case err := <-freed:
		t.Fatalf("direct Free returned (%v) while an NTT was in flight", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := <-freed; err != nil {
		t.Fatalf("direct Free: %v", err)
	}
}
