package bls12381

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// TestInt256Element: int256.element is z mod q for signed 256-bit z of
// every size, those above q and below −q included (it assumes nothing of
// q's size), against big.Int.
func TestInt256Element(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	q := fr.Modulus()
	for i := 0; i < 2000; i++ {
		var z int256
		bitsLen := 1 + rng.IntN(255) // |z| below 2^255: an int256
		for k := range z {
			z[k] = rng.Uint64()
		}
		// keep bitsLen bits of the magnitude, then negate half of them
		mag := new(big.Int)
		for k := 3; k >= 0; k-- {
			mag.Lsh(mag, 64).Or(mag, new(big.Int).SetUint64(z[k]))
		}
		mag.Rsh(mag, uint(256-bitsLen))
		want := new(big.Int).Set(mag)
		if rng.IntN(2) == 0 {
			want.Neg(want)
		}
		// two's complement words of want
		tc := new(big.Int).Set(want)
		if tc.Sign() < 0 {
			tc.Add(tc, new(big.Int).Lsh(big.NewInt(1), 256))
		}
		words := tc.Bits()
		z = int256{}
		for k := 0; k < len(words) && k < 4; k++ {
			z[k] = uint64(words[k])
		}
		var got fr.Element
		z.element(&got)
		var w fr.Element
		w.SetBigInt(want.Mod(want, q))
		if got != w {
			t.Fatalf("%d bits: element %s, want %s", bitsLen, got.String(), w.String())
		}
	}
}

// TestWordHelpers: zeroFrom, toU64 and fromU64 on random elements.
func TestWordHelpers(t *testing.T) {
	rng := rand.New(rand.NewPCG(rand.Uint64(), 2))
	for i := 0; i < 100; i++ {
		var v fr.Element
		v.SetUint64(rng.Uint64())
		b := v.Bits()
		if !zeroFrom(&b, 1) {
			t.Fatalf("one-word %s: words above the first not zero", v.String())
		}
		v.SetRandom()
		b = v.Bits()
		if zeroFrom(&b, 0) != v.IsZero() {
			t.Fatal("zeroFrom(0) differs from IsZero")
		}
		u := toU64(&v)
		for k := fr.Limbs; k < len(u); k++ {
			if u[k] != 0 {
				t.Fatalf("toU64: word %d set", k)
			}
		}
		if back := fromU64(u); back != v {
			t.Fatal("fromU64(toU64(v)) != v")
		}
	}
	if !limbsNative {
		t.Fatalf("the native field (%d bits) does not hold a %d-bit limb", nativeBits, mulLimbBits)
	}
}

// TestSetWord compares setWord with SetUint64 on the table's edges and on
// random words of every size.
func TestSetWord(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 3))
	xs := []uint64{0, 1, 2, 255, 256, 257, 1<<16 - 1, 1 << 16, 1<<16 + 1, 1<<63 - 1, 1 << 63, ^uint64(0)}
	for range 2000 {
		xs = append(xs, rng.Uint64()>>rng.IntN(64))
	}
	for _, x := range xs {
		var got, want fr.Element
		setWord(&got, x)
		want.SetUint64(x)
		if !got.Equal(&want) {
			t.Fatalf("setWord(%d) = %s, want %s", x, got.String(), want.String())
		}
	}
}
