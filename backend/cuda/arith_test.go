//go:build cuda

package cuda

import (
	"math/big"
	"testing"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
)

// The kernels' field arithmetic, against gnark-crypto: on the host (the
// same code on an emulated carry flag) always, and on the GPU when there is
// one.

// edgeFp returns n elements: 0, 1, −1, 2, small values, elements whose
// Montgomery form is near p (p − k for small k: all limbs near their
// maximum) or near 0, then random.
func edgeFp(n int) []fp.Element {
	v := make([]fp.Element, n)
	var minus1 fp.Element
	minus1.SetOne()
	minus1.Neg(&minus1)
	fixed := []fp.Element{{}, fp.One(), minus1}
	for i := range v {
		switch {
		case i < len(fixed):
			v[i] = fixed[i]
		case i < 8:
			v[i].SetUint64(uint64(i))
		case i < 16:
			// Montgomery form p − (i − 7): the raw limbs of p minus a small value.
			v[i] = montNearP(uint64(i - 7))
		case i < 20:
			// Montgomery form i − 15: tiny raw limbs.
			v[i] = fp.Element{uint64(i - 15)}
		default:
			v[i].MustSetRandom()
		}
	}
	return v
}

// montNearP returns the element whose Montgomery form is p − k.
func montNearP(k uint64) fp.Element {
	var b big.Int
	b.Sub(fp.Modulus(), new(big.Int).SetUint64(k))
	var e fp.Element
	for i := 0; i < fp.Limbs; i++ {
		e[i] = new(big.Int).Rsh(&b, uint(64*i)).Uint64()
	}
	return e
}

// fpOps are g16_field_op's Fp operations beside gnark-crypto's.
var fpOps = []struct {
	name string
	op   int
	ref  func(z, x, y *fp.Element)
}{
	{"mul", opFpMul, func(z, x, y *fp.Element) { z.Mul(x, y) }},
	{"add", opFpAdd, func(z, x, y *fp.Element) { z.Add(x, y) }},
	{"sub", opFpSub, func(z, x, y *fp.Element) { z.Sub(x, y) }},
	{"neg", opFpNeg, func(z, x, _ *fp.Element) { z.Neg(x) }},
	{"sqr", opFpSqr, func(z, x, _ *fp.Element) { z.Square(x) }},
	{"a·b − b·b", opFpMulSub, func(z, x, y *fp.Element) {
		var yy fp.Element
		yy.Square(y)
		z.Mul(x, y).Sub(z, &yy)
	}},
}

// checkFp runs every Fp operation over (x[i], y[i]) against gnark-crypto.
func checkFp(t *testing.T, b *Backend, x, y []fp.Element) {
	t.Helper()
	out := make([]fp.Element, len(x))
	for _, o := range fpOps {
		if err := fieldOp(b, o.op, backend.AsBytes(out), backend.AsBytes(x), backend.AsBytes(y), len(x)); err != nil {
			t.Fatalf("fp %s: %v", o.name, err)
		}
		for i := range out {
			var want fp.Element
			o.ref(&want, &x[i], &y[i])
			if out[i] != want {
				t.Fatalf("fp %s(%v, %v) = %v, want %v", o.name, x[i].String(), y[i].String(), out[i].String(), want.String())
			}
		}
	}
}

// checkFp2 runs the Fp2 product (plain and lazily reduced) and the lazy
// x·y − y² over (x[i], y[i]) and the square of x[i] against gnark-crypto.
func checkFp2(t *testing.T, b *Backend, x, y []bls12381.E2) {
	t.Helper()
	out := make([]bls12381.E2, len(x))
	for _, o := range []struct {
		name string
		op   int
	}{{"mul", opFp2Mul}, {"sqr", opFp2Sqr}, {"lazy mul", opFp2MulLazy}, {"lazy a·b − b·b", opFp2MulSubLazy}} {
		if err := fieldOp(b, o.op, backend.AsBytes(out), backend.AsBytes(x), backend.AsBytes(y), len(x)); err != nil {
			t.Fatalf("fp2 %s: %v", o.name, err)
		}
		for i := range out {
			var want bls12381.E2
			switch o.op {
			case opFp2Sqr:
				want.Square(&x[i])
			case opFp2MulSubLazy:
				var yy bls12381.E2
				yy.Square(&y[i])
				want.Mul(&x[i], &y[i]).Sub(&want, &yy)
			default:
				want.Mul(&x[i], &y[i])
			}
			if out[i] != want {
				t.Fatalf("fp2 %s(%v, %v): got %v, want %v", o.name, x[i].String(), y[i].String(), out[i].String(), want.String())
			}
		}
	}
}

func checkFieldOps(t *testing.T, b *Backend) {
	const n = 512
	a, c := edgeFp(n), edgeFp(n)
	for i := range c {
		c[i], c[n-1-i] = c[n-1-i], c[i]
	}
	checkFp(t, b, a, c)

	a2 := make([]bls12381.E2, n/2)
	c2 := make([]bls12381.E2, n/2)
	for i := range a2 {
		a2[i] = bls12381.E2{A0: a[2*i], A1: a[2*i+1]}
		c2[i] = bls12381.E2{A0: c[2*i], A1: c[2*i+1]}
	}
	// Against c2, and against a2 itself (the edge values on both sides).
	checkFp2(t, b, a2, c2)
	checkFp2(t, b, a2, a2)

	s := make([]fr.Element, n)
	for i := range s {
		switch i {
		case 0:
		case 1:
			s[i].SetOne()
		case 2:
			s[i].SetInt64(-1)
		default:
			s[i].MustSetRandom()
		}
	}
	plain := make([]fr.Element, n)
	if err := fieldOp(b, opFrFromMont, backend.AsBytes(plain), backend.AsBytes(s), backend.AsBytes(s), n); err != nil {
		t.Fatalf("fr from Montgomery: %v", err)
	}
	for i := range s {
		// plain holds the integer's limbs: compare as integers.
		var got big.Int
		limbs := plain[i]
		for k := 3; k >= 0; k-- {
			got.Lsh(&got, 64)
			got.Or(&got, new(big.Int).SetUint64(limbs[k]))
		}
		var want big.Int
		s[i].BigInt(&want)
		if got.Cmp(&want) != 0 {
			t.Fatalf("fr from Montgomery of %v: got %v", want.String(), got.String())
		}
	}
}

func TestFieldHost(t *testing.T) { checkFieldOps(t, nil) }

func TestFieldDevice(t *testing.T) {
	b := newTestBackend(t)
	checkFieldOps(t, b)
}
