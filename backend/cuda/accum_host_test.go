//go:build cuda

package cuda

import (
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// TestAccumulateLevelsHost: a shape whose later accumulation levels' task
// bounds run far above their counts (window 8, tasks of 2: one bucket of
// 32 points, a hundred of 3, in window 0 alone), so that a level's bound
// beside its input's would pass twice the first level's sums, sums on the
// host to gnark's result on G1 and G2; accumulate fails the MSM when a
// level's sums pass the scratch model's two levels.
func TestAccumulateLevelsHost(t *testing.T) {
	rng := testRand(t)
	const w, big, small, each = 8, 32, 100, 3
	digits := rng.Perm(1<<(w-1) - 2)[:small+1] // bucket values 2 .. 2^(w-1) − 1, distinct
	var s []fr.Element
	add := func(d, k int) {
		for range k {
			var e fr.Element
			e.SetUint64(uint64(d + 2))
			s = append(s, e)
		}
	}
	add(digits[0], big)
	for _, d := range digits[1:] {
		add(d, each)
	}
	rng.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
	p1, p2 := randG1(rng, len(s)), randG2(rng, len(s))
	for _, flags := range []int{0, msmFanin8} {
		got, err := hostMSMG1(p1, s, w, 2, flags)
		if err != nil {
			t.Fatalf("G1 flags %d: %v", flags, err)
		}
		if want := refG1(p1, s); !got.Equal(&want) {
			t.Errorf("G1 flags %d: host pipeline differs from gnark", flags)
		}
		got2, err := hostMSMG2(p2, s, w, 2, flags)
		if err != nil {
			t.Fatalf("G2 flags %d: %v", flags, err)
		}
		if want := refG2(p2, s); !got2.Equal(&want) {
			t.Errorf("G2 flags %d: host pipeline differs from gnark", flags)
		}
	}
}
