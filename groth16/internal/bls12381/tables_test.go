// Reference only: internal/generator does not copy this file.

package bls12381

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/backend/cuda"
	"github.com/g16prover/g16/internal/synth"
)

// The cuda backend offers tables: a change of its methods' signatures that
// left them unused fails to compile here.
var (
	_ baseTables     = (*cuda.Backend)(nil)
	_ tableScratcher = (*cuda.Backend)(nil)
	_ tableCoster    = (*cuda.Backend)(nil)
)

// tabling is the CPU backend with the table methods of baseTables and
// tableScratcher: it records each PrecomputeBases call (and makes no
// table: its MSMs read the bases as before), so a test sees which tables
// a resident key asks for.
type tabling struct {
	backend.Backend
	cost  func(k backend.Kernel, n, copies int) float64
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

func (b *tabling) PrecomputeBases(q backend.Queue, c ecc.ID, bases backend.Buffer, off int64, n int, k backend.Kernel, copies, w int) error {
	if c != proverCurve {
		return fmt.Errorf("PrecomputeBases: curve %v, the key's is %v", c, proverCurve)
	}
	size := g1AffineBytes
	if k == backend.KernelMSMG2 {
		size = g2AffineBytes
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.calls = append(b.calls, tableCall{bases, off, n, k, copies, w, off+int64(n)*size <= bases.Bytes()})
	return nil
}

func (b *tabling) TableScratch(k backend.Kernel, c ecc.ID, n, copies int) int64 {
	return b.Scratch(k, c, n)
}

// TableCost is the cuda backend's model, or cost when set.
func (b *tabling) TableCost(k backend.Kernel, c ecc.ID, n, copies int) float64 {
	if b.cost != nil {
		return b.cost(k, n, copies)
	}
	return cuda.TableCost(k, c, n, copies, 0)
}

// TestTablesPlan: on a backend with tables and room for them, the resident
// key asks for the most copies of tables over each of its five MSMs'
// bases, the plan says so, the key's bytes count them, and the proof is
// the one without tables; at the plain plan's own need there are none.
func TestTablesPlan(t *testing.T) {
	ccs, shape, pk := randomKeyed(t, synth.Mix, 1<<10)
	w, err := synth.Witness(shape, 5)
	if err != nil {
		t.Fatal(err)
	}
	dev := &tabling{Backend: cpu.MustNew(cpu.WithCapacity(1 << 32))}
	var planLine string
	proof, err := proveOnce(ccs, pk, w, onDevice(dev), call(withRandomness(seededReader(11)),
		withPhaseTimes(func(_ int, pt PhaseTimes) { planLine = pt.Plan })))
	if err != nil {
		t.Fatal(err)
	}
	if want := "tables of 12 copies"; !strings.Contains(planLine, want) {
		t.Errorf("plan %q, want %q", planLine, want)
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
		off += int64(c.n) * g1AffineBytes
	}
	plain, err := proveOnce(ccs, pk, w, onDevice(cpu.MustNew()), call(withRandomness(seededReader(11))))
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

	// The sizing: none at the plain plan's need (and up to another set of
	// buffers beyond it); beyond, tables within the room, whose modelled
	// cost does not grow with the budget, each MSM's the cheapest of its
	// choices when room is no limit.
	set := setBytes(dev, pk, false)
	commit := commitScratch(dev, pk)
	sum, _ := msmScratch(dev, pk, 0)
	need := residentBytes(dev, pk) + set + sum + commit
	msms := keyMSMs(pk)
	modelled := func(pl plan) float64 {
		c := 0.0
		for i, m := range msms {
			c += dev.TableCost(m.k, proverCurve, m.n, max(1, pl.copies[i]))
		}
		return c
	}
	last := 0.0
	for i, budget := range []int64{need, need + set, need + set + tablesBytes(pk, 2) - 1, need + set + tablesBytes(pk, 2),
		need + set + tablesBytes(pk, 6), need + set + tablesBytes(pk, 12), 1 << 40} {
		pl, err := choosePlan(dev, pk, budget)
		if err != nil {
			t.Fatal(err)
		}
		var tb int64
		for j, m := range msms {
			tb += m.tableBytes(pl.copies[j])
		}
		if tb != pl.tableBytes || pl.bytes != residentBytes(dev, pk)+tb {
			t.Errorf("budget need%+d: plan %q: tables %d bytes, plan bytes %d, the copies' tables %d", budget-need, pl, pl.tableBytes, pl.bytes, tb)
		}
		if i < 2 && tb != 0 {
			t.Errorf("budget need%+d: plan %q has tables", budget-need, pl)
		}
		if pl.bytes+set+pl.scratch+set > budget && tb > 0 {
			t.Errorf("budget need%+d: plan %q takes %d beside a staged set", budget-need, pl, pl.bytes+set+pl.scratch)
		}
		if c := modelled(pl); i > 0 && c > last {
			t.Errorf("budget need%+d: modelled cost %g, %g at a smaller budget", budget-need, c, last)
		}
		last = modelled(pl)
		if budget == 1<<40 {
			for j, m := range msms {
				for _, c := range append([]int{1}, tableCopies...) {
					if dev.TableCost(m.k, proverCurve, m.n, c) < dev.TableCost(m.k, proverCurve, m.n, max(1, pl.copies[j])) {
						t.Errorf("unlimited room: %s has %d copies, %d cost less", keyMSMNames[j], pl.copies[j], c)
					}
				}
			}
		}
	}
}

// TestTablesByGain: with a model in which the G2 MSM gains most from a
// table, a budget with room for its 12 copies alone gives it those, and
// the G1 MSMs none; with room for everything, all have the cheapest.
func TestTablesByGain(t *testing.T) {
	_, _, pk := randomKeyed(t, synth.Mix, 1<<10)
	// Each copy saves 1% in G1, 5% in G2, of a G2 MSM 3 times a G1's.
	dev := &tabling{Backend: cpu.MustNew(cpu.WithCapacity(1 << 32)), cost: func(k backend.Kernel, n, copies int) float64 {
		if k == backend.KernelMSMG2 {
			return 3 * float64(n) * (1 - 0.05*float64(copies))
		}
		return float64(n) * (1 - 0.01*float64(copies))
	}}
	set := setBytes(dev, pk, false)
	sum, _ := msmScratch(dev, pk, 0)
	need := residentBytes(dev, pk) + set + sum + commitScratch(dev, pk)
	g2 := keyMSM{backend.KernelMSMG2, len(pk.G2.B)}
	pl, err := choosePlan(dev, pk, need+set+g2.tableBytes(12))
	if err != nil {
		t.Fatal(err)
	}
	if want := [nbKeyMSMs]int{msmB2: 12}; pl.copies != want {
		t.Errorf("room for B2's 12 copies: plan %q, copies %v, want %v", pl, pl.copies, want)
	}
	if want := "tables of 12 copies for B2, none for A, B1, K and Z"; !strings.Contains(pl.String(), want) {
		t.Errorf("plan %q, want %q", pl, want)
	}
	pl, err = choosePlan(dev, pk, 1<<40)
	if err != nil {
		t.Fatal(err)
	}
	if want := [nbKeyMSMs]int{12, 12, 12, 12, 12}; pl.copies != want {
		t.Errorf("unlimited room: plan %q, copies %v, want %v", pl, pl.copies, want)
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
