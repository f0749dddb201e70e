package bls12381

import (
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// TestB2CostModel: the model's choices at the shapes it is for. PoRep's B
// at 2^27 (33.1M scalars, a tenth neither 0 nor ±1) and a dense random B
// at 2^24 stay on the H200 with 16 host cores; the host takes B2 only when
// it is far cheaper there, as with every scalar 0 on many cores. More
// scalars off 0 and ±1 never make either side cheaper.
func TestB2CostModel(t *testing.T) {
	const porepB = 33_112_281
	for _, c := range []struct {
		name             string
		n, ones, rest    int
		tasks            int
		host             bool
		deviceAtMost     float64 // seconds; 0: no bound
		hostAtLeastTimes float64 // host/device at least this; 0: no bound
	}{
		{"porep 2^27, tail 10%", porepB, porepB * 6 / 10, porepB / 10, 16, false, 0.3, 10},
		{"porep 2^27, tail 50%", porepB, porepB * 3 / 10, porepB / 2, 16, false, 1.0, 10},
		{"dense random 2^24", 1 << 24, 0, 1 << 24, 16, false, 0.5, 20},
		{"all zero 2^24, 128 cores", 1 << 24, 0, 0, 128, true, 0, 0},
		{"one tail scalar", 1000, 0, 1, 16, false, 0, 0},
	} {
		d, h := b2Costs(c.n, c.ones, c.rest, c.tasks)
		t.Logf("%s: device %s, host %s on %d cores", c.name, seconds(d), seconds(h), c.tasks)
		if host := h < d-b2MinSaving; host != c.host {
			t.Errorf("%s: host %v, want %v (device %s, host %s)", c.name, host, c.host, seconds(d), seconds(h))
		}
		if c.deviceAtMost > 0 && d > c.deviceAtMost {
			t.Errorf("%s: device %s, above %vs", c.name, seconds(d), c.deviceAtMost)
		}
		if c.hostAtLeastTimes > 0 && h < c.hostAtLeastTimes*d {
			t.Errorf("%s: host %s, less than %v× the device's %s", c.name, seconds(h), c.hostAtLeastTimes, seconds(d))
		}
	}
	n := 1 << 22
	prevD, prevH := b2Costs(n, n/2, 0, 16)
	for rest := n / 16; rest <= n/2; rest *= 2 {
		d, h := b2Costs(n, n/2-rest/2, rest, 16)
		if d < prevD || h < prevH {
			t.Errorf("rest %d: device %s, host %s; with fewer: %s, %s", rest, seconds(d), seconds(h), seconds(prevD), seconds(prevH))
		}
		prevD, prevH = d, h
	}
}

// TestScalarShares: exact counts on vectors up to b2Sample long, estimates
// within 2% of n on longer ones, on fresh random mixes of 0, 1, −1 and
// random scalars.
func TestScalarShares(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 26))
	var one, minusOne fr.Element
	one.SetOne()
	minusOne.Neg(&one)
	for _, n := range []int{0, 1, 7, b2Sample, 5*b2Sample + 3} {
		s := make([]fr.Element, n)
		var ones, rest int
		pOne, pRest := rng.Float64(), rng.Float64()*0.5
		for i := range s {
			switch x := rng.Float64(); {
			case x < pRest:
				s[i].MustSetRandom()
				if s[i].IsZero() || s[i] == one || s[i] == minusOne {
					s[i].SetUint64(2)
				}
				rest++
			case x < pRest+pOne*(1-pRest):
				if rng.IntN(2) == 0 {
					s[i] = one
				} else {
					s[i] = minusOne
				}
				ones++
			}
		}
		gotOnes, gotRest := scalarShares(s)
		tol := 0
		if n > b2Sample {
			tol = n / 50
		}
		if abs(gotOnes-ones) > tol || abs(gotRest-rest) > tol {
			t.Errorf("n %d: estimated %d ±1 and %d others, counted %d and %d (tolerance %d)", n, gotOnes, gotRest, ones, rest, tol)
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
