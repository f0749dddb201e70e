package groth16

import (
	"bytes"
	"strings"
	"testing"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/internal/synth"
)

// offHost is the CPU backend as a device that is not host bound (the
// prover schedules it as a GPU) and copies between its buffers.
type offHost struct {
	backend.Backend
	backend.Copier
}

func newOffHost(opts ...cpu.Option) offHost {
	b := cpu.MustNew(opts...)
	return offHost{b, b}
}

// TestPlanKZ: choosePlan runs K and Z as one MSM on a device that copies,
// side by side, under KZMerged, when the bigger buffers fit; at a budget
// with room only for the smaller buffers of K and Z apart it keeps them
// apart, still side by side; one at a time, under KZSeparate, on a device
// that does not copy and on the CPU backend whose schedule runs the MSMs
// one at a time, it keeps them apart. The merged plan counts K's buffer
// with h and one MSM's scratch for K and Z.
func TestPlanKZ(t *testing.T) {
	_, _, pk := randomKeyed(t, synth.Mix, 1<<10)
	dev := newOffHost()
	key, commit := keyBytes(pk), commitScratch(dev, pk)
	need := func(kz bool) int64 {
		sum, _ := msmScratch(dev, pk, 0, kz)
		return key + setBytes(dev, pk, false, kz) + sum + commit
	}
	merged, apart := need(true), need(false)
	if merged <= apart {
		t.Fatalf("merged need %d, apart %d: the test wants the merged plan larger", merged, apart)
	}
	if d := setBytes(dev, pk, false, true) - setBytes(dev, pk, false, false); d != int64(len(pk.G1.Z))*backend.ScalarBytes {
		t.Errorf("K's buffer grows by %d bytes with h, want %d", d, int64(len(pk.G1.Z))*backend.ScalarBytes)
	}
	_, peak := msmScratch(dev, pk, 0, false)
	serialNeed := key + setBytes(dev, pk, false, false) + peak + commit
	for _, c := range []struct {
		name   string
		dev    backend.Backend
		budget int64
		mode   KZMode
		kz     bool
		serial bool
	}{
		{"merged need", dev, merged, KZMerged, true, false},
		{"unlimited", dev, 0, KZMerged, true, false},
		{"below the merged need", dev, merged - 1, KZMerged, false, false},
		{"apart need", dev, apart, KZMerged, false, false},
		{"one at a time", dev, serialNeed, KZMerged, false, true},
		{"KZSeparate", dev, 0, KZSeparate, false, false},
		{"no copies", struct{ backend.Backend }{cpu.MustNew()}, 0, KZMerged, false, false},
		{"cpu, MSMs one at a time", cpu.MustNew(cpu.WithTasks(1)), 0, KZMerged, false, false},
		{"cpu, MSMs side by side", cpu.MustNew(cpu.WithTasks(8), cpu.WithHostMemory(1<<50)), 0, KZMerged, true, false},
	} {
		pl, err := choosePlan(c.dev, pk, c.budget, c.mode)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if pl.kz != c.kz || pl.serial != c.serial || pl.chunk != 0 {
			t.Errorf("%s: plan %q, kz %v, serial %v; want kz %v, serial %v", c.name, pl, pl.kz, pl.serial, c.kz, c.serial)
		}
		kz := c.kz
		sum, peak := msmScratch(c.dev, pk, 0, kz)
		if want := sum + commitScratch(c.dev, pk); !pl.serial && pl.scratch != want {
			t.Errorf("%s: plan scratch %d, want %d", c.name, pl.scratch, want)
		} else if pl.serial && pl.scratch != peak+commitScratch(c.dev, pk) {
			t.Errorf("%s: plan scratch %d, want %d", c.name, pl.scratch, peak+commitScratch(c.dev, pk))
		}
	}
}

// tablingKZ is tabling on a device that copies between its buffers: its
// plan runs K and Z as one MSM.
type tablingKZ struct{ *tabling }

func (b tablingKZ) Copy(q backend.Queue, dst backend.Buffer, dstOff int64, src backend.Buffer, srcOff, n int64) error {
	return b.Backend.(backend.Copier).Copy(q, dst, dstOff, src, srcOff, n)
}

// TestTablesPlanKZ: with K and Z as one MSM, the resident key asks for one
// table over K's and Z's bases together (four tables in all), the plan
// line names it K+Z, and the proof is the one without tables; a Prover
// that keeps K and Z apart on such a device gets five tables.
func TestTablesPlanKZ(t *testing.T) {
	ccs, shape, pk := randomKeyed(t, synth.Mix, 1<<10)
	w, err := synth.Witness(shape, 5)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := Prove(ccs, pk, w, WithBackend(cpu.MustNew()), WithRandomness(seededReader(11)))
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if _, err := plain.WriteTo(&want); err != nil {
		t.Fatal(err)
	}
	offK := int64(len(pk.G1.A)+len(pk.G1.B)) * backend.G1AffineBytes
	for _, c := range []struct {
		mode  KZMode
		calls []tableCall
		line  string
	}{
		{KZMerged, []tableCall{
			{off: 0, n: len(pk.G1.A), k: backend.KernelMSMG1},
			{off: int64(len(pk.G1.A)) * backend.G1AffineBytes, n: len(pk.G1.B), k: backend.KernelMSMG1},
			{off: offK, n: len(pk.G1.K) + len(pk.G1.Z), k: backend.KernelMSMG1},
			{off: 0, n: len(pk.G2.B), k: backend.KernelMSMG2},
		}, "tables of 12 copies for A, B1, K+Z and B2"},
		{KZSeparate, []tableCall{
			{off: 0, n: len(pk.G1.A), k: backend.KernelMSMG1},
			{off: int64(len(pk.G1.A)) * backend.G1AffineBytes, n: len(pk.G1.B), k: backend.KernelMSMG1},
			{off: offK, n: len(pk.G1.K), k: backend.KernelMSMG1},
			{off: offK + int64(len(pk.G1.K))*backend.G1AffineBytes, n: len(pk.G1.Z), k: backend.KernelMSMG1},
			{off: 0, n: len(pk.G2.B), k: backend.KernelMSMG2},
		}, "tables of 12 copies for A, B1, K, Z and B2"},
	} {
		dev := tablingKZ{&tabling{Backend: cpu.MustNew(cpu.WithCapacity(1 << 32))}}
		var planLine string
		proof, err := Prove(ccs, pk, w, WithBackend(dev), WithKZMode(c.mode), WithRandomness(seededReader(11)),
			WithPhaseTimes(func(_ int, pt PhaseTimes) { planLine = pt.Plan }))
		if err != nil {
			t.Fatalf("%v: %v", c.mode, err)
		}
		if !strings.Contains(planLine, c.line) || strings.Contains(planLine, "K and Z as one MSM") != (c.mode == KZMerged) {
			t.Errorf("%v: plan %q, want %q", c.mode, planLine, c.line)
		}
		if len(dev.calls) != len(c.calls) {
			t.Fatalf("%v: %d PrecomputeBases calls, want %d", c.mode, len(dev.calls), len(c.calls))
		}
		for i, got := range dev.calls {
			w := c.calls[i]
			if got.off != w.off || got.n != w.n || got.k != w.k || got.copies != 12 || !got.basesInRange {
				t.Errorf("%v: call %d: %+v, want offset %d, %d points of %v, 12 copies", c.mode, i, got, w.off, w.n, w.k)
			}
		}
		var got bytes.Buffer
		if _, err := proof.WriteTo(&got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%v: the proof with tables differs from the one without", c.mode)
		}
	}
}
