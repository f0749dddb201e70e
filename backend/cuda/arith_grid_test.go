//go:build cuda

package cuda

import (
	"math/big"
	mrand "math/rand/v2"
	"testing"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
)

// The bounds of the double-width arithmetic (field.cuh: mul_wide,
// mul_wide2, sqr_wide, redc, mul_sub; fp2.cuh: mul_lazy, mul_sub_lazy) are
// tightest at operands whose Montgomery forms sit at the ends of [0, p):
// every pair of such Fp values, and every pair of Fp2 elements built from
// them, against gnark-crypto. Its extremes:
//
//   - a0·b0 = 0 beside a1·b1 near p², where mul_lazy's
//     v0 = a0b0 − a1b1 + p·2^382 is smallest, and the reverse, where it is
//     largest;
//   - a0 + a1 and b0 + b1 near 2p (mul_wide's operands at their largest);
//   - limbs all ones or all zeros (the carry chains run through every limb
//     or none).

// gridFp returns the raw Montgomery forms at the ends of [0, p) and a few
// inside, then k random elements from rng.
func gridFp(rng *mrand.Rand, k int) []fp.Element {
	p := fp.Modulus()
	one := big.NewInt(1)
	raw := []*big.Int{
		big.NewInt(0), big.NewInt(1), big.NewInt(2),
		new(big.Int).Sub(p, one),                                    // p − 1
		new(big.Int).Sub(p, big.NewInt(2)),                          // p − 2
		new(big.Int).Sub(p, new(big.Int).Lsh(one, 32)),              // p − 2^32
		new(big.Int).Rsh(p, 1),                                      // (p − 1)/2
		new(big.Int).Add(new(big.Int).Rsh(p, 1), one),               // (p + 1)/2
		new(big.Int).Sub(new(big.Int).Lsh(one, 352), one),           // eleven limbs of ones
		new(big.Int).Lsh(one, 380),                                  // one bit, near the top
		new(big.Int).Sub(new(big.Int).Lsh(one, 380), one),           // every bit below it
		new(big.Int).Add(new(big.Int).Lsh(one, 352), big.NewInt(3)), // sparse
	}
	v := make([]fp.Element, 0, len(raw)+k)
	for _, b := range raw {
		if b.Cmp(p) >= 0 {
			panic("gridFp: internal error: a grid value is not below p")
		}
		var e fp.Element
		for i := 0; i < fp.Limbs; i++ {
			e[i] = new(big.Int).Rsh(b, uint(64*i)).Uint64()
		}
		v = append(v, e)
	}
	for range k {
		r := new(big.Int)
		for range fp.Limbs {
			r.Lsh(r, 64).Or(r, new(big.Int).SetUint64(rng.Uint64()))
		}
		var e fp.Element
		e.SetBigInt(r) // reduced mod p
		v = append(v, e)
	}
	return v
}

func checkFieldGrid(t *testing.T, b *Backend) {
	e := gridFp(testRand(t), 3)
	// Fp: every pair (e_i, e_j).
	var x, y []fp.Element
	for i := range e {
		for j := range e {
			x, y = append(x, e[i]), append(y, e[j])
		}
	}
	checkFp(t, b, x, y)
	// Fp2: the elements (e_i, e_j), and every pair of them.
	var els []bls12381.E2
	for i := range e {
		for j := range e {
			els = append(els, bls12381.E2{A0: e[i], A1: e[j]})
		}
	}
	var x2, y2 []bls12381.E2
	for i := range els {
		for j := range els {
			x2, y2 = append(x2, els[i]), append(y2, els[j])
		}
	}
	checkFp2(t, b, x2, y2)
}

func TestFieldGridHost(t *testing.T) { checkFieldGrid(t, nil) }

func TestFieldGridDevice(t *testing.T) { checkFieldGrid(t, newTestBackend(t)) }
