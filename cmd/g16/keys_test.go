package main

import (
	"io"
	"testing"

	"github.com/g16prover/g16/internal/synth"
)

// TestSetupKeysCacheChecksCircuit: a cached setup key is reused for the
// circuit it was made for, and not for another circuit of the same name
// (the same mix and size built another way), which gets a new setup.
func TestSetupKeysCacheChecksCircuit(t *testing.T) {
	a, _, err := synth.Compile(synth.Mix, 1<<8)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := synth.CompileFrontend(synth.Mix, 1<<8)
	if err != nil {
		t.Fatal(err)
	}
	da, err := r1csDigest(a)
	if err != nil {
		t.Fatal(err)
	}
	db, err := r1csDigest(b)
	if err != nil {
		t.Fatal(err)
	}
	if da == db {
		t.Fatal("the two builds of the mix serialise alike: the test needs two different circuits")
	}
	dir := t.TempDir()
	for i, c := range []struct {
		name   string
		cached bool
	}{{"first setup", false}, {"same circuit", true}, {"another circuit", false}, {"that circuit again", true}} {
		ccs := a
		if i >= 2 {
			ccs = b
		}
		_, _, cached, err := setupKeys(ccs, dir, "mix-256", io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if cached != c.cached {
			t.Fatalf("%s: cached %v, want %v", c.name, cached, c.cached)
		}
	}
}
