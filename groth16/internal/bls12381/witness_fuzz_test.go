// Reference only: internal/generator does not copy this file.

package bls12381

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark/backend/witness"
	cs "github.com/consensys/gnark/constraint/bls12-381"

	"github.com/g16prover/g16/internal/synth"
)

// witnessFuzzSystem is the circuit FuzzWitnessHeader checks witnesses
// against: the synthetic circuit of 2^7 constraints.
func witnessFuzzSystem(t testing.TB) (*cs.R1CS, witness.Witness) {
	t.Helper()
	ccs, s, err := synth.Compile(synth.Mix, 1<<7)
	if err != nil {
		t.Fatal(err)
	}
	w, err := synth.Witness(s, 1)
	if err != nil {
		t.Fatal(err)
	}
	return ccs.(*cs.R1CS), w
}

// TestWriteWitnessFuzzSeeds writes FuzzWitnessHeader's seed corpus
// (G16_WRITE_FUZZ_SEEDS=1): the circuit's full witness, its public part,
// and the full witness with its header's counts swapped.
func TestWriteWitnessFuzzSeeds(t *testing.T) {
	if os.Getenv("G16_WRITE_FUZZ_SEEDS") != "1" {
		t.Skip("set G16_WRITE_FUZZ_SEEDS=1 to write the seed corpus")
	}
	_, w := witnessFuzzSystem(t)
	full, err := w.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	pub, err := w.Public()
	if err != nil {
		t.Fatal(err)
	}
	public, err := pub.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	swapped := bytes.Clone(full)
	copy(swapped[:4], full[4:8])
	copy(swapped[4:8], full[:4])
	dir := filepath.Join("testdata", "fuzz", "FuzzWitnessHeader")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, s := range [][]byte{full, public, swapped} {
		body := fmt.Sprintf("go test fuzz v1\n[]byte(%s)\n", strconv.Quote(string(s)))
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("seed-%d", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// FuzzWitnessHeader: whatever header and values a witness that gnark
// decoded holds, checkWitness returns an error or accepts a witness whose
// public part has the circuit's public count; it never panics, and never
// lets w.Public allocate what a corrupt header says.
func FuzzWitnessHeader(f *testing.F) {
	r1cs, _ := witnessFuzzSystem(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		// gnark's reader allocates up to 4 GB for a vector length the data
		// does not hold before it fails (internal/gnarkio checks that
		// first); the counts in the header are what is fuzzed here.
		if len(data) < 12 || uint64(binary.BigEndian.Uint32(data[8:]))*32 > uint64(len(data)-12) {
			return
		}
		w, err := witness.New(ecc.BLS12_381.ScalarField())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.ReadFrom(bytes.NewReader(data)); err != nil {
			return // gnark's own reader rejects it
		}
		if err := checkWitness(r1cs, w); err != nil {
			if !errors.Is(err, ErrInput) {
				t.Fatalf("checkWitness: not an input error: %v", err)
			}
			return
		}
		pub, err := w.Public()
		if err != nil {
			t.Fatalf("Public of an accepted witness: %v", err)
		}
		if got, want := len(pub.Vector().(fr.Vector)), r1cs.GetNbPublicVariables()-1; got != want {
			t.Fatalf("accepted witness has %d public values, the circuit %d", got, want)
		}
	})
}
