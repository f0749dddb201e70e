// Package groth16 proves gnark Groth16 circuits over BLS12-381 on a backend.Backend.
package groth16

import (
	_ "github.com/consensys/gnark/backend/groth16"
	_ "github.com/consensys/gnark/backend/groth16/bls12-381"
	_ "github.com/consensys/gnark/frontend"
	_ "github.com/consensys/gnark/frontend/cs/r1cs"
	_ "github.com/consensys/gnark/std/rangecheck"
	_ "golang.org/x/sync/errgroup"
)
