package groth16_test

import (
	"context"
	"errors"
	"math/big"
	"sync/atomic"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint/solver"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"

	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/groth16"
)

// slowSteps is how many levels slowCircuit's solve takes, slowStep each.
const (
	slowSteps = 100
	slowStep  = 20 * time.Millisecond
)

// slowHints counts the calls of slowHint.
var slowHints atomic.Int64

// slowHint copies its input after slowStep: a solver level that takes
// time, as a big circuit's levels do.
func slowHint(_ *big.Int, in, out []*big.Int) error {
	slowHints.Add(1)
	time.Sleep(slowStep)
	out[0].Set(in[0])
	return nil
}

func init() { solver.RegisterHint(slowHint) }

// slowCircuit is a chain of slowSteps hints, each reading the last one's
// output, so that each is a level of its own: solving takes
// slowSteps·slowStep.
type slowCircuit struct {
	X frontend.Variable
	Y frontend.Variable `gnark:",public"`
}

func (c *slowCircuit) Define(api frontend.API) error {
	x := c.X
	for i := 0; i < slowSteps; i++ {
		out, err := api.Compiler().NewHint(slowHint, 1, x)
		if err != nil {
			return err
		}
		api.AssertIsEqual(out[0], x)
		x = api.Mul(out[0], 1)
	}
	api.AssertIsEqual(x, c.Y)
	return nil
}

// TestCancelDoesNotWaitForSolve: a cancel reaches ProveBatch and Prove in the
// middle of solving (g16's solver checks the context between levels): they
// return context.Canceled long before the solve would have ended.
func TestCancelDoesNotWaitForSolve(t *testing.T) {
	ccs, err := frontend.Compile(ecc.BLS12_381.ScalarField(), r1cs.NewBuilder, &slowCircuit{})
	if err != nil {
		t.Fatal(err)
	}
	pk, err := gnarkgroth16.DummySetup(ccs)
	if err != nil {
		t.Fatal(err)
	}
	w, err := frontend.NewWitness(&slowCircuit{X: 3, Y: 3}, ecc.BLS12_381.ScalarField())
	if err != nil {
		t.Fatal(err)
	}
	dev := cpu.MustNew()
	defer dev.Close()
	pr, err := groth16.NewProver(ccs, pk, groth16.WithBackend(dev))
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	full := time.Duration(slowSteps) * slowStep
	const after = 200 * time.Millisecond
	for _, c := range []struct {
		name  string
		prove func(ctx context.Context) error
	}{
		{"ProveBatch", func(ctx context.Context) error {
			_, err := pr.ProveBatch(ctx, []witness.Witness{w, w})
			return err
		}},
		{"Prove", func(ctx context.Context) error { _, err := pr.Prove(ctx, w); return err }},
	} {
		t.Run(c.name, func(t *testing.T) {
			slowHints.Store(0)
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(after, cancel)
			start := time.Now()
			err := c.prove(ctx)
			elapsed := time.Since(start)
			t.Logf("%s cancelled after %v returned after %v (a full solve takes %v; %d hint calls): %v",
				c.name, after, elapsed.Round(time.Millisecond), full, slowHints.Load(), err)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v, want context.Canceled", err)
			}
			if elapsed > after+full/3 {
				t.Errorf("returned after %v: the cancel waited for the solve", elapsed)
			}
		})
	}
}
