package main

import (
	"math/rand/v2"
	"testing"
)

// TestCustomHint proves a fresh random N with the custom hint; a proof is
// returned only after gnark's verifier accepts it (WithVerify).
func TestCustomHint(t *testing.T) {
	n := rand.Uint64() >> 2
	t.Logf("N = %d", n)
	if err := run(n); err != nil {
		t.Fatal(err)
	}
}
