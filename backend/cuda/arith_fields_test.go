//go:build cuda

package cuda

import (
	"fmt"
	"math/big"
	mrand "math/rand/v2"
	"testing"
	"unsafe"

	bls12377 "github.com/consensys/gnark-crypto/ecc/bls12-377"
	b377fp "github.com/consensys/gnark-crypto/ecc/bls12-377/fp"
	b377fr "github.com/consensys/gnark-crypto/ecc/bls12-377/fr"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	blsfp "github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
	blsfr "github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark-crypto/ecc/bn254"
	bnfp "github.com/consensys/gnark-crypto/ecc/bn254/fp"
	bnfr "github.com/consensys/gnark-crypto/ecc/bn254/fr"
	bw6fp "github.com/consensys/gnark-crypto/ecc/bw6-761/fp"
	bw6fr "github.com/consensys/gnark-crypto/ecc/bw6-761/fr"

	"github.com/g16prover/g16/backend"
)

// Each curve's fields through the one field template (kernels/field.cuh's
// mont_t over the parameters of kernels/bls12_381.cuh, bn254.cuh,
// bls12_377.cuh and bw6_761.cuh), against gnark-crypto's fp and fr packages
// of the same curve, and fp2.cuh's Fp2 against gnark-crypto's E2
// (BLS12-377's with u² = −5): every pair of adversarial values (0, 1, m − 1,
// values near 2^253, 2^254, m/2 and the powers of two around m's bit
// length, and Montgomery forms whose limbs are near m's or near 0) and
// random pairs.

// montElem is what the tests need of a gnark-crypto field element.
type montElem[E any] interface {
	*E
	Mul(x, y *E) *E
	Add(x, y *E) *E
	Sub(x, y *E) *E
	Neg(x *E) *E
	Square(x *E) *E
	Inverse(x *E) *E
	SetBigInt(v *big.Int) *E
	BigInt(res *big.Int) *big.Int
}

// rawLimbsOf is e's Montgomery form, limb by limb.
func rawLimbsOf[E any](e *E) []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Pointer(e)), unsafe.Sizeof(*e)/8)
}

// fieldValues returns the adversarial elements of the field of modulus m,
// then k random ones.
func fieldValues[E comparable, PE montElem[E]](rng *mrand.Rand, m *big.Int, k int) []E {
	one := big.NewInt(1)
	pow := func(e uint) *big.Int { return new(big.Int).Lsh(one, e) }
	add := func(a *big.Int, d int64) *big.Int { return new(big.Int).Add(a, big.NewInt(d)) }
	half := new(big.Int).Rsh(m, 1)
	ints := []*big.Int{
		big.NewInt(0), big.NewInt(1), big.NewInt(2), big.NewInt(3),
		add(m, -1), add(m, -2), add(m, -3), half, add(half, 1), add(half, -1),
		pow(253), add(pow(253), -1), add(pow(253), 1),
		add(pow(254), -1), pow(254), add(pow(254), 1), // reduced mod m when m < 2^254
		add(pow(255), -1), pow(64), add(pow(128), -1), add(pow(192), -1),
		// m's top bit and the next, reduced mod m above it (BW6-761's 761 and
		// 377 bits, 12 and 24 limbs, beside the 8-limb fields').
		pow(uint(m.BitLen() - 1)), add(pow(uint(m.BitLen()-1)), -1),
		add(pow(uint(m.BitLen())), -1), pow(uint(m.BitLen())),
	}
	var v []E
	for _, x := range ints {
		var e E
		PE(&e).SetBigInt(x)
		v = append(v, e)
	}
	// Montgomery forms m − k (every limb near its maximum) and k (every
	// limb but the lowest 0).
	for k := uint64(1); k <= 4; k++ {
		var e E
		l := rawLimbsOf(&e)
		mk := new(big.Int).Sub(m, new(big.Int).SetUint64(k))
		for i := range l {
			l[i] = new(big.Int).Rsh(mk, uint(64*i)).Uint64()
		}
		v = append(v, e)
		var s E
		rawLimbsOf(&s)[0] = k
		v = append(v, s)
	}
	for i := 0; i < k; i++ {
		x := new(big.Int)
		for j := 0; j < m.BitLen()/32+1; j++ {
			x.Lsh(x, 32).Or(x, big.NewInt(int64(rng.Uint32())))
		}
		var e E
		PE(&e).SetBigInt(x.Mod(x, m))
		v = append(v, e)
	}
	return v
}

