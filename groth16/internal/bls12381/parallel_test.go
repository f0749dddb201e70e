package bls12381

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// TestFilterOut: filterOut keeps the values whose skip is false, in order,
// over lengths that span one and several ranges, and returns v itself
// when nothing is skipped.
func TestFilterOut(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	for _, n := range []int{1, 100, minPerGoroutine + 1, 5*minPerGoroutine + 7} {
		v := make([]fr.Element, n)
		skip := make([]bool, n)
		var want []fr.Element
		for i := range v {
			v[i].SetUint64(rng.Uint64())
			skip[i] = rng.IntN(3) == 0
			if !skip[i] {
				want = append(want, v[i])
			}
		}
		if got := filterOut(v, skip, len(want)); !slices.Equal(got, want) {
			t.Errorf("n=%d: filterOut kept %d values, want %d (or they differ)", n, len(got), len(want))
		}
		clear(skip)
		if got := filterOut(v, skip, n); &got[0] != &v[0] || len(got) != n {
			t.Errorf("n=%d: filterOut with nothing skipped copied v", n)
		}
	}
}
