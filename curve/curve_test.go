package curve_test

import (
	"math/big"
	"strings"
	"testing"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc"
	bls12377 "github.com/consensys/gnark-crypto/ecc/bls12-377"
	bls377fp "github.com/consensys/gnark-crypto/ecc/bls12-377/fp"
	bls377fr "github.com/consensys/gnark-crypto/ecc/bls12-377/fr"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	blsfp "github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
	blsfr "github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark-crypto/ecc/bn254"
	bnfp "github.com/consensys/gnark-crypto/ecc/bn254/fp"
	bnfr "github.com/consensys/gnark-crypto/ecc/bn254/fr"
	bw6761 "github.com/consensys/gnark-crypto/ecc/bw6-761"
	bw6fp "github.com/consensys/gnark-crypto/ecc/bw6-761/fp"
	bw6fr "github.com/consensys/gnark-crypto/ecc/bw6-761/fr"

	"github.com/g16prover/g16/curve"
)

// TestTableMatchesGnarkCrypto checks every size in the table against the
// gnark-crypto types it describes.
func TestTableMatchesGnarkCrypto(t *testing.T) {
	type sizes struct {
		fr, fp, g1a, g2a, g1j, g2j int64
		r                          *big.Int
	}
	want := map[ecc.ID]sizes{
		ecc.BN254: {
			int64(unsafe.Sizeof(bnfr.Element{})), int64(unsafe.Sizeof(bnfp.Element{})),
			int64(unsafe.Sizeof(bn254.G1Affine{})), int64(unsafe.Sizeof(bn254.G2Affine{})),
			int64(unsafe.Sizeof(bn254.G1Jac{})), int64(unsafe.Sizeof(bn254.G2Jac{})), bnfr.Modulus(),
		},
		ecc.BLS12_381: {
			int64(unsafe.Sizeof(blsfr.Element{})), int64(unsafe.Sizeof(blsfp.Element{})),
			int64(unsafe.Sizeof(bls12381.G1Affine{})), int64(unsafe.Sizeof(bls12381.G2Affine{})),
			int64(unsafe.Sizeof(bls12381.G1Jac{})), int64(unsafe.Sizeof(bls12381.G2Jac{})), blsfr.Modulus(),
		},
		ecc.BLS12_377: {
			int64(unsafe.Sizeof(bls377fr.Element{})), int64(unsafe.Sizeof(bls377fp.Element{})),
			int64(unsafe.Sizeof(bls12377.G1Affine{})), int64(unsafe.Sizeof(bls12377.G2Affine{})),
			int64(unsafe.Sizeof(bls12377.G1Jac{})), int64(unsafe.Sizeof(bls12377.G2Jac{})), bls377fr.Modulus(),
		},
		ecc.BW6_761: {
			int64(unsafe.Sizeof(bw6fr.Element{})), int64(unsafe.Sizeof(bw6fp.Element{})),
			int64(unsafe.Sizeof(bw6761.G1Affine{})), int64(unsafe.Sizeof(bw6761.G2Affine{})),
			int64(unsafe.Sizeof(bw6761.G1Jac{})), int64(unsafe.Sizeof(bw6761.G2Jac{})), bw6fr.Modulus(),
		},
	}
	if len(curve.Supported()) != len(want) {
		t.Fatalf("Supported() = %v; the test knows %d curves", curve.Supported(), len(want))
	}
	for _, id := range curve.Supported() {
		p := curve.Must(id)
		w, ok := want[id]
		if !ok {
			t.Fatalf("%s: no gnark-crypto sizes in the test", p.Name)
		}
		got := sizes{p.FrBytes, p.FpBytes, p.G1AffineBytes, p.G2AffineBytes, p.G1JacBytes, p.G2JacBytes, nil}
		w2 := w
		w2.r = nil
		if got != w2 {
			t.Errorf("%s: table %+v, gnark-crypto %+v", p.Name, got, w2)
		}
		if p.FrBits != w.r.BitLen() {
			t.Errorf("%s: FrBits %d, r has %d bits", p.Name, p.FrBits, w.r.BitLen())
		}
		if p.Name != curve.Name(id) || p.Name != strings.ReplaceAll(id.String(), "_", "-") {
			t.Errorf("%s: name differs from gnark's %q", p.Name, id.String())
		}
	}
}

func TestGetAndParse(t *testing.T) {
	for _, id := range curve.Supported() {
		got, err := curve.Parse(strings.ToUpper(curve.Must(id).Name))
		if err != nil || got != id {
			t.Errorf("Parse(%q) = %v, %v", strings.ToUpper(curve.Must(id).Name), got, err)
		}
	}
	for s, want := range map[string]ecc.ID{
		"bls12_381": ecc.BLS12_381, "bls12-377": ecc.BLS12_377, "bls12_377": ecc.BLS12_377, "BLS12-377": ecc.BLS12_377, " bn254 ": ecc.BN254,
		"bw6-761": ecc.BW6_761, "bw6_761": ecc.BW6_761, "BW6-761": ecc.BW6_761,
	} {
		if id, err := curve.Parse(s); err != nil || id != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", s, id, err, want)
		}
	}
	for _, bad := range []string{"", "secp256k1", "bls12-3811", "bls12-37", "bls12377", "bw6761"} {
		if _, err := curve.Parse(bad); err == nil || !strings.Contains(err.Error(), "supported: ") {
			t.Errorf("Parse(%q): err %v, want one listing the supported curves", bad, err)
		}
	}
	_, err := curve.Get(ecc.BW6_633)
	if err == nil || !strings.Contains(err.Error(), "bw6-633") || !strings.Contains(err.Error(), "bw6-761") {
		t.Errorf("Get(BW6_633): %v, want an error naming bw6-633 and the supported curves", err)
	}
	if got := curve.Name(ecc.ID(999)); got != "curve(999)" {
		t.Errorf("Name(999) = %q", got)
	}
	if curve.IsSupported(ecc.UNKNOWN) {
		t.Error("UNKNOWN reported supported")
	}
}
