package lattice

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/algebra/lattice"
	bls381fr "github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	bn254fr "github.com/consensys/gnark-crypto/ecc/bn254/fr"
	secpfr "github.com/consensys/gnark-crypto/ecc/secp256k1/fr"
)

// TestRationalReconstructExt compares rationalReconstructExt with
// gnark-crypto's on random scalars and edge cases, for the moduli and
// eigenvalues of the GLV curves gnark's sw_emulated uses, and on random λ.
func TestRationalReconstructExt(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 7))
	type field struct {
		name      string
		r, lambda *big.Int
	}
	fields := []field{
		{"secp256k1", secpfr.Modulus(), mustHex("5363ad4cc05c30e0a5261c028812645a122e22ea20816678df02967c1b23bd72")},
		{"bn254", bn254fr.Modulus(), mustHex("b3c4d79d41a917585bfc41088d8daaa78b17ea66b99c90dd")},
		{"bls12-381", bls381fr.Modulus(), mustHex("ac45a4010001a40200000000ffffffff")},
	}
	// gnark-crypto's takes about 0.1 s a call on 2 cores.
	n := 20
	if testing.Short() {
		n = 3
	}
	for _, f := range fields {
		t.Run(f.name, func(t *testing.T) {
			var ks []*big.Int
			rm1 := new(big.Int).Sub(f.r, big.NewInt(1))
			for _, v := range []int64{0, 1, 2, -1, -2} {
				ks = append(ks, new(big.Int).Mod(big.NewInt(v), f.r))
			}
			ks = append(ks, rm1, new(big.Int).Set(f.lambda), new(big.Int).Neg(f.lambda))
			for _, sh := range []uint{63, 64, 65, 127, 128, 129, 191, 192, 255} {
				p := new(big.Int).Lsh(big.NewInt(1), sh)
				ks = append(ks, new(big.Int).Mod(p, f.r), new(big.Int).Mod(new(big.Int).Sub(p, big.NewInt(1)), f.r))
			}
			for i := 0; i < n; i++ {
				ks = append(ks, randBelow(rng, f.r))
			}
			var got [4]big.Int
			for _, k := range ks {
				want := lattice.NewReconstructor(f.r).SetLambda(f.lambda).RationalReconstructExt(k)
				if !RationalReconstructExt(&got, f.r, f.lambda, k) {
					t.Fatalf("k=%s: no result", k)
				}
				for j := range want {
					if got[j].Cmp(want[j]) != 0 {
						t.Fatalf("k=%s: component %d is %s, gnark-crypto's %s", k, j, &got[j], want[j])
					}
				}
			}
		})
	}
	t.Run("random-lambda", func(t *testing.T) {
		r := secpfr.Modulus()
		var got [4]big.Int
		for i := 0; i < max(n/10, 2); i++ {
			lambda, k := randBelow(rng, r), randBelow(rng, r)
			want := lattice.NewReconstructor(r).SetLambda(lambda).RationalReconstructExt(k)
			if !RationalReconstructExt(&got, r, lambda, k) {
				t.Fatalf("λ=%s k=%s: no result", lambda, k)
			}
			for j := range want {
				if got[j].Cmp(want[j]) != 0 {
					t.Fatalf("λ=%s k=%s: component %d is %s, gnark-crypto's %s", lambda, k, j, &got[j], want[j])
				}
			}
		}
	})
}

func mustHex(s string) *big.Int {
	v, ok := new(big.Int).SetString(s, 16)
	if !ok {
		panic("bad hex " + s)
	}
	return v
}

func randBelow(rng *rand.Rand, r *big.Int) *big.Int {
	b := make([]byte, (r.BitLen()+7)/8)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return new(big.Int).Mod(new(big.Int).SetBytes(b), r)
}

func BenchmarkRationalReconstructExt(b *testing.B) {
	r := secpfr.Modulus()
	lambda := mustHex("5363ad4cc05c30e0a5261c028812645a122e22ea20816678df02967c1b23bd72")
	k := randBelow(rand.New(rand.NewPCG(rand.Uint64(), 1)), r)
	var res [4]big.Int
	b.Run("impl=g16", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			RationalReconstructExt(&res, r, lambda, k)
		}
	})
	b.Run("impl=gnark-crypto", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			lattice.NewReconstructor(r).SetLambda(lambda).RationalReconstructExt(k)
		}
	})
}