// checkField runs every g16_mont_op operation over the field on the host
// (b nil) or the device, against gnark-crypto.
func checkField[E comparable, PE montElem[E]](t *testing.T, b *Backend, name string, field int, m *big.Int) {
	rng := testRand(t)
	k := 2000
	if testing.Short() {
		k = 200
	}
	v := fieldValues[E, PE](rng, m, k)
	// Every pair of the adversarial values, each random one with a random
	// partner.
	fixed := len(v) - k
	var x, y []E
	for i := 0; i < fixed; i++ {
		for j := 0; j < fixed; j++ {
			x, y = append(x, v[i]), append(y, v[j])
		}
	}
	for i := fixed; i < len(v); i++ {
		x, y = append(x, v[i]), append(y, v[rng.IntN(len(v))])
	}
	for _, o := range []struct {
		name  string
		op    int
		unary bool // over the values once each, not over the pairs
		ref   func(r, x, y *E)
	}{
		{"mul", montMul, false, func(r, x, y *E) { PE(r).Mul(x, y) }},
		{"add", montAdd, false, func(r, x, y *E) { PE(r).Add(x, y) }},
		{"sub", montSub, false, func(r, x, y *E) { PE(r).Sub(x, y) }},
		{"neg", montNeg, true, func(r, a, _ *E) { PE(r).Neg(a) }},
		{"sqr", montSqr, true, func(r, a, _ *E) { PE(r).Square(a) }},
		{"inverse", montInv, true, func(r, a, _ *E) { PE(r).Inverse(a) }},
		{"from Montgomery", montFrom, true, func(r, a, _ *E) {
			// The plain integer a, as limbs.
			var z big.Int
			PE(a).BigInt(&z)
			l := rawLimbsOf(r)
			for i := range l {
				l[i] = new(big.Int).Rsh(&z, uint(64*i)).Uint64()
			}
		}},
	} {
		a, c := x, y
		if o.unary {
			a, c = v, v
		}
		out := make([]E, len(a))
		if err := montOp(b, field, o.op, backend.AsBytes(out), backend.AsBytes(a), backend.AsBytes(c), len(a)); err != nil {
			t.Fatalf("%s %s: %v", name, o.name, err)
		}
		bad := 0
		for i := range out {
			var want E
			o.ref(&want, &a[i], &c[i])
			if out[i] != want {
				if bad++; bad <= 3 {
					t.Errorf("%s %s(%v, %v) = %v, want %v", name, o.name, elemString[E, PE](&a[i]), elemString[E, PE](&c[i]), elemString[E, PE](&out[i]), elemString[E, PE](&want))
				}
			}
		}
		if bad > 0 {
			t.Errorf("%s %s: %d of %d results differ from gnark-crypto", name, o.name, bad, len(out))
		}
	}
	t.Logf("%s: %d values (%d adversarial, %d random), %d operand pairs", name, len(v), fixed, k, len(x))
}

// elemString shows an element as an integer and as its Montgomery limbs.
func elemString[E comparable, PE montElem[E]](e *E) string {
	var z big.Int
	return fmt.Sprintf("%s (limbs %x)", PE(e).BigInt(&z).String(), rawLimbsOf(e))
}

func checkFields(t *testing.T, b *Backend) {
	t.Run("bn254/fp", func(t *testing.T) { checkField[bnfp.Element](t, b, "bn254 fp", fieldBN254Fp, bnfp.Modulus()) })
	t.Run("bn254/fr", func(t *testing.T) { checkField[bnfr.Element](t, b, "bn254 fr", fieldBN254Fr, bnfr.Modulus()) })
	t.Run("bls12-381/fp", func(t *testing.T) { checkField[blsfp.Element](t, b, "bls12-381 fp", fieldBLS12381Fp, blsfp.Modulus()) })
	t.Run("bls12-381/fr", func(t *testing.T) { checkField[blsfr.Element](t, b, "bls12-381 fr", fieldBLS12381Fr, blsfr.Modulus()) })
	t.Run("bls12-377/fp", func(t *testing.T) {
		checkField[b377fp.Element](t, b, "bls12-377 fp", fieldBLS12377Fp, b377fp.Modulus())
	})
	t.Run("bls12-377/fr", func(t *testing.T) {
		checkField[b377fr.Element](t, b, "bls12-377 fr", fieldBLS12377Fr, b377fr.Modulus())
	})
	t.Run("bw6-761/fp", func(t *testing.T) { checkField[bw6fp.Element](t, b, "bw6-761 fp", fieldBW6761Fp, bw6fp.Modulus()) })
	t.Run("bw6-761/fr", func(t *testing.T) { checkField[bw6fr.Element](t, b, "bw6-761 fr", fieldBW6761Fr, bw6fr.Modulus()) })
}

// e2Elem is what the tests need of a gnark-crypto E2 over the base field
// element Fp: Fp[u]/(u² + 1) on BLS12-381 and BN254, Fp[u]/(u² + 5) on
// BLS12-377.
type e2Elem[E, Fp any] interface {
	*E
	Mul(x, y *E) *E
	Add(x, y *E) *E
	Sub(x, y *E) *E
	Neg(x *E) *E
	Square(x *E) *E
}

