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

// The Karatsuba double-width products (field_ka.cuh) against math/big and
// against the schoolbook mont_t::mul_wide and sqr_wide, over the whole
// range of 12-limb operands, and the Fp operations built on them against
// gnark-crypto.

// wideOperands returns 12-limb integers (as fp.Element's raw limbs) at the
// ends of the ranges the products see: 0, 1, p − 1, p, 2p − 1, 2^382 − 1,
// 2^384 − 1, operands whose 192-bit halves (one level) and 96-bit quarters
// (two levels) are all ones, so that every half sum carries, or all zeros,
// single bits at the splits, then k random ones: random bit lengths, and
// limbs each 0, all ones or random.
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

func checkKaratsubaWide(t *testing.T, b *Backend) {
	rng := testRand(t)
	v := wideOperands(rng, 30)
	var x, y []*big.Int
	for i := range v {
		for j := range v {
			x, y = append(x, v[i]), append(y, v[j])
		}
	}
	sq := wideOperands(rng, 2000)
	limit := new(big.Int).Lsh(big.NewInt(1), 382) // mont_t::mul_wide's bound
	for _, c := range []struct {
		name   string
		ka, sb int
		sqr    bool
	}{
		{"a·b, one level", opWideKa1, opWide, false},
		{"a·b, two levels", opWideKa2, opWide, false},
		{"a², one level", opSqrWideKa1, opSqrWide, true},
		{"a², two levels", opSqrWideKa2, opSqrWide, true},
	} {
		xs, ys := x, y
		if c.sqr {
			xs, ys = sq, sq
		}
		got := wideOp(t, b, c.ka, xs, ys)
		ref := wideOp(t, b, c.sb, xs, ys)
		inRange := 0
		for i := range got {
			want := new(big.Int).Mul(xs[i], ys[i])
			if c.sqr {
				want.Mul(xs[i], xs[i])
			}
			if got[i].Cmp(want) != 0 {
				t.Fatalf("%s of %#x, %#x: got %#x, want %#x", c.name, xs[i], ys[i], got[i], want)
			}
			// The schoolbook products are documented below 2^382 (mul_wide) and
			// below p (sqr_wide); within that both must agree.
			sbLimit := limit
			if c.sqr {
				sbLimit = fp.Modulus()
			}
			if xs[i].Cmp(sbLimit) < 0 && ys[i].Cmp(sbLimit) < 0 {
				inRange++
				if ref[i].Cmp(got[i]) != 0 {
					t.Fatalf("%s of %#x, %#x: %#x, schoolbook %#x", c.name, xs[i], ys[i], got[i], ref[i])
				}
			}
		}
		t.Logf("%s: %d products against math/big, %d of them against the schoolbook product", c.name, len(got), inRange)
	}
}

func checkKaratsubaFp(t *testing.T, b *Backend) {
	rng := testRand(t)
	e := append(gridFp(rng, 40), edgeFp(24)...)
	x, y := pairs(e)
	out := make([]fp.Element, len(x))
	for _, c := range []struct {
		name string
		op   int
		sqr  bool
	}{{"mul, one level", opFpMulKa1, false}, {"sqr, one level", opFpSqrKa1, true},
		{"mul, two levels", opFpMulKa2, false}, {"sqr, two levels", opFpSqrKa2, true}} {
		if err := fieldOp(b, c.op, backend.AsBytes(out), backend.AsBytes(x), backend.AsBytes(y), len(x)); err != nil {
			t.Fatalf("fp %s: %v", c.name, err)
		}
		for i := range out {
			var want fp.Element
			if c.sqr {
				want.Square(&x[i])
			} else {
				want.Mul(&x[i], &y[i])
			}
			if out[i] != want {
				t.Fatalf("fp %s(%v, %v) = %v, want %v", c.name, x[i].String(), y[i].String(), out[i].String(), want.String())
			}
		}
	}
	// a·b − c·d over every a, b, c, d of the grid's ends (checkMulSubGrid).
	qx, qy := quads(gridFp(rng, 1))
	checkMulSub(t, b, opFpMulSubKa1, "fp a·b − c·d, one level", qx, qy)
	checkMulSub(t, b, opFpMulSubKa2, "fp a·b − c·d, two levels", qx, qy)
}

// checkKaratsubaFp2 runs Fp2's lazily reduced products on one-level
// Karatsuba products against gnark-crypto: a·b over every pair of the
// elements built from the Fp grid (checkFieldGrid), a·b − c·d over every
// quadruple of those built from its ends (checkMulSubGrid).
func checkKaratsubaFp2(t *testing.T, b *Backend) {
	rng := testRand(t)
	e := gridFp(rng, 2)
	x, y := pairs(fp2Grid(e))
	out := make([]bls12381.E2, len(x))
	if err := fieldOp(b, opFp2MulLazyKa1, backend.AsBytes(out), backend.AsBytes(x), backend.AsBytes(y), len(x)); err != nil {
		t.Fatalf("fp2 lazy mul: %v", err)
	}
	for i := range out {
		var want bls12381.E2
		want.Mul(&x[i], &y[i])
		if out[i] != want {
			t.Fatalf("fp2 lazy mul, one level (%v, %v): got %v, want %v", x[i].String(), y[i].String(), out[i].String(), want.String())
		}
	}
	qx, qy := quads(fp2Grid([]fp.Element{e[0], e[3], e[7], e[len(e)-1]})) // 0, p − 1, (p + 1)/2, random
	checkMulSub(t, b, opFp2MulSubLazyKa1, "fp2 lazy a·b − c·d, one level", qx, qy)
}

func TestFieldKaratsubaHost(t *testing.T) {
	checkKaratsubaWide(t, nil)
	checkKaratsubaFp(t, nil)
	checkKaratsubaFp2(t, nil)
}

func TestFieldKaratsubaDevice(t *testing.T) {
	b := newTestBackend(t)
	checkKaratsubaWide(t, b)
	checkKaratsubaFp(t, b)
	checkKaratsubaFp2(t, b)
}
