package groth16

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16/bls12-381"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/internal/synth"
)

// tabling is the CPU backend with the table methods of baseTables and
// tableScratcher: it records each PrecomputeBases call (and makes no
// table: its MSMs read the bases as before), so a test sees which tables
// a resident key asks for.
type tabling struct {
	backend.Backend
	mu    sync.Mutex
	calls []tableCall
}

type tableCall struct {
	bases        backend.Buffer
	off          int64
	n            int
	k            backend.Kernel
	copies, w    int
	basesInRange bool
}

func (b *tabling) PrecomputeBases(q backend.Queue, bases backend.Buffer, off int64, n int, k backend.Kernel, copies, w int) error {
	size := backend.G1AffineBytes
	if k == backend.KernelMSMG2 {
		size = backend.G2AffineBytes
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.calls = append(b.calls, tableCall{bases, off, n, k, copies, w, off+int64(n)*size <= bases.Bytes()})
	return nil
}

func (b *tabling) TableScratch(k backend.Kernel, n, copies int) int64 { return b.Scratch(k, n) }

// TestTablesPlan: on a backend with tables and room for them, the resident
// key asks for the most copies of tables over each of its five MSMs'
// bases, the plan says so, the key's bytes count them, and the proof is
// the one without tables; at the plain plan's own need there are none.
func TestTablesPlan(t *testing.T) {
	ccs, shape, err := synth.Compile(synth.Mix, 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	gpk, err := synth.RandomKey(ccs)
	if err != nil {
		t.Fatal(err)
	}
	pk := gpk.(*gnarkgroth16.ProvingKey)
	w, err := synth.Witness(shape, 5)
	if err != nil {
		t.Fatal(err)
	}
	dev := &tabling{Backend: cpu.MustNew(cpu.WithCapacity(1 << 32))}
	var plan string
	proof, err := Prove(ccs, gpk, w, WithBackend(dev), WithRandomness(seededReader(11)),
		WithPhaseTimes(func(_ int, pt PhaseTimes) { plan = pt.Plan }))
	if err != nil {
		t.Fatal(err)
	}
	if want := "tables of 12 copies"; !strings.Contains(plan, want) {
		t.Errorf("plan %q, want %q", plan, want)
	}
	want := []struct {
		k backend.Kernel
		n int
	}{{backend.KernelMSMG1, len(pk.G1.A)}, {backend.KernelMSMG1, len(pk.G1.B)}, {backend.KernelMSMG1, len(pk.G1.K)},
		{backend.KernelMSMG1, len(pk.G1.Z)}, {backend.KernelMSMG2, len(pk.G2.B)}}
	if len(dev.calls) != len(want) {
		t.Fatalf("%d PrecomputeBases calls, want %d", len(dev.calls), len(want))
	}
	var off int64
	for i, c := range dev.calls {
		if c.k != want[i].k || c.n != want[i].n || c.copies != 12 || c.w != 0 || !c.basesInRange {
			t.Errorf("call %d: %+v, want kernel %v, %d points, 12 copies", i, c, want[i].k, want[i].n)
		}
		if i == 4 {
			off = 0
		}
		if c.off != off {
			t.Errorf("call %d: offset %d, want %d", i, c.off, off)
		}
		off += int64(c.n) * backend.G1AffineBytes
	}
	plain, err := Prove(ccs, gpk, w, WithBackend(cpu.MustNew()), WithRandomness(seededReader(11)))
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if _, err := proof.WriteTo(&a); err != nil {
		t.Fatal(err)
	}
	if _, err := plain.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Errorf("the proof with tables differs from the one without")
	}

	// The sizing: none at the plain plan's need; c copies when their tables
	// take half the room left.
	set := setBytes(pk, false)
	commit := commitScratch(dev, pk)
	sum, _ := msmScratch(dev, pk, 0)
	need := keyBytes(pk) + set + sum + commit
	for _, c := range []struct {
		budget int64
		copies int
	}{{need, 0}, {need + 2*tablesBytes(pk, 2) - 2, 0}, {need + 2*tablesBytes(pk, 2), 2}, {need + 2*tablesBytes(pk, 6), 6}, {need + 2*tablesBytes(pk, 12), 12}} {
		pl, err := choosePlan(dev, pk, c.budget)
		if err != nil {
			t.Fatal(err)
		}
		if pl.copies != c.copies {
			t.Errorf("budget need%+d: %d copies (%q), want %d", c.budget-need, pl.copies, pl, c.copies)
		}
		if c.copies > 0 && (pl.bytes != keyBytes(pk)+tablesBytes(pk, c.copies) || pl.tableBytes != tablesBytes(pk, c.copies)) {
			t.Errorf("budget need%+d: plan bytes %d, tables %d", c.budget-need, pl.bytes, pl.tableBytes)
		}
	}
}

// seededReader is a deterministic randomness stream from seed.
func seededReader(seed uint64) *rand.ChaCha8 {
	var s [32]byte
	for i := 0; i < 8; i++ {
		s[i] = byte(seed >> (8 * i))
	}
	return rand.NewChaCha8(s)
}
