//go:build cuda

package groth16_test

import (
	"context"
	"fmt"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"

	"github.com/g16prover/g16/backend/cuda"
	"github.com/g16prover/g16/groth16"
)

// A Prover on every visible GPU (a cuda build; needs a GPU to run): the
// key goes up once per GPU, and each proof is checked by gnark's verifier.
func ExampleNewProver_cuda() {
	ccs, pk, vk, w := exampleCircuit(3)
	gpus, err := cuda.OpenAll(0)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() {
		for _, g := range gpus {
			g.Close()
		}
	}()
	prover, err := groth16.NewProver(ccs, pk, groth16.WithBackends(gpus...))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer prover.Close()
	proof, err := prover.Prove(context.Background(), w)
	if err != nil {
		fmt.Println(err)
		return
	}
	pub, _ := w.Public()
	fmt.Println("verified:", gnarkgroth16.Verify(proof, vk, pub) == nil)
	proofs, err := prover.ProveBatch(context.Background(), []witness.Witness{w, w, w, w}, groth16.WithVerify(vk))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("batch verified:", len(proofs))
	// Output:
	// verified: true
	// batch verified: 4
}
