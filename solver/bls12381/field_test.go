package bls12381

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark/constraint"
	cs "github.com/consensys/gnark/constraint/bls12-381"
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

// TestReadBits: readBits gives the canonical words of a linear expression,
// whether its one wire was set from a word (noted, below 2³²−1, or not
// noted, above) or from an element, and for expressions of several terms,
// other coefficients or a constant (word sums below 2⁶⁴ and above), and
// for constants below, at and above 2³²−1.
func TestReadBits(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 4))
	r := &cs.R1CS{}
	r.Coefficients = make([]fr.Element, constraint.CoeffIdMinusOne+1)
	r.Coefficients[constraint.CoeffIdOne].SetOne()
	r.Coefficients[constraint.CoeffIdTwo].SetUint64(2)
	r.Coefficients[constraint.CoeffIdMinusOne].SetOne()
	r.Coefficients[constraint.CoeffIdMinusOne].Neg(&r.Coefficients[constraint.CoeffIdMinusOne])
	var seven fr.Element
	seven.SetUint64(7)
	r.Coefficients = append(r.Coefficients, seven)
	cidSeven := uint32(len(r.Coefficients) - 1)
	// constants about the noted words' limit, and a random one
	var limit, above, random fr.Element
	limit.SetUint64(1<<32 - 2)
	above.SetUint64(1<<32 - 1)
	random.SetRandom()
	r.Coefficients = append(r.Coefficients, limit, above, random)
	cidLimit := uint32(len(r.Coefficients) - 3)

	const nbWires = 64
	st := &state{s: &Solver{r1cs: r, nbWires: nbWires, coeffWords: wordsOf(r.Coefficients, smallCoeffsOf(r.Coefficients)), coeffSmall: smallCoeffsOf(r.Coefficients)}, values: make([]fr.Element, nbWires), solved: make([]bool, nbWires), words: make([]uint32, nbWires)}
	for w := 1; w < nbWires; w++ {
		var x uint64
		switch w % 4 {
		case 0: // a random element
			var e fr.Element
			e.SetRandom()
			st.set(w, &e)
			if st.words[w] != 0 {
				t.Fatalf("wire %d set from an element is noted", w)
			}
			continue
		case 1: // a noted word
			x = rng.Uint64() >> (32 + rng.IntN(33))
		case 2: // words about the note's limit
			x = 1<<32 - 3 + uint64(rng.IntN(5)) + uint64(w/8)<<40
		case 3:
			x = rng.Uint64()
		}
		st.setWordAt(w, x)
		if noted := st.words[w] != 0; noted != (x < 1<<32-1) {
			t.Fatalf("word %d noted: %v", x, noted)
		}
	}
	want := func(cd []uint32) [fr.Limbs]uint64 {
		var v fr.Element
		st.read(&v, cd)
		return v.Bits()
	}
	for w := uint32(1); w < nbWires; w++ {
		for _, cd := range [][]uint32{
			{1, constraint.CoeffIdOne, w},
			{1, constraint.CoeffIdMinusOne, w},
			{1, cidSeven, w},
			{2, constraint.CoeffIdOne, w, constraint.CoeffIdOne, (w + 1) % nbWires},
			{2, constraint.CoeffIdOne, w, cidSeven, constantWire},
			{1, cidSeven, constantWire},
			{1, constraint.CoeffIdMinusOne, constantWire},
			{1, cidLimit, constantWire},
			{1, cidLimit + 1, constantWire},
			{1, cidLimit + 2, constantWire},
			{2, cidSeven, w, cidSeven, (w + 1) % nbWires},
			{3, cidLimit, w, cidLimit, (w + 1) % nbWires, cidLimit, (w + 2) % nbWires},
			{2, cidLimit, w, cidLimit + 1, (w + 1) % nbWires},
		} {
			got, n := st.readBits(cd)
			if n != len(cd) {
				t.Fatalf("%v: read %d words, want %d", cd, n, len(cd))
			}
			if w := want(cd); got != w {
				t.Fatalf("%v: %x, want %x", cd, got, w)
			}
		}
	}
}
