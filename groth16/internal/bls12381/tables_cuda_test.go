//go:build cuda

// Reference only: internal/generator does not copy this file.

package bls12381

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/g16prover/g16/backend/cuda"
	"github.com/g16prover/g16/internal/synth"
)

// TestTablesPlanCUDA: the plan gives a resident key tables that, with the
// scratch over them, fit in the room its plain plan leaves in the budget
// beside another partition's buffers (none at the plain plan's own need),
// more of them as the budget grows, 12 copies when room is no limit; and a
// proof with tables has the bytes of a proof without them, on the same
// randomness.
func TestTablesPlanCUDA(t *testing.T) {
	gpu, err := cuda.New(0)
	if err != nil {
		t.Fatalf("cuda.New(0): %v", err)
	}
	defer gpu.Close()
	ccs, shape, pk := randomKeyed(t, synth.Mix, 1<<12)
	set := setBytes(gpu, pk, false)
	commit := commitScratch(gpu, pk)
	sum, _ := msmScratch(gpu, pk, 0)
	need := residentBytes(gpu, pk) + set + sum + commit

	pl, err := choosePlan(gpu, pk, need)
	if err != nil {
		t.Fatal(err)
	}
	if pl.tableBytes != 0 || strings.Contains(pl.String(), "tables") {
		t.Errorf("budget %d (the plain plan's need): plan %q with %v copies", need, pl, pl.copies)
	}
	last := 0
	for i := 0; i <= 16; i++ {
		budget := need + int64(i)*tablesBytes(pk, 1)*5/2
		if i == 16 {
			budget = 1 << 40
		}
		pl, err := choosePlan(gpu, pk, budget)
		if err != nil {
			t.Fatal(err)
		}
		if pl.serial || pl.chunk > 0 {
			t.Fatalf("budget %d: plan %q", budget, pl)
		}
		if pl.bytes+set+pl.scratch > budget || (pl.tableBytes > 0 && pl.bytes+set+pl.scratch+set > budget) {
			t.Errorf("budget %d: plan %q takes %d", budget, pl, pl.bytes+set+pl.scratch)
		}
		if pl.tableBytes < int64(last) {
			t.Errorf("budget %d: %d bytes of tables, %d at a smaller budget", budget, pl.tableBytes, last)
		}
		last = int(pl.tableBytes)
	}
	if pl, _ := choosePlan(gpu, pk, 1<<40); pl.maxCopies() != tableCopies[0] {
		t.Errorf("largest budget: plan %q, want %d copies", pl, tableCopies[0])
	}

	// A proof with tables (the device's default budget) and one on a device
	// limited to the plain plan's need: the same bytes.
	w, err := synth.Witness(shape, 7)
	if err != nil {
		t.Fatal(err)
	}
	// The default budget of a device of L bytes is L less a sixteenth: at
	// need + set it leaves no room for tables beside another set.
	small, err := cuda.New(0, cuda.WithMemoryLimit((need+set)*16/15))
	if err != nil {
		t.Fatal(err)
	}
	defer small.Close()
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	var proofs [2][]byte
	for i, dev := range []*cuda.Backend{gpu, small} {
		var plan string
		proof, err := proveOnce(ccs, pk, w, onDevice(dev), call(withRandomness(seededReader(seed)),
			withPhaseTimes(func(_ int, pt PhaseTimes) { plan = pt.Plan })))
		if err != nil {
			t.Fatal(err)
		}
		if with := strings.Contains(plan, "tables of 12 copies"); with != (i == 0) || (i == 1 && strings.Contains(plan, "tables")) {
			t.Errorf("device %d: plan %q", i, plan)
		}
		var buf bytes.Buffer
		if _, err := proof.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		proofs[i] = buf.Bytes()
	}
	if !bytes.Equal(proofs[0], proofs[1]) {
		t.Errorf("seed %d: the proof with tables differs from the one without", seed)
	}
}
