//go:build cuda

package cuda

import (
	"math/big"
	mrand "math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"

	"github.com/g16prover/g16/backend"
)

// The double-width products mont_t::mul_wide and sqr_wide (under Fp2's
// lazily reduced products and Fp's squaring) against math/big, over the
// ranges of 12-limb operands they take.

// wideOperands returns 12-limb integers (as fp.Element's raw limbs) at the
// ends of the ranges the products see: 0, 1, p − 1, p, 2p − 1, 2^382 − 1,
// 2^384 − 1, operands whose 192-bit halves and 96-bit quarters are all
// ones or all zeros, single bits at those limb boundaries, then k random
// ones: random bit lengths, and limbs each 0, all ones or random.
func wideOperands(rng *mrand.Rand, k int) []*big.Int {
	p := fp.Modulus()
	one := big.NewInt(1)
	pow := func(e uint) *big.Int { return new(big.Int).Lsh(one, e) }
	ones := func(e uint) *big.Int { return new(big.Int).Sub(pow(e), one) }
	v := []*big.Int{
		big.NewInt(0), big.NewInt(1),
		new(big.Int).Sub(p, one), new(big.Int).Set(p),
		new(big.Int).Sub(new(big.Int).Lsh(p, 1), one), // 2p − 1
		ones(382), ones(384), ones(192),
		new(big.Int).Lsh(ones(192), 192),      // the high half all ones
		new(big.Int).Add(ones(192), pow(192)), // a0 = 2^192 − 1, a1 = 1
		new(big.Int).Add(ones(96), pow(288)),  // one quarter all ones, a bit above
		new(big.Int).Lsh(ones(96), 96),        // the second quarter all ones
		new(big.Int).Or(ones(96), pow(191)),   // ones and the top bit of a0
		pow(191), pow(192), pow(383), pow(381), pow(96),
	}
	for i := 0; i < k; i++ {
		x := new(big.Int)
		switch i % 3 {
		case 0: // a random bit length up to 384
			bits := 1 + rng.IntN(384)
			for j := 0; j < 12; j++ {
				x.Lsh(x, 32).Or(x, big.NewInt(int64(rng.Uint32())))
			}
			x.Rsh(x, uint(384-bits))
		case 1: // limbs 0, all ones or random
			for j := 0; j < 12; j++ {
				var l uint32
				switch rng.IntN(3) {
				case 0:
				case 1:
					l = 0xffffffff
				default:
					l = rng.Uint32()
				}
				x.Lsh(x, 32).Or(x, big.NewInt(int64(l)))
			}
		default: // random below 2^382 (sums of two elements)
			for j := 0; j < 12; j++ {
				x.Lsh(x, 32).Or(x, big.NewInt(int64(rng.Uint32())))
			}
			x.Rsh(x, 2)
		}
		v = append(v, x)
	}
	return v
}

// rawLimbs and fromRaw convert between an integer and n 64-bit limbs.
func rawLimbs(x *big.Int, n int) []uint64 {
	l := make([]uint64, n)
	mask := new(big.Int).SetUint64(^uint64(0))
	for i := range l {
		l[i] = new(big.Int).And(new(big.Int).Rsh(x, uint(64*i)), mask).Uint64()
	}
	return l
}

func fromRaw(l []uint64) *big.Int {
	x := new(big.Int)
	for i := len(l) - 1; i >= 0; i-- {
		x.Lsh(x, 64).Or(x, new(big.Int).SetUint64(l[i]))
	}
	return x
}

// wideOp runs a double-width op over (x[i], y[i]) and returns the 24-limb
// results as integers.
func wideOp(t *testing.T, b *Backend, op int, x, y []*big.Int) []*big.Int {
	t.Helper()
	xa, ya := make([]fp.Element, len(x)), make([]fp.Element, len(y))
	for i := range x {
		copy(xa[i][:], rawLimbs(x[i], 6))
		copy(ya[i][:], rawLimbs(y[i], 6))
	}
	out := make([]fp.Element, 2*len(x))
	if err := fieldOp(b, op, backend.AsBytes(out), backend.AsBytes(xa), backend.AsBytes(ya), len(x)); err != nil {
		t.Fatalf("field op %d: %v", op, err)
	}
	r := make([]*big.Int, len(x))
	for i := range r {
		r[i] = fromRaw(append(append([]uint64{}, out[2*i][:]...), out[2*i+1][:]...))
	}
	return r
}

// checkWide runs mul_wide on every pair of operands below 2^382 (its
// bound: sums of two elements below 2p) and sqr_wide on operands below p,
// against math/big.
func checkWide(t *testing.T, b *Backend) {
	rng := testRand(t)
	limit := new(big.Int).Lsh(big.NewInt(1), 382)
	below := func(v []*big.Int, bound *big.Int) []*big.Int {
		var r []*big.Int
		for _, x := range v {
			if x.Cmp(bound) < 0 {
				r = append(r, x)
			}
		}
		return r
	}
	v := below(wideOperands(rng, 30), limit)
	var x, y []*big.Int
	for i := range v {
		for j := range v {
			x, y = append(x, v[i]), append(y, v[j])
		}
	}
	sq := below(wideOperands(rng, 2000), fp.Modulus())
	for _, c := range []struct {
		name string
		op   int
		sqr  bool
	}{{"mul_wide", opWide, false}, {"sqr_wide", opSqrWide, true}} {
		xs, ys := x, y
		if c.sqr {
			xs, ys = sq, sq
		}
		got := wideOp(t, b, c.op, xs, ys)
		for i := range got {
			want := new(big.Int).Mul(xs[i], ys[i])
			if got[i].Cmp(want) != 0 {
				t.Fatalf("%s of %#x, %#x: got %#x, want %#x", c.name, xs[i], ys[i], got[i], want)
			}
		}
		t.Logf("%s: %d products against math/big", c.name, len(got))
	}
}

func TestFieldWideHost(t *testing.T) { checkWide(t, nil) }

func TestFieldWideDevice(t *testing.T) { checkWide(t, newTestBackend(t)) }
