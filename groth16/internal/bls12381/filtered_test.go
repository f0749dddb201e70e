package bls12381

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// TestFilteredFill: any range of a filtered vector, read through fill,
// equals the same range of filterOut's copy: ranges that start and end
// inside blocks and across them, the whole vector, a range on several
// goroutines, skip masks dense, sparse, all skipped but one, none skipped.
func TestFilteredFill(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	for _, n := range []int{1, filterBlock - 1, filterBlock, 3*filterBlock + 5, 2*minPerGoroutine + 3*filterBlock + 11} {
		for _, mask := range []string{"dense", "sparse", "one kept", "none skipped"} {
			v := make([]fr.Element, n)
			skip := make([]bool, n)
			for i := range v {
				v[i].SetUint64(rng.Uint64())
				switch mask {
				case "dense":
					skip[i] = rng.IntN(3) == 0
				case "sparse":
					skip[i] = rng.IntN(500) == 0
				case "one kept":
					skip[i] = true
				}
			}
			if mask == "one kept" {
				skip[rng.IntN(n)] = false
			}
			want := 0
			for _, s := range skip {
				if !s {
					want++
				}
			}
			ref := slices.Clone(filterOut(v, skip, want))
			f, err := newFiltered(v, skip, want)
			if err != nil {
				t.Fatalf("n=%d %s: %v", n, mask, err)
			}
			if _, err := newFiltered(v, skip, want+1); err == nil {
				t.Errorf("n=%d %s: newFiltered accepted a wrong count", n, mask)
			}
			check := func(lo, hi int) {
				got := make([]fr.Element, hi-lo)
				f.fill(lo, got)
				if !slices.Equal(got, ref[lo:hi]) {
					t.Errorf("n=%d %s: fill [%d, %d) of %d differs from filterOut's", n, mask, lo, hi, want)
				}
			}
			check(0, want)
			for range 20 {
				lo := rng.IntN(want + 1)
				check(lo, lo+rng.IntN(want-lo+1))
			}
			// consecutive chunks, as a stream reads them
			for c := max(1, want/7); ; c = want + 1 {
				for lo := 0; lo < want; lo += c {
					check(lo, min(want, lo+c))
				}
				if c > want {
					break
				}
			}
		}
	}
}
