// Command customhint proves a circuit whose solver needs a hint of its own,
// which `g16 prove` cannot do: the command knows gnark's standard hints
// only. A program like this one registers the hint and proves with package
// groth16.
//
// The circuit proves knowledge of the integer square root R of a public N
// (R² ≤ N < (R+1)²); R is computed by the hint isqrt while solving.
//
//	go run ./examples/customhint -n 1000003
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/big"
	"os"

	"github.com/consensys/gnark-crypto/ecc"
	gnarkbackend "github.com/consensys/gnark/backend"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/constraint/solver"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"

	"github.com/g16prover/g16/groth16"
)

// isqrt is the hint: out[0] = ⌊√in[0]⌋.
func isqrt(_ *big.Int, in, out []*big.Int) error {
	if len(in) != 1 || len(out) != 1 {
		return errors.New("isqrt: one input, one output")
	}
	out[0].Sqrt(in[0])
	return nil
}

// sqrtCircuit holds R = ⌊√N⌋, with N below 2^bits.
type sqrtCircuit struct {
	N frontend.Variable `gnark:",public"`
}

const bits = 64

func (c *sqrtCircuit) Define(api frontend.API) error {
	r, err := api.Compiler().NewHint(isqrt, 1, c.N)
	if err != nil {
		return err
	}
	// R² ≤ N and N < (R+1)², as differences that fit in bits+1 bits.
	r2 := api.Mul(r[0], r[0])
	api.ToBinary(api.Sub(c.N, r2), bits+1)
	next := api.Add(r[0], 1)
	api.ToBinary(api.Sub(api.Sub(api.Mul(next, next), c.N), 1), bits+1)
	return nil
}

func main() {
	n := flag.Uint64("n", 1000003, "the public N")
	flag.Parse()
	if err := run(*n); err != nil {
		fmt.Fprintln(os.Stderr, "customhint:", err)
		os.Exit(1)
	}
}

func run(n uint64) error {
	ccs, err := frontend.Compile(ecc.BLS12_381.ScalarField(), r1cs.NewBuilder, &sqrtCircuit{})
	if err != nil {
		return err
	}
	pk, vk, err := gnarkgroth16.Setup(ccs)
	if err != nil {
		return err
	}
	w, err := frontend.NewWitness(&sqrtCircuit{N: n}, ecc.BLS12_381.ScalarField())
	if err != nil {
		return err
	}
	// The solver finds the hint among the prover options (or in gnark's
	// global registry, after solver.RegisterHint(isqrt)).
	hints := gnarkbackend.WithSolverOptions(solver.WithHints(isqrt))
	prover, err := groth16.NewProver(ccs, pk, groth16.WithProverOptions(hints))
	if err != nil {
		return err
	}
	defer prover.Close()
	if _, err := prover.Prove(context.Background(), w, groth16.WithVerify(vk)); err != nil {
		return err
	}
	fmt.Printf("proved ⌊√%d⌋ is known; verified: true\n", n)
	return nil
}
