//go:build !race

package bls12381_test

const raceEnabled = false
