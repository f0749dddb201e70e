package bls12381

import (
	"math/big"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	cs "github.com/consensys/gnark/constraint/bls12-381"
)

// countCalldata builds a count hint's calldata: size, hint ID, nbInputs,
// then (nbTable, 1, the entries, the queries) as expressions, then the
// outputs. A nil entry is a wire term (not constant); each query is a wire.
func countCalldata(r *cs.R1CS, entries []*big.Int, nbQueries int) []uint32 {
	coeff := func(v *big.Int) uint32 {
		var e fr.Element
		e.SetBigInt(v)
		r.Coefficients = append(r.Coefficients, e)
		return uint32(len(r.Coefficients) - 1)
	}
	cd := []uint32{0, 0, uint32(2 + len(entries) + nbQueries)}
	cd = append(cd, 1, coeff(big.NewInt(int64(len(entries)))), constantWire)
	cd = append(cd, 1, coeff(big.NewInt(1)), constantWire)
	for i, v := range entries {
		if v == nil {
			cd = append(cd, 1, coeff(big.NewInt(1)), uint32(100+i))
			continue
		}
		cd = append(cd, 1, coeff(v), constantWire)
	}
	for i := 0; i < nbQueries; i++ {
		cd = append(cd, 1, coeff(big.NewInt(1)), uint32(200+i))
	}
	return append(cd, 300, 300+uint32(len(entries)))
}

// TestConstTable: a count hint's constant table is indexed by the low bits
// of its values when those differ, by value otherwise, and not at all when
// an entry is a wire or two are equal.
func TestConstTable(t *testing.T) {
	big70 := new(big.Int).Lsh(big.NewInt(1), 70)
	b := big.NewInt
	for _, tc := range []struct {
		name    string
		entries []*big.Int
		dense   bool
		none    bool
	}{
		{"dense", []*big.Int{b(2), b(0), b(7)}, true, false},
		{"by value", []*big.Int{b(5), big70, b(3)}, false, false},
		{"low bits", []*big.Int{b(5), b(1 << 40), b(1<<40 + 2)}, true, false},
		{"low bits equal", []*big.Int{b(1), b(1 + 1<<20)}, false, false},
		{"a wire", []*big.Int{b(5), nil}, false, true},
		{"duplicate", []*big.Int{b(5), b(1), b(5)}, false, true},
		{"duplicate by value", []*big.Int{big70, b(1), big70}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Solver{r1cs: &cs.R1CS{}}
			cd := countCalldata(s.r1cs, tc.entries, 2)
			tab := s.constTableOf(cd)
			if tc.none {
				if tab != nil {
					t.Fatal("indexed a table that is not constant and distinct")
				}
				return
			}
			if tab == nil {
				t.Fatal("not indexed")
			}
			if (tab.pos != nil) != tc.dense {
				t.Fatalf("dense %v, want %v", tab.pos != nil, tc.dense)
			}
			if tab.nbTable != len(tc.entries) || tab.end != len(cd)-2-2*3 {
				t.Fatalf("nbTable %d, end %d", tab.nbTable, tab.end)
			}
			for i, v := range tc.entries {
				var e fr.Element
				e.SetBigInt(v)
				if r, ok := tab.row(&e); !ok || int(r) != i {
					t.Fatalf("row of %s: %d, %v; want %d", v, r, ok, i)
				}
			}
			for _, v := range []*big.Int{b(4), b(1 << 41), b(1<<41 + 5), b(1<<40 + 1), new(big.Int).Add(big70, b(1))} {
				var e fr.Element
				e.SetBigInt(v)
				if r, ok := tab.row(&e); ok {
					t.Fatalf("row of %s (not in the table): %d", v, r)
				}
			}
		})
	}
}
