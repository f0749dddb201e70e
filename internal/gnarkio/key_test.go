package gnarkio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	groth16bls "github.com/consensys/gnark/backend/groth16/bls12-381"

	"github.com/g16prover/g16/internal/synth"
)

func opener(data []byte) KeyOpener {
	return func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
}

// keyFiles returns a real key for the synthetic circuit (with a BSB22
// commitment) in gnark's raw and compressed encodings.
func keyFiles(t testing.TB) (raw, compressed []byte, pk *groth16bls.ProvingKey) {
	t.Helper()
	ccs, _, err := synth.Compile(synth.Mix, 1<<8)
	if err != nil {
		t.Fatal(err)
	}
	gpk, _, err := gnarkgroth16.Setup(ccs)
	if err != nil {
		t.Fatal(err)
	}
	pk = gpk.(*groth16bls.ProvingKey)
	var r, c bytes.Buffer
	if _, err := pk.WriteRawTo(&r); err != nil {
		t.Fatal(err)
	}
	if _, err := pk.WriteTo(&c); err != nil {
		t.Fatal(err)
	}
	return r.Bytes(), c.Bytes(), pk
}

// TestReadProvingKey: raw and compressed keys from gnark's Setup pass the
// check and decode to the same key.
func TestReadProvingKey(t *testing.T) {
	raw, compressed, pk := keyFiles(t)
	want := encode(t, pk)
	for name, data := range map[string][]byte{"raw": raw, "compressed": compressed} {
		for _, unsafe := range []bool{false, true} {
			got, err := ReadProvingKey(opener(data), unsafe)
			if err != nil {
				t.Fatalf("%s (unsafe %v): %v", name, unsafe, err)
			}
			if !bytes.Equal(encode(t, got), want) {
				t.Errorf("%s (unsafe %v): the decoded key differs", name, unsafe)
			}
		}
	}
}

// TestCorruptProvingKey: counts that ask for more than the file holds
// (which gnark would allocate before reading), truncation, trailing data
// and random bytes are errors, not crashes.
func TestCorruptProvingKey(t *testing.T) {
	raw, _, pk := keyFiles(t)
	// Byte offsets in the raw encoding: the domain (169 bytes), three raw
	// G1 points, then the A count.
	offA := 169 + 3*96
	offWires := len(raw) - 2*len(pk.InfinityA) - 4 - 3*8
	for _, c := range pk.CommitmentKeys {
		offWires -= 2*4 + 2*96*len(c.Basis)
	}
	if binary.BigEndian.Uint64(raw[offWires:]) != uint64(len(pk.InfinityA)) {
		t.Fatalf("internal error: the wire count is not at byte %d", offWires)
	}
	cases := map[string]func([]byte) []byte{
		"A count 2^32-1": func(b []byte) []byte { binary.BigEndian.PutUint32(b[offA:], ^uint32(0)); return b },
		"wires 2^40":     func(b []byte) []byte { binary.BigEndian.PutUint64(b[offWires:], 1<<40); return b },
		"wires 2^63":     func(b []byte) []byte { binary.BigEndian.PutUint64(b[offWires:], 1<<63); return b },
		"cardinality":    func(b []byte) []byte { binary.BigEndian.PutUint64(b, 1<<40); return b },
		"bad point flag": func(b []byte) []byte { b[169] = 0xe0; return b },
		"truncated":      func(b []byte) []byte { return b[:len(b)-10] },
		"trailing":       func(b []byte) []byte { return append(b, 0) },
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := ReadProvingKey(opener(mutate(bytes.Clone(raw))), true)
			if err == nil || !errors.Is(err, ErrCorrupt) {
				t.Errorf("ReadProvingKey: %v, want a corrupt-data error", err)
			}
		})
	}
	rng := testRand(t)
	var rejected int
	const trials = 40
	for i := 0; i < trials; i++ {
		bad := bytes.Clone(raw)
		off := rng.IntN(len(bad) - 100)
		for k := 0; k < 100; k++ {
			bad[off+k] = byte(rng.Uint32())
		}
		if _, err := ReadProvingKey(opener(bad), false); err != nil {
			rejected++
		}
	}
	t.Logf("%d of %d keys with 100 random bytes rejected", rejected, trials)
	if rejected == 0 {
		t.Error("no corrupt key was rejected")
	}
}

// TestReadWitness: a witness's counts must match its vector and length.
func TestReadWitness(t *testing.T) {
	_, w := synthR1CS(t, 1<<8)
	data := encode(t, w)
	if _, err := ReadWitness(bytes.NewReader(data), ecc.BLS12_381); err != nil {
		t.Fatalf("ReadWitness: %v", err)
	}
	cases := map[string]func([]byte) []byte{
		"public count":  func(b []byte) []byte { binary.BigEndian.PutUint32(b, 1<<31); return b },
		"vector length": func(b []byte) []byte { binary.BigEndian.PutUint32(b[8:], ^uint32(0)); return b },
		"truncated":     func(b []byte) []byte { return b[:len(b)-1] },
		"trailing":      func(b []byte) []byte { return append(b, 1) },
		"short":         func(b []byte) []byte { return b[:7] },
	}
	for name, mutate := range cases {
		if _, err := ReadWitness(bytes.NewReader(mutate(bytes.Clone(data))), ecc.BLS12_381); err == nil || !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v, want a corrupt-data error", name, err)
		}
	}
	bad := bytes.Clone(data)
	for i := 12; i < 12+32; i++ {
		bad[i] = 0xff // above the modulus
	}
	if _, err := ReadWitness(bytes.NewReader(bad), ecc.BLS12_381); err == nil {
		t.Error("a value above the modulus was accepted")
	}
}

// TestReadOtherKeys: keys from gnark's DummySetup and g16's random key
// generator (what g16 bench caches) pass the check.
func TestReadOtherKeys(t *testing.T) {
	ccs, _, err := synth.Compile(synth.Mix, 1<<8)
	if err != nil {
		t.Fatal(err)
	}
	dummy, err := gnarkgroth16.DummySetup(ccs)
	if err != nil {
		t.Fatal(err)
	}
	random, err := synth.RandomKey(ccs)
	if err != nil {
		t.Fatal(err)
	}
	for name, pk := range map[string]gnarkgroth16.ProvingKey{"dummy": dummy, "random": random} {
		var buf bytes.Buffer
		if _, err := pk.WriteRawTo(&buf); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadProvingKey(opener(buf.Bytes()), true); err != nil {
			t.Errorf("%s key: %v", name, err)
		}
	}
}
