package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/internal/synth"
)

// TestRandomKeyPreflight: bench says what a random key, our solver's form
// and a proof's vectors take, and refuses (when the key has a host copy),
// before drawing the key, a host whose available memory is below that; an
// unknown amount (0) is not checked.
func TestRandomKeyPreflight(t *testing.T) {
	ccs, _, err := synth.Compile(synth.Mix, 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	key, err := synth.RandomKeyBytes(ccs)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := randomKeyPreflight(ccs, key, true, 1, &out); err == nil || !strings.Contains(err.Error(), "do not fit") {
		t.Fatalf("preflight with room for the key alone: %v, want a does-not-fit error", err)
	}
	if !strings.Contains(out.String(), "memory budget: random key") {
		t.Fatalf("no budget line: %q", out.String())
	}
	for _, avail := range []int64{0, 1 << 40} {
		if err := randomKeyPreflight(ccs, avail, true, 1, &out); err != nil {
			t.Fatalf("preflight with %d bytes available: %v", avail, err)
		}
	}
	// Our solver's form counts: room for the key and the vectors alone
	// is refused.
	_, hostKey, solver, vectors, err := hostBudget(ccs, true)
	if err != nil {
		t.Fatal(err)
	}
	if solver <= 0 || vectors <= 0 || hostKey != key {
		t.Fatalf("hostBudget: key %d (want %d), solver %d, vectors %d", hostKey, key, solver, vectors)
	}
	if err := randomKeyPreflight(ccs, key+vectors+solver-1, true, 1, &out); err == nil {
		t.Error("preflight with one byte less than the key, our solver's form and the vectors passed")
	}
	if err := randomKeyPreflight(ccs, key+vectors+solver, true, 1, &out); err != nil {
		t.Errorf("preflight with exactly the room needed: %v", err)
	}
	// A batch needs room for one partition: ProveBatch holds no more at
	// once than the host has room for, and the line says how many.
	out.Reset()
	if err := randomKeyPreflight(ccs, key+2*vectors+solver, true, 3, &out); err != nil || !strings.Contains(out.String(), "room for 2 of the 3 partitions in flight") {
		t.Errorf("preflight of 3 partitions in flight with room for two: %v, %q; want a pass naming the 2", err, out.String())
	}
	out.Reset()
	if err := randomKeyPreflight(ccs, key+3*vectors+solver, true, 3, &out); err != nil || strings.Contains(out.String(), "room for") {
		t.Errorf("preflight of 3 partitions in flight with their room: %v, %q", err, out.String())
	}
	if err := randomKeyPreflight(ccs, key+vectors+solver-1, true, 3, &out); err == nil || !strings.Contains(err.Error(), "one proof") {
		t.Errorf("preflight of 3 partitions in flight without room for one: %v, want an error", err)
	}
	for _, c := range []struct{ partitions, workers, gpus, want int }{{0, 2, 1, 1}, {10, 1, 1, 3}, {10, 2, 1, 5}, {2, 2, 1, 2}, {10, 2, 2, 9}} {
		devs := []namedBackend{{all: make([]backend.Backend, c.gpus)}}
		if got := batchInFlight(benchFlags{partitions: c.partitions, workers: c.workers}, devs); got != c.want {
			t.Errorf("batchInFlight(%d partitions, %d workers, %d GPUs) = %d, want %d", c.partitions, c.workers, c.gpus, got, c.want)
		}
	}
	// A key drawn on the device takes no host memory: room for the
	// vectors is enough, and the line says where the key is.
	out.Reset()
	if err := randomKeyPreflight(ccs, key, false, 1, &out); err != nil {
		t.Fatalf("preflight of a key drawn on the device, with room for the key's size: %v", err)
	}
	if !strings.Contains(out.String(), "drawn on the device, none on the host") {
		t.Fatalf("budget line does not say the key is on the device: %q", out.String())
	}
}
