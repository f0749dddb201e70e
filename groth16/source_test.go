package groth16_test

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"

	"github.com/g16prover/g16/groth16"
	"github.com/g16prover/g16/internal/synth"
)

// TestDeviceKeyFromSource: a random key's bases drawn block by block into
// the CPU backend's device memory (NewDeviceKeyFrom, with the hostless key
// and no host copy of the bases) give the same proof bytes as the same
// seed's key materialised on the host and uploaded by NewDeviceKey, and the
// trace says where the bases came from. Proving the hostless key without
// its device key fails with a clear error, and a device too small for the
// key refuses it with ErrHostKeyNeeded.
func TestDeviceKeyFromSource(t *testing.T) {
	ccs, shape, err := synth.Compile(synth.Mix, 1<<12)
	if err != nil {
		t.Fatal(err)
	}
	keySeed, proofSeed := rand.Uint64(), rand.Uint64()
	t.Logf("key seed %d, proof seed %d", keySeed, proofSeed)
	w, err := synth.Witness(shape, proofSeed)
	if err != nil {
		t.Fatal(err)
	}
	src, err := synth.NewKeySource(ccs, keySeed)
	if err != nil {
		t.Fatal(err)
	}
	full, err := src.Key()
	if err != nil {
		t.Fatal(err)
	}
	bare, err := src.Hostless()
	if err != nil {
		t.Fatal(err)
	}
	if len(bare.G1.A) != len(full.G1.A) || len(bare.G1.Z) != len(full.G1.Z) || len(bare.G2.B) != len(full.G2.B) {
		t.Fatalf("hostless key's vector lengths differ from the materialised key's")
	}
	if !bare.G1.Z[0].IsInfinity() {
		t.Fatalf("hostless key has host bases")
	}

	devFull := cpuDevice(t, 0, 0, nil)
	dkFull, err := groth16.NewDeviceKey(devFull, full)
	if err != nil {
		t.Fatal(err)
	}
	defer dkFull.Close()
	prFull, err := groth16.NewProver(ccs, full, groth16.WithBackend(devFull), groth16.WithDeviceKey(dkFull))
	if err != nil {
		t.Fatal(err)
	}
	defer prFull.Close()
	want, err := prFull.Prove(context.Background(), w, groth16.WithRandomness(seeded(proofSeed)))
	if err != nil {
		t.Fatal(err)
	}

	devDrawn := cpuDevice(t, 1, 0, nil)
	dk, err := groth16.NewDeviceKeyFrom(devDrawn, bare, src)
	if err != nil {
		t.Fatal(err)
	}
	defer dk.Close()
	pr, err := groth16.NewProver(ccs, bare, groth16.WithBackend(devDrawn), groth16.WithDeviceKey(dk))
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	var plan string
	got, err := pr.Prove(context.Background(), w, groth16.WithRandomness(seeded(proofSeed)),
		groth16.WithPhaseTimes(func(_ int, pt groth16.PhaseTimes) { plan = pt.Plan }))
	if err != nil {
		t.Fatal(err)
	}
	// Both keys have proved once: each holds its bases and the wire index
	// lists its first proof put beside them.
	if got, want := dk.Bytes(), dkFull.Bytes(); got != want {
		t.Fatalf("drawn device key holds %d bytes, the uploaded one %d", got, want)
	}
	if !bytes.Equal(proofBytes(t, got), proofBytes(t, want)) {
		t.Fatal("proof with the bases drawn on the device differs from the materialised key's")
	}
	if !strings.Contains(plan, "drawn on the device, no host copy") {
		t.Fatalf("phase trace's plan %q does not say the bases were drawn on the device", plan)
	}

	// The hostless key without its device key: refused, not proved with zeros.
	_, err = groth16.Prove(ccs, bare, w, groth16.WithBackend(cpuDevice(t, 2, 0, nil)), groth16.WithRandomness(seeded(proofSeed)))
	if !errors.Is(err, groth16.ErrInput) || !strings.Contains(err.Error(), "no host copy") {
		t.Fatalf("Prove with the hostless key and no device key: got %v, want an input error naming the missing host copy", err)
	}

	// A device smaller than the key: it would stream from a host copy.
	small := cpuDevice(t, 3, dkFull.Bytes()*9/10, nil)
	if _, err := groth16.NewDeviceKeyFrom(small, bare, src); !errors.Is(err, groth16.ErrHostKeyNeeded) {
		t.Fatalf("NewDeviceKeyFrom on a device smaller than the key: got %v, want ErrHostKeyNeeded", err)
	}
	if m := small.Memory(); m.InUse != 0 {
		t.Fatalf("refused NewDeviceKeyFrom left %d bytes in use", m.InUse)
	}
}

// TestDeviceKeyFromSourceMismatch: a base source whose vectors are not the
// key's lengths (another circuit's source) is refused with an input error
// naming the vector, not drawn into a device key of the wrong bases; the
// device is left as it was.
func TestDeviceKeyFromSourceMismatch(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	ccsSmall, _, err := synth.Compile(synth.Mix, 1<<11)
	if err != nil {
		t.Fatal(err)
	}
	ccsBig, _, err := synth.Compile(synth.Mix, 1<<12)
	if err != nil {
		t.Fatal(err)
	}
	srcSmall, err := synth.NewKeySource(ccsSmall, seed)
	if err != nil {
		t.Fatal(err)
	}
	srcBig, err := synth.NewKeySource(ccsBig, seed)
	if err != nil {
		t.Fatal(err)
	}
	bareSmall, err := srcSmall.Hostless()
	if err != nil {
		t.Fatal(err)
	}
	bareBig, err := srcBig.Hostless()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		pk   gnarkgroth16.ProvingKey
		src  groth16.BaseSource
	}{
		{"small key, big source", bareSmall, srcBig},
		{"big key, small source", bareBig, srcSmall},
	} {
		dev := cpuDevice(t, 0, 0, nil)
		_, err := groth16.NewDeviceKeyFrom(dev, c.pk, c.src)
		if !errors.Is(err, groth16.ErrInput) || !strings.Contains(err.Error(), "base source") {
			t.Errorf("%s: got %v, want an input error naming the base source's lengths", c.name, err)
		}
		if m := dev.Memory(); m.InUse != 0 {
			t.Errorf("%s: refused NewDeviceKeyFrom left %d bytes in use", c.name, m.InUse)
		}
	}
}
