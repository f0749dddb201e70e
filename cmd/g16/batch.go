package main

import (
	"errors"
	"io"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/constraint"
)

func benchBatch(f benchFlags, ccs constraint.ConstraintSystem, s shape, pk gnarkgroth16.ProvingKey, vk gnarkgroth16.VerifyingKey,
	devs []namedBackend, stdout, stderr io.Writer) error {
	return errors.New("--partitions: ProveBatch not wired in yet")
}
