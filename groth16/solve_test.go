package groth16_test

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	gnarkbackend "github.com/consensys/gnark/backend"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/constraint/solver"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"

	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/groth16"
)

// cancelDuringSolve is set by TestCancelDuringSolve: the hint of
// hintedChain calls it while the circuit is being solved.
var cancelDuringSolve func()

// cancellingHint returns its input; it first calls cancelDuringSolve.
func cancellingHint(_ *big.Int, in, out []*big.Int) error {
	if cancelDuringSolve != nil {
		cancelDuringSolve()
	}
	out[0].Set(in[0])
	return nil
}

// hintedChain squares a hint's copy of X N times: the levels after the
// hint are where the solver sees the cancellation.
type hintedChain struct {
	N int               `gnark:"-"`
	X frontend.Variable `gnark:",secret"`
	Y frontend.Variable `gnark:",public"`
}

func (c *hintedChain) Define(api frontend.API) error {
	h, err := api.Compiler().NewHint(cancellingHint, 1, c.X)
	if err != nil {
		return err
	}
	api.AssertIsEqual(h[0], c.X)
	acc := h[0]
	for i := 0; i < c.N; i++ {
		acc = api.Mul(acc, acc)
	}
	api.AssertIsEqual(acc, c.Y)
	return nil
}

// TestCancelDuringSolve cancels the context of a Prove while its witness
// is being solved (from within a hint): Prove stops with context.Canceled.
// Without the cancellation the same proof is made and reports that g16's
// solver, not gnark's, solved it.
func TestCancelDuringSolve(t *testing.T) {
	const n = 64
	ccs, err := frontend.Compile(ecc.BLS12_381.ScalarField(), r1cs.NewBuilder, &hintedChain{N: n})
	if err != nil {
		t.Fatal(err)
	}
	pk, _, err := gnarkgroth16.Setup(ccs)
	if err != nil {
		t.Fatal(err)
	}
	y := big.NewInt(3)
	mod := ecc.BLS12_381.ScalarField()
	for i := 0; i < n; i++ {
		y.Mul(y, y).Mod(y, mod)
	}
	w, err := frontend.NewWitness(&hintedChain{N: n, X: 3, Y: y}, mod)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := groth16.NewProver(ccs, pk, groth16.WithBackend(cpu.MustNew()),
		groth16.WithProverOptions(gnarkbackend.WithSolverOptions(solver.WithHints(cancellingHint))))
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()

	var times groth16.PhaseTimes
	if _, err := pr.Prove(context.Background(), w, groth16.WithPhaseTimes(func(_ int, pt groth16.PhaseTimes) { times = pt })); err != nil {
		t.Fatalf("Prove: %v", err)
	}
	if times.SolverFallback != "" {
		t.Fatalf("gnark's solver solved it: %s", times.SolverFallback)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cancelDuringSolve = cancel
	defer func() { cancelDuringSolve = nil }()
	_, err = pr.Prove(ctx, w)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "solving the circuit") {
		t.Fatalf("Prove with its context cancelled while solving: %v, want context.Canceled from the solve", err)
	}
}
