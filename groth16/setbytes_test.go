package groth16

import (
	"context"
	"testing"

	cs "github.com/consensys/gnark/constraint/bls12-381"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/internal/synth"
)

// TestSetBytesMatchesBuffers: the device memory the plan counts for one
// partition's buffers (setBytes) is what bufferSizes then allocates, with
// the key resident or streamed, on a device that gathers K's wire values
// (the CPU backend: the index list is counted) and on one that does not,
// with K and Z as one MSM (K's buffer holds h too) and apart, and for a
// prover that keeps them apart on a key planned for them merged.
func TestSetBytesMatchesBuffers(t *testing.T) {
	ccs, shape, pk := randomKeyed(t, synth.Chain, 1<<10)
	w, err := synth.Witness(shape, 7)
	if err != nil {
		t.Fatal(err)
	}
	p, err := newProver(ccs.(*cs.R1CS), pk, nil)
	if err != nil {
		t.Fatal(err)
	}
	part := p.newPartition(0, w, seededReader(3))
	if err := part.solve(context.Background()); err != nil {
		t.Fatal(err)
	}
	gathering := cpu.MustNew()
	if !gathersK(gathering, pk) {
		t.Fatal("the CPU backend does not gather K's wire values for a key without points at infinity")
	}
	plain := struct{ backend.Backend }{cpu.MustNew()}
	for _, c := range []struct {
		name     string
		dev      backend.Backend
		streamed bool
		kzPlan   bool   // the key's plan runs K and Z as one MSM
		mode     KZMode // the prover's
		gathers  bool
		kz       bool // K's buffer has room for h
	}{
		{"gathers, resident", gathering, false, false, KZMerged, true, false},
		{"gathers, resident, K+Z", gathering, false, true, KZMerged, true, true},
		{"gathers, resident, K+Z planned, prover apart", gathering, false, true, KZSeparate, true, false},
		{"gathers, streamed", gathering, true, false, KZMerged, false, false},
		{"no gather, resident", plain, false, false, KZMerged, false, false},
		{"no gather, resident, K+Z", plain, false, true, KZMerged, false, true},
		{"no gather, streamed", plain, true, false, KZMerged, false, false},
	} {
		key := &deviceKey{dev: c.dev}
		key.plan.kz = c.kzPlan
		if c.streamed {
			key.plan.chunk = minStreamChunk
		}
		p.kzMode = c.mode
		sizes := part.bufferSizes(key)
		var sum int64
		for _, s := range sizes {
			sum += s
		}
		if want := setBytes(c.dev, pk, c.streamed, c.kz); sum != want {
			t.Errorf("%s: the buffers take %d bytes, setBytes counts %d", c.name, sum, want)
		}
		if got := part.gather != nil; got != c.gathers {
			t.Errorf("%s: gathers %v, want %v", c.name, got, c.gathers)
		}
		if part.kzRoom != c.kz {
			t.Errorf("%s: room for h beside K's wire values %v, want %v", c.name, part.kzRoom, c.kz)
		}
		if want := int64(len(pk.G1.K)+len(pk.G1.Z)) * backend.ScalarBytes; c.kz && sizes[bufWK] != want {
			t.Errorf("%s: K's buffer has %d bytes, want %d for K's wire values and h", c.name, sizes[bufWK], want)
		}
	}
}
