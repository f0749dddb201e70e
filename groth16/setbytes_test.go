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
// (the CPU backend: the index list is counted) and on one that does not.
func TestSetBytesMatchesBuffers(t *testing.T) {
	ccs, shape, pk := randomKeyed(t, synth.Chain, 1<<10)
	w, err := synth.Witness(shape, 7)
	if err != nil {
		t.Fatal(err)
	}
	p, err := newProver(ccs.(*cs.R1CS), pk, nil, false)
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
		gathers  bool
	}{
		{"gathers, resident", gathering, false, true},
		{"gathers, streamed", gathering, true, false},
		{"no gather, resident", plain, false, false},
		{"no gather, streamed", plain, true, false},
	} {
		key := &deviceKey{dev: c.dev}
		if c.streamed {
			key.plan.chunk = minStreamChunk
		}
		var sum int64
		for _, s := range part.bufferSizes(key) {
			sum += s
		}
		if want := setBytes(c.dev, pk, c.streamed); sum != want {
			t.Errorf("%s: the buffers take %d bytes, setBytes counts %d", c.name, sum, want)
		}
		if got := part.gather != nil; got != c.gathers {
			t.Errorf("%s: gathers %v, want %v", c.name, got, c.gathers)
		}
	}
}
