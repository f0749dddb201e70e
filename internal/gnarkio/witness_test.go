package gnarkio

import (
	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/frontend"
)

func frontendWitness(a frontend.Circuit) (witness.Witness, error) {
	return frontend.NewWitness(a, ecc.BLS12_381.ScalarField())
}
