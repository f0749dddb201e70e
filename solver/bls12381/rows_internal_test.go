package bls12381

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark/constraint"
	cs "github.com/consensys/gnark/constraint/bls12-381"
)

// TestEvalRowGroups: evalRow gives Σ runs + Σ coefficient·value for rows
// as written (pairs in any order) and as grouped by groupPairs, on random
// values (with 0, 1 and r−1) and coefficients: ±k for k below 2³⁰, at 2³⁰
// and near 2⁶⁴, the same integer under two IDs, 2⁶⁴ and random elements
// (not small), 0; rows of mixed groups, of one group only (one sign, both
// signs), of one term, and of 2¹⁷ terms of ±(2⁶⁴−1) under two IDs each
// (one group: its values summed, one wide term).
func TestEvalRowGroups(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 7))
	r := &cs.R1CS{}
	r.Coefficients = make([]fr.Element, constraint.CoeffIdMinusOne+1)
	r.Coefficients[constraint.CoeffIdOne].SetOne()
	r.Coefficients[constraint.CoeffIdTwo].SetUint64(2)
	r.Coefficients[constraint.CoeffIdMinusOne].SetInt64(-1)
	var two64 big.Int
	two64.Lsh(big.NewInt(1), 64)
	for _, k := range []uint64{3, 6144, 1<<30 - 1, 1 << 30, 1<<40 + 7, ^uint64(0), ^uint64(0) - 1} {
		var c fr.Element
		c.SetUint64(k)
		r.Coefficients = append(r.Coefficients, c)
		c.Neg(&c)
		r.Coefficients = append(r.Coefficients, c)
	}
	// the same integers again under other IDs
	for _, k := range []uint64{3, 1 << 30, ^uint64(0)} {
		var c fr.Element
		c.SetUint64(k)
		r.Coefficients = append(r.Coefficients, c)
		c.Neg(&c)
		r.Coefficients = append(r.Coefficients, c)
	}
	var c fr.Element
	c.SetBigInt(&two64)
	r.Coefficients = append(r.Coefficients, c)
	for range 3 {
		c.SetRandom()
		r.Coefficients = append(r.Coefficients, c)
	}
	nbCoeffs := uint32(len(r.Coefficients))
	small := smallCoeffsOf(r.Coefficients)
	key := groupKeys(small)

	const nbWires = 1000
	st := &state{s: &Solver{r1cs: r, nbWires: nbWires, coeffSmall: small}, values: make([]fr.Element, nbWires)}
	var rMinus1 fr.Element
	rMinus1.SetInt64(-1)
	for w := range st.values {
		switch rng.IntN(6) {
		case 0:
		case 1:
			st.values[w].SetOne()
		case 2:
			st.values[w] = rMinus1
		default:
			st.values[w].SetUint64(rng.Uint64())
			st.values[w].Mul(&st.values[w], &r.Coefficients[nbCoeffs-1])
		}
	}

	var buf []uint64
	check := func(name string, row []uint32) {
		t.Helper()
		nPlus, nMinus := row[0]&rowRun, row[0]>>16
		var want, p fr.Element
		for _, w := range row[1 : 1+nPlus] {
			want.Add(&want, &st.values[w])
		}
		for _, w := range row[1+nPlus : 1+nPlus+nMinus] {
			want.Sub(&want, &st.values[w])
		}
		rest := row[1+nPlus+nMinus:]
		for k := 0; k+1 < len(rest); k += 2 {
			p.Mul(&r.Coefficients[rest[k]], &st.values[rest[k+1]])
			want.Add(&want, &p)
		}
		var got fr.Element
		st.evalRow(&got, row)
		if !got.Equal(&want) {
			t.Fatalf("%s, %d pairs as written: got %s, want %s", name, len(rest)/2, got.String(), want.String())
		}
		buf = groupPairs(rest, key, buf)
		st.evalRow(&got, row)
		if !got.Equal(&want) {
			t.Fatalf("%s, %d pairs grouped: got %s, want %s", name, len(rest)/2, got.String(), want.String())
		}
	}
	row := func(nPlus, nMinus, nPairs int, cid func() uint32) []uint32 {
		row := []uint32{uint32(nPlus) | uint32(nMinus)<<16}
		for range nPlus + nMinus {
			row = append(row, rng.Uint32N(nbWires))
		}
		for range nPairs {
			row = append(row, cid(), rng.Uint32N(nbWires))
		}
		return row
	}
	anyCid := func() uint32 { return rng.Uint32N(nbCoeffs) }
	rounds := 2000
	if testing.Short() {
		rounds = 300
	}
	for range rounds {
		check("mixed", row(rng.IntN(3), rng.IntN(3), 1+rng.IntN(40), anyCid))
		// one group: the IDs of one integer k, one sign or both
		base := constraint.CoeffIdMinusOne + 1 + 2*rng.Uint32N(7)
		check("one group, one sign", row(0, 0, 1+rng.IntN(20), func() uint32 { return base }))
		check("one group, both signs", row(rng.IntN(2), 0, 1+rng.IntN(20), func() uint32 { return base + rng.Uint32N(2) }))
		// 3, 2³⁰ and 2⁶⁴−1 under two IDs each for each sign
		dup := [][4]uint32{{4, 5, 18, 19}, {10, 11, 20, 21}, {14, 15, 22, 23}}[rng.IntN(3)]
		check("one integer under two IDs", row(0, 0, 2+rng.IntN(20), func() uint32 { return dup[rng.IntN(4)] }))
	}
	// 2¹⁷ terms of 2⁶⁴−1 and −(2⁶⁴−1), each ID twice
	check("2¹⁷ terms", row(0, 0, 1<<17, func() uint32 { return []uint32{14, 15, 22, 23}[rng.IntN(4)] }))
}
