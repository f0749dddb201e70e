package bw6761_test

import "github.com/g16prover/g16/internal/stdcircuits"

// The recursion outer circuit (std/recursion/groth16 verifying one
// BLS12-377 proof, the two-chain) exists over BW6-761's scalar field only:
// the solve benchmarks run it here beside the common circuits.
//
//	go test ./solver/bw6761 -run '^$' -bench 'CriticalPath/circuit=recursion' -benchtime 5x -cpu 1
func init() {
	curveBenchCircuits = append(curveBenchCircuits, std("recursion-1", stdcircuits.Recursion, 1, true))
}
