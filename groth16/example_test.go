package groth16_test

import (
	"context"
	"fmt"

	"github.com/consensys/gnark-crypto/ecc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"

	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/groth16"
)

// cubic proves knowledge of X with X³ + X + 5 = Y.
type cubic struct {
	X frontend.Variable
	Y frontend.Variable `gnark:",public"`
}

func (c *cubic) Define(api frontend.API) error {
	api.AssertIsEqual(c.Y, api.Add(api.Mul(c.X, c.X, c.X), c.X, 5))
	return nil
}

// exampleCircuit compiles cubic and runs gnark's setup; it returns a full
// witness for X = x.
func exampleCircuit(x int) (constraint.ConstraintSystem, gnarkgroth16.ProvingKey, gnarkgroth16.VerifyingKey, witness.Witness) {
	ccs, err := frontend.Compile(ecc.BLS12_381.ScalarField(), r1cs.NewBuilder, &cubic{})
	if err != nil {
		panic(err)
	}
	pk, vk, err := gnarkgroth16.Setup(ccs)
	if err != nil {
		panic(err)
	}
	return ccs, pk, vk, cubicWitness(x)
}

// cubicWitness is the full witness of cubic for X = x.
func cubicWitness(x int) witness.Witness {
	w, err := frontend.NewWitness(&cubic{X: x, Y: x*x*x + x + 5}, ecc.BLS12_381.ScalarField())
	if err != nil {
		panic(err)
	}
	return w
}

// One proof on the CPU backend, checked with gnark's verifier.
func ExampleProve() {
	ccs, pk, vk, w := exampleCircuit(3)
	proof, err := groth16.Prove(ccs, pk, w, groth16.WithBackend(cpu.MustNew()))
	if err != nil {
		fmt.Println(err)
		return
	}
	pub, _ := w.Public()
	fmt.Println("verified:", gnarkgroth16.Verify(proof, vk, pub) == nil)
	// Output: verified: true
}

// A batch of witnesses of one circuit, each proof checked by gnark's
// verifier before it is returned (WithVerify).
func ExampleProveBatch() {
	ccs, pk, vk, _ := exampleCircuit(0)
	var witnesses []witness.Witness
	for x := 1; x <= 4; x++ {
		witnesses = append(witnesses, cubicWitness(x))
	}
	proofs, err := groth16.ProveBatch(context.Background(), ccs, pk, witnesses,
		groth16.WithBackend(cpu.MustNew()), groth16.WithVerify(vk))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("proofs:", len(proofs), "verified: true")
	// Output: proofs: 4 verified: true
}

// A long-lived Prover keeps the key resident on its devices across calls;
// here two CPU backends stand for two GPUs.
func ExampleNewProver() {
	ccs, pk, vk, w := exampleCircuit(3)
	prover, err := groth16.NewProver(ccs, pk, groth16.WithBackends(cpu.MustNew(cpu.WithID(0)), cpu.MustNew(cpu.WithID(1))))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer prover.Close()
	ctx := context.Background()
	for i := 0; i < 2; i++ {
		if _, err := prover.Prove(ctx, w, groth16.WithVerify(vk)); err != nil {
			fmt.Println(err)
			return
		}
	}
	proofs, err := prover.ProveBatch(ctx, []witness.Witness{w, w, w}, groth16.WithVerify(vk))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("devices:", len(prover.Devices()), "batch:", len(proofs), "verified: true")
	// Output: devices: 2 batch: 3 verified: true
}

// A key kept resident on a device by the caller, shared by calls that
// would otherwise upload their own.
func ExampleNewDeviceKey() {
	ccs, pk, vk, w := exampleCircuit(3)
	dev := cpu.MustNew()
	key, err := groth16.NewDeviceKey(dev, pk)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer key.Close()
	pub, _ := w.Public()
	for i := 0; i < 2; i++ {
		proof, err := groth16.Prove(ccs, pk, w, groth16.WithDeviceKey(key))
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("verified:", gnarkgroth16.Verify(proof, vk, pub) == nil, "key still resident:", dev.Memory().InUse == key.Bytes())
	}
	// Output:
	// verified: true key still resident: true
	// verified: true key still resident: true
}
