// Command consumer is a module outside g16's own that depends on it by
// module path, as an adopter's would: it compiles a small circuit, runs
// gnark's setup, proves with g16 and verifies with gnark. CI builds it
// plainly and runs it, and builds it with -tags cuda after installing the
// kernel library with g16-cuda-install.
//
//	go run .                 # proves on every GPU a cuda build sees, else the CPU
//	go run . -backend cpu
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"

	"github.com/consensys/gnark-crypto/ecc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/groth16"
)

// cube proves knowledge of X with X³ + X + 5 = Y.
type cube struct {
	X frontend.Variable
	Y frontend.Variable `gnark:",public"`
}

func (c *cube) Define(api frontend.API) error {
	x3 := api.Mul(c.X, c.X, c.X)
	api.AssertIsEqual(c.Y, api.Add(x3, c.X, 5))
	return nil
}

func main() {
	which := flag.String("backend", "", "cpu, or empty for the default (every visible GPU in a cuda build, else the CPU)")
	proofs := flag.Int("proofs", 4, "proofs in the batch")
	flag.Parse()
	if err := run(*which, *proofs); err != nil {
		fmt.Fprintln(os.Stderr, "consumer:", err)
		os.Exit(1)
	}
}

func run(which string, n int) error {
	ccs, err := frontend.Compile(ecc.BLS12_381.ScalarField(), r1cs.NewBuilder, &cube{})
	if err != nil {
		return err
	}
	pk, vk, err := gnarkgroth16.Setup(ccs)
	if err != nil {
		return err
	}
	w, err := frontend.NewWitness(&cube{X: 3, Y: 35}, ecc.BLS12_381.ScalarField())
	if err != nil {
		return err
	}
	opts := []groth16.Option{groth16.WithLogger(slog.New(slog.NewTextHandler(os.Stderr, nil)))}
	if which == "cpu" {
		opts = append(opts, groth16.WithBackend(cpu.MustNew()))
	}
	prover, err := groth16.NewProver(ccs, pk, opts...)
	if err != nil {
		return err
	}
	defer prover.Close()
	witnesses := make([]witness.Witness, n)
	for i := range witnesses {
		witnesses[i] = w
	}
	batch, err := prover.ProveBatch(context.Background(), witnesses, groth16.WithVerify(vk))
	if err != nil {
		return err
	}
	// WithVerify has checked each proof with gnark's verifier.
	ok := 0
	for _, p := range batch {
		if p != nil {
			ok++
		}
	}
	fmt.Printf("%d proofs on %s; verified: %v\n", ok, names(prover.Devices()), ok == n)
	return nil
}

func names(devs []backend.Backend) string {
	s := ""
	for i, d := range devs {
		if i > 0 {
			s += ", "
		}
		s += d.String()
	}
	return s
}
