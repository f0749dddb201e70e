package groth16_test

import (
	"bytes"
	"math/big"
	"math/rand/v2"
	"testing"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"

	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/groth16"
)

func bigPow(x, e int) *big.Int {
	return new(big.Int).Exp(big.NewInt(int64(x)), big.NewInt(int64(e)), nil)
}

// TestProveMatchesGnark checks, for each test circuit and a seed drawn
// fresh each run, that our proof is byte-identical to gnark's for the same
// randomness and that gnark's verifier accepts it.
func TestProveMatchesGnark(t *testing.T) {
	for _, f := range testFixtures(t) {
		t.Run(f.name, func(t *testing.T) {
			seed := rand.Uint64()
			want := gnarkProof(t, f, seed)
			proof, err := groth16.Prove(f.ccs, f.pk, f.witness,
				groth16.WithBackend(cpu.MustNew()), groth16.WithRandomness(seeded(seed)))
			if err != nil {
				t.Fatalf("seed %d: Prove: %v", seed, err)
			}
			got := proofBytes(t, proof)
			if !bytes.Equal(got, want) {
				t.Fatalf("seed %d: proof differs from gnark's\n got %x\nwant %x", seed, got, want)
			}
			if err := gnarkgroth16.Verify(proof, f.vk, f.public); err != nil {
				t.Fatalf("seed %d: gnark rejects our proof: %v", seed, err)
			}
		})
	}
}

// TestProveLeavesInputsUnchanged checks that proving modifies neither the
// key nor the witness.
func TestProveLeavesInputsUnchanged(t *testing.T) {
	f := fixtureNamed(t, "rangecheck-bsb22")
	snapshot := func() []byte {
		var buf bytes.Buffer
		if _, err := f.pk.WriteRawTo(&buf); err != nil {
			t.Fatal(err)
		}
		if _, err := f.witness.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	before := snapshot()
	if _, err := groth16.Prove(f.ccs, f.pk, f.witness); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, snapshot()) {
		t.Fatal("Prove changed its key or witness")
	}
}
