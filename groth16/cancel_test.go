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

// slowCancel, when set, is called by the slowCancelAt-th call of slowHint.
var (
	slowCancel   atomic.Pointer[context.CancelFunc]
	slowCancelAt atomic.Int64
)

// slowHint copies its input after slowStep: a solver level that takes
// time, as a big circuit's levels do.
func slowHint(_ *big.Int, in, out []*big.Int) error {
	if n := slowHints.Add(1); n == slowCancelAt.Load() {
		if cancel := slowCancel.Load(); cancel != nil {
			(*cancel)()
		}
	}
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
// return context.Canceled long before the solve would have ended. The
// cancel comes from the cancelAt-th hint call, and how far the solves got
// is counted in hint calls, not read off the clock: a cancel after 200 ms
// and a bound of a third of the solve's 2 s passed on an idle machine with
// 3 ms to spare of the 667, but a loaded one could stall past it.
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
	const cancelAt = 10
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
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			slowHints.Store(0)
			slowCancelAt.Store(cancelAt)
			slowCancel.Store(&cancel)
			defer slowCancel.Store(nil)
			start := time.Now()
			err := c.prove(ctx)
			elapsed := time.Since(start)
			calls := slowHints.Load()
			t.Logf("%s cancelled at hint call %d returned after %v and %d hint calls (a full solve takes %d, %v): %v",
				c.name, cancelAt, elapsed.Round(time.Millisecond), calls, slowSteps, full, err)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v, want context.Canceled", err)
			}
			// Each solve under way ends the level it is in and stops
			// before the next: Prove and ProveBatch (two solves) both
			// return with the 10 calls made at the cancel. A cancel that
			// waited for the solve would see slowSteps calls a solve.
			if calls > cancelAt+slowSteps/3 {
				t.Errorf("%d hint calls after a cancel at call %d: the cancel waited for the solve", calls, cancelAt)
			}
		})
	}
}
