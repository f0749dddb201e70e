//go:build cuda

package cuda

import (
	"math/big"
	mrand "math/rand/v2"
	"testing"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"

	"github.com/g16prover/g16/backend"
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
	x, y := pairs(e)
	checkFp(t, b, x, y)
	// Fp2: the elements (e_i, e_j), and every pair of them.
	x2, y2 := pairs(fp2Grid(e))
	checkFp2(t, b, x2, y2)
}

// pairs lays out every (e_i, e_j) of e² as the operands of a field op
// with two.
func pairs[T any](e []T) (x, y []T) {
	for i := range e {
		for j := range e {
			x, y = append(x, e[i]), append(y, e[j])
		}
	}
	return x, y
}

// fp2Grid returns every Fp2 element (e_i, e_j) over e².
func fp2Grid(e []fp.Element) []bls12381.E2 {
	var els []bls12381.E2
	for _, u := range e {
		for _, v := range e {
			els = append(els, bls12381.E2{A0: u, A1: v})
		}
	}
	return els
}

// field is fp.Element or bls12381.E2, through its pointer's methods.
type field[T any] interface {
	*T
	Mul(x, y *T) *T
	Sub(x, y *T) *T
	String() string
}

// checkMulSub runs op, a·b − c·d on quads' layout of operands, and checks
// every result against gnark-crypto's.
func checkMulSub[T comparable, P field[T]](t *testing.T, b *Backend, op int, name string, x, y []T) {
	t.Helper()
	n := len(x) / 2
	out := make([]T, n)
	if err := fieldOp(b, op, backend.AsBytes(out), backend.AsBytes(x), backend.AsBytes(y), n); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for i := range out {
		var want, cd T
		P(&want).Mul(&x[i], &y[i])
		P(&cd).Mul(&x[n+i], &y[n+i])
		P(&want).Sub(&want, &cd)
		if out[i] != want {
			t.Fatalf("%s: %v·%v − %v·%v = %v, want %v", name, P(&x[i]).String(), P(&y[i]).String(),
				P(&x[n+i]).String(), P(&y[n+i]).String(), P(&out[i]).String(), P(&want).String())
		}
	}
}

// checkMulSubGrid runs a·b − c·d (Fp's mul_sub, Fp2's mul_sub_lazy) with
// four independent operands against gnark-crypto: every a, b, c, d of the
// Fp grid, and of the Fp2 elements built from its ends (0, p − 1, (p + 1)/2
// and a random element), so that each difference reaches both ends of
// (−p², p²) for Fp and (−2p², 2p²) for each Fp2 component, where the bias
// p·2^382 is tightest (a·b − b·b, the two-operand check, stays within
// about ±p²).
func checkMulSubGrid(t *testing.T, b *Backend) {
	e := gridFp(testRand(t), 1)
	x, y := quads(e)
	checkMulSub(t, b, opFpMulSub4, "fp a·b − c·d", x, y)
	ends := []fp.Element{e[0], e[3], e[7], e[len(e)-1]} // 0, p − 1, (p + 1)/2, random
	x2, y2 := quads(fp2Grid(ends))
	checkMulSub(t, b, opFp2MulSubLazy4, "fp2 lazy a·b − c·d", x2, y2)
}

// quads lays out every (a, b, c, d) of e⁴ as the operands of a field op
// with four: a and b first, then c and d (the op reads c = x[n + i],
// d = y[n + i], n = len(x)/2).
func quads[T any](e []T) (x, y []T) {
	for _, a := range e {
		for _, b := range e {
			for _, c := range e {
				for _, d := range e {
					x, y = append(x, a, c), append(y, b, d)
				}
			}
		}
	}
	return halves(x), halves(y)
}

// halves reorders pairs (p_0, q_0, p_1, q_1, …) into (p_0, p_1, …, q_0, q_1, …).
func halves[T any](v []T) []T {
	r := make([]T, len(v))
	n := len(v) / 2
	for i := 0; i < n; i++ {
		r[i], r[n+i] = v[2*i], v[2*i+1]
	}
	return r
}

func TestFieldGridHost(t *testing.T) {
	checkFieldGrid(t, nil)
	checkMulSubGrid(t, nil)
}

func TestFieldGridDevice(t *testing.T) {
	b := newTestBackend(t)
	checkFieldGrid(t, b)
	checkMulSubGrid(t, b)
}