// checkE2 runs g16_mont_op's Fp2 operations (fp2.cuh, over the curve's Fp:
// the plain and the lazily reduced products) on the host (b nil) or the
// device against gnark-crypto's E2: every pair of E2 values whose halves are
// adversarial Fp values (so that the sums a0 + a1 the lazy products form
// come near 2p, and the differences they bias near ±2p²), and random pairs.
func checkE2[E comparable, PE e2Elem[E, Fp], Fp comparable, PF montElem[Fp]](t *testing.T, b *Backend, name string, field int, p *big.Int) {
	rng := testRand(t)
	k := 1000
	if testing.Short() {
		k = 100
	}
	base := fieldValues[Fp, PF](rng, p, 2*k)
	fixed := len(base) - 2*k
	pair := func(a0, a1 Fp) E {
		var e E
		h := (*[2]Fp)(unsafe.Pointer(&e))
		h[0], h[1] = a0, a1
		return e
	}
	// Adversarial E2 values: (x, y) for x, y among the adversarial Fp values
	// that matter most for the bounds (0, 1, p − 1, p − 2, (p ± 1)/2, and the
	// limb patterns near p), then random ones.
	picks := []int{0, 1, 4, 5, 7, 8, 9, fixed - 8, fixed - 6, fixed - 2}
	var v []E
	for _, i := range picks {
		for _, j := range picks {
			v = append(v, pair(base[i], base[j]))
		}
	}
	adv := len(v)
	for i := 0; i < k; i++ {
		v = append(v, pair(base[fixed+2*i], base[fixed+2*i+1]))
	}
	var x, y []E
	for i := 0; i < adv; i++ {
		for j := 0; j < adv; j += 3 {
			x, y = append(x, v[i]), append(y, v[j])
		}
	}
	for i := adv; i < len(v); i++ {
		x, y = append(x, v[i]), append(y, v[rng.IntN(len(v))])
	}
	for _, o := range []struct {
		name  string
		op    int
		unary bool
		ref   func(r, x, y *E)
	}{
		{"mul", montMul, false, func(r, x, y *E) { PE(r).Mul(x, y) }},
		{"mul_lazy", montMulLazy, false, func(r, x, y *E) { PE(r).Mul(x, y) }},
		{"mul_sub_lazy (a·b − b·b)", montMulSubLazy, false, func(r, x, y *E) {
			var bb E
			PE(&bb).Square(y)
			PE(r).Mul(x, y)
			PE(r).Sub(r, &bb)
		}},
		{"add", montAdd, false, func(r, x, y *E) { PE(r).Add(x, y) }},
		{"sub", montSub, false, func(r, x, y *E) { PE(r).Sub(x, y) }},
		{"neg", montNeg, true, func(r, a, _ *E) { PE(r).Neg(a) }},
		{"sqr", montSqr, true, func(r, a, _ *E) { PE(r).Square(a) }},
	} {
		a, c := x, y
		if o.unary {
			a, c = v, v
		}
		out := make([]E, len(a))
		if err := montOp(b, field, o.op, backend.AsBytes(out), backend.AsBytes(a), backend.AsBytes(c), len(a)); err != nil {
			t.Fatalf("%s %s: %v", name, o.name, err)
		}
		bad := 0
		for i := range out {
			var want E
			o.ref(&want, &a[i], &c[i])
			if out[i] != want {
				if bad++; bad <= 3 {
					t.Errorf("%s %s(%v, %v) = %v, want %v", name, o.name, a[i], c[i], out[i], want)
				}
			}
		}
		if bad > 0 {
			t.Errorf("%s %s: %d of %d results differ from gnark-crypto", name, o.name, bad, len(out))
		}
	}
	t.Logf("%s: %d values (%d adversarial, %d random), %d operand pairs", name, len(v), adv, k, len(x))
}

func checkE2s(t *testing.T, b *Backend) {
	t.Run("bn254/e2", func(t *testing.T) {
		checkE2[bn254.E2, *bn254.E2, bnfp.Element](t, b, "bn254 e2", fieldBN254E2, bnfp.Modulus())
	})
	t.Run("bls12-381/e2", func(t *testing.T) {
		checkE2[bls12381.E2, *bls12381.E2, blsfp.Element](t, b, "bls12-381 e2", fieldBLS12381E2, blsfp.Modulus())
	})
	t.Run("bls12-377/e2", func(t *testing.T) {
		checkE2[bls12377.E2, *bls12377.E2, b377fp.Element](t, b, "bls12-377 e2 (u² = −5)", fieldBLS12377E2, b377fp.Modulus())
	})
}

func TestFieldsHost(t *testing.T) { checkFields(t, nil) }

func TestE2Host(t *testing.T) { checkE2s(t, nil) }

func TestE2Device(t *testing.T) { checkE2s(t, newTestBackend(t)) }

func TestFieldsDevice(t *testing.T) { checkFields(t, newTestBackend(t)) }

// TestMontOpRejectsBadArguments: an unknown field or operation is an
// error naming it.
func TestMontOpRejectsBadArguments(t *testing.T) {
	x := make([]bnfp.Element, 2)
	for _, c := range []struct{ field, op int }{
		{-1, montMul}, {fieldBW6761Fr + 1, montMul}, {fieldBN254Fp, -1}, {fieldBN254Fp, montMulLazy}, {fieldBN254Fr, montMulSubLazy + 1},
		{fieldBN254E2, montInv}, {fieldBLS12381E2, montFrom}, {fieldBW6761Fp, montMulLazy},
	} {
		if err := montOp(nil, c.field, c.op, backend.AsBytes(x), backend.AsBytes(x), backend.AsBytes(x), len(x)); err == nil {
			t.Errorf("field %d op %d: no error", c.field, c.op)
		}
	}
}
