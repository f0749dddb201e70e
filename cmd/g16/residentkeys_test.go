package main

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	groth16bls "github.com/consensys/gnark/backend/groth16/bls12-381"

	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/internal/synth"
)

// TestResidentKeysFallback: a hostless random key is drawn into a device
// it fits; on a device it does not fit, the host copy is drawn (after the
// host preflight) and returned for the provers, and a failing preflight
// is an error, not a host copy.
func TestResidentKeysFallback(t *testing.T) {
	ccs, _, err := synth.Compile(synth.Mix, 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	src, err := synth.NewKeySource(ccs, seed)
	if err != nil {
		t.Fatal(err)
	}
	bare, err := src.Hostless()
	if err != nil {
		t.Fatal(err)
	}
	keyBytes, err := synth.RandomKeyBytes(ccs)
	if err != nil {
		t.Fatal(err)
	}
	open := func(capacity int64) []namedBackend {
		d, err := cpu.New(cpu.WithCapacity(capacity))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		return []namedBackend{{name: "cpu", dev: d}}
	}
	pass := func() error { return nil }

	var out bytes.Buffer
	keys, pk, err := residentKeys(true, open(0), bare, src, pass, &out)
	if err != nil {
		t.Fatal(err)
	}
	keys[0].Close()
	if pk != bare || !strings.Contains(out.String(), "random key drawn on the device, no host copy") {
		t.Fatalf("on a device the key fits: key %p (hostless %p), output %q", pk, bare, out.String())
	}

	out.Reset()
	keys, pk, err = residentKeys(true, open(keyBytes/2), bare, src, pass, &out)
	if err != nil {
		t.Fatal(err)
	}
	keys[0].Close()
	full, ok := pk.(*groth16bls.ProvingKey)
	if !ok || full == bare || full.G1.Z[0].IsInfinity() || !strings.Contains(out.String(), "drawing the key's host copy") {
		t.Fatalf("on a device smaller than the key: want the host copy and a note, output %q", out.String())
	}

	refuse := errors.New("no room on the host")
	_, _, err = residentKeys(true, open(keyBytes/2), bare, src, func() error { return refuse }, &out)
	if !errors.Is(err, refuse) {
		t.Fatalf("with a failing host preflight: %v, want its error", err)
	}
}
