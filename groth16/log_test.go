package groth16_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	gnarkbackend "github.com/consensys/gnark/backend"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/constraint/solver"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	"github.com/consensys/gnark/logger"
	"github.com/rs/zerolog"

	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/groth16"
)

// printing squares its secret and prints it with api.Println.
type printing struct {
	X frontend.Variable `gnark:",secret"`
	Y frontend.Variable `gnark:",public"`
}

func (c *printing) Define(api frontend.API) error {
	api.Println("x is", c.X)
	api.AssertIsEqual(api.Mul(c.X, c.X), c.Y)
	return nil
}

// TestSolverLog: a circuit's api.Println line goes to WithLogger's
// handler, at debug level, with the value; a solver logger given through
// WithProverOptions takes it instead.
func TestSolverLog(t *testing.T) {
	ccs, err := frontend.Compile(ecc.BLS12_381.ScalarField(), r1cs.NewBuilder, &printing{})
	if err != nil {
		t.Fatal(err)
	}
	pk, err := gnarkgroth16.DummySetup(ccs)
	if err != nil {
		t.Fatal(err)
	}
	x := rand.Uint64N(1 << 31)
	w, err := frontend.NewWitness(&printing{X: x, Y: x * x}, ecc.BLS12_381.ScalarField())
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("x is %d", x)

	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	if _, err := groth16.Prove(ccs, pk, w, groth16.WithBackend(cpu.MustNew()), groth16.WithLogger(log)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), fmt.Sprintf("level=DEBUG msg=%q", want)) {
		t.Errorf("WithLogger's handler lacks the circuit's line %q:\n%s", want, buf.String())
	}

	buf.Reset()
	var own bytes.Buffer
	opt := gnarkbackend.WithSolverOptions(solver.WithLogger(zerolog.New(&own)))
	if _, err := groth16.Prove(ccs, pk, w, groth16.WithBackend(cpu.MustNew()), groth16.WithLogger(log), groth16.WithProverOptions(opt)); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), want) || !strings.Contains(own.String(), want) {
		t.Errorf("the solver options' logger did not take the line: slog %q, own %q", buf.String(), own.String())
	}
}

// TestGnarkLoggerAsSet: a program that sets gnark's logger after import
// gets gnark's lines (its verifier's, under WithVerify) there; g16's calls
// leave the logger as set.
func TestGnarkLoggerAsSet(t *testing.T) {
	f := fixtureNamed(t, "mulchain")
	defer logger.Set(logger.Logger())
	var buf bytes.Buffer
	logger.Set(zerolog.New(&buf))
	if _, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithBackend(cpu.MustNew()), groth16.WithVerify(f.vk)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"message":"verifier done"`) {
		t.Errorf("gnark's logger, set by the program, lacks the verifier's line:\n%s", buf.String())
	}
}
