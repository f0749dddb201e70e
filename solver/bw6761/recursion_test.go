package bw6761_test

import (
	"testing"

	"github.com/g16prover/g16/internal/stdcircuits"
)

// recursionCircuit is the recursion outer circuit (std/recursion/groth16
// verifying one BLS12-377 proof, the two-chain), over BW6-761's scalar
// field only: its long rows of small integer coefficients (extension-field
// arithmetic) and gnark's fields_bls12377 hints are tested and benchmarked
// here beside the common circuits.
//
//	go test ./solver/bw6761 -run '^$' -bench 'CriticalPath/circuit=recursion' -benchtime 5x -cpu 1
var recursionCircuit = std("recursion-1", stdcircuits.Recursion, 1, false)

func init() {
	curveBenchCircuits = append(curveBenchCircuits, recursionCircuit)
}

// TestRecursionSameAsGnark: the recursion outer circuit's solve gives
// gnark's W, A, B and C.
func TestRecursionSameAsGnark(t *testing.T) {
	sameAsGnark(t, recursionCircuit)
}
