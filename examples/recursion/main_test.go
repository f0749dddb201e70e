package main

import (
	"bytes"
	cryptorand "crypto/rand"
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"

	"github.com/g16prover/g16/groth16"
)

// TestRecursion runs the example on a fresh random preimage: g16's inner
// proof (BLS12-377) is verified by gnark, then verified inside the outer
// circuit (BW6-761), whose proof by g16 gnark's Verify accepts (run returns
// an error otherwise). The outer proof is then made again by gnark and by
// g16 from the same randomness: the same bytes.
func TestRecursion(t *testing.T) {
	if testing.Short() {
		t.Skip("gnark's Setup of the BW6-761 outer circuit (about 20,000 constraints) takes about a minute on 2 cores: not in -short")
	}
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:], seed)
	var out strings.Builder
	res, err := run(&out, rand.NewChaCha8(key))
	t.Log("\n" + out.String())
	if err != nil {
		t.Fatal(err)
	}
	if res.InnerConstraints < 100 || res.OuterConstraints < 10000 {
		t.Fatalf("%d inner and %d outer constraints: not the circuits meant", res.InnerConstraints, res.OuterConstraints)
	}

	key[8] = 1 // another stream for the provers' randomness
	saved := cryptorand.Reader
	cryptorand.Reader = rand.NewChaCha8(key)
	want, err := gnarkgroth16.Prove(res.OuterCCS, res.OuterPK, res.OuterW)
	cryptorand.Reader = saved
	if err != nil {
		t.Fatal(err)
	}
	got, err := groth16.Prove(res.OuterCCS, res.OuterPK, res.OuterW, groth16.WithRandomness(rand.NewChaCha8(key)))
	if err != nil {
		t.Fatal(err)
	}
	var gb, wb bytes.Buffer
	if _, err := got.WriteTo(&gb); err != nil {
		t.Fatal(err)
	}
	if _, err := want.WriteTo(&wb); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gb.Bytes(), wb.Bytes()) {
		t.Fatalf("g16's outer proof differs from gnark's with the same randomness\n got %x\nwant %x", gb.Bytes(), wb.Bytes())
	}
}
