package bls12381_test

import (
	"bytes"
	cryptorand "crypto/rand"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	gnarkbackend "github.com/consensys/gnark/backend"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	gsolver "github.com/consensys/gnark/constraint/solver"
	"github.com/consensys/gnark/frontend"

	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/groth16"
)

// TestProofSameAsGnark proves small circuits with g16's prover (which
// solves with this package) and gnark's, from the same randomness, and
// requires the same proof bytes, gnark's verifier's approval, and that g16
// did not fall back to gnark's solver. The circuits have a BSB22
// commitment (std/rangecheck, std/lookup), and a hint passed through the
// prover options.
func TestProofSameAsGnark(t *testing.T) {
	cases := []struct {
		c    testCircuit
		opts []gnarkbackend.ProverOption
	}{
		{c: testCircuit{name: "rangecheck-lookup-small", shape: &rangeLookup{V: make([]frontend.Variable, 60), Table: make([]frontend.Variable, 16), Idx: make([]frontend.Variable, 60)},
			assign: ours(func(r *rand.Rand) frontend.Circuit { return rangeLookupAssignment(60, 16, r) })}},
		{c: testCircuits()[tcUserHint], opts: []gnarkbackend.ProverOption{gnarkbackend.WithSolverOptions(gsolver.WithHints(sqrtHint))}},
	}
	for _, tc := range cases {
		t.Run(tc.c.name, func(t *testing.T) {
			cc := compile(t, tc.c)
			pk, vk, err := gnarkgroth16.Setup(cc.r1cs)
			if err != nil {
				t.Fatal(err)
			}
			seed := newSeed(t)
			w := assignment(t, tc.c, rand.New(rand.NewPCG(seed, 20)))
			pub, err := w.Public()
			if err != nil {
				t.Fatal(err)
			}
			var key [32]byte
			binary.LittleEndian.PutUint64(key[:], seed)

			saved := cryptorand.Reader
			cryptorand.Reader = rand.NewChaCha8(key)
			want, err := gnarkgroth16.Prove(cc.r1cs, pk, w, tc.opts...)
			cryptorand.Reader = saved
			if err != nil {
				t.Fatal(err)
			}

			var times groth16.PhaseTimes
			got, err := groth16.Prove(cc.r1cs, pk, w, groth16.WithBackend(cpu.MustNew()),
				groth16.WithRandomness(rand.NewChaCha8(key)), groth16.WithProverOptions(tc.opts...),
				groth16.WithPhaseTimes(func(_ int, pt groth16.PhaseTimes) { times = pt }))
			if err != nil {
				t.Fatal(err)
			}
			if times.SolverFallback != "" {
				t.Fatalf("g16 fell back to gnark's solver: %s", times.SolverFallback)
			}
			var gb, wb bytes.Buffer
			if _, err := got.WriteTo(&gb); err != nil {
				t.Fatal(err)
			}
			if _, err := want.WriteTo(&wb); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(gb.Bytes(), wb.Bytes()) {
				t.Fatalf("proof differs from gnark's")
			}
			if err := gnarkgroth16.Verify(got, vk, pub); err != nil {
				t.Fatalf("gnark rejects the proof: %v", err)
			}
		})
	}
}
