package bls12381

import (
	"fmt"
	"io"
	"math/big"
	"slices"

	"github.com/g16prover/g16/internal/testvectors/internal/suite"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr/fft"
)

// nttShift is the coset shift of the record of size 2^logN: gnark's
// default (fft.GeneratorFullMultiplicativeGroup, what the prover uses) for even
// logN, a random element for odd logN.
func nttShift(logN int, rng io.Reader) fr.Element {
	if logN%2 == 0 {
		return fft.GeneratorFullMultiplicativeGroup()
	}
	return randomElement(rng)
}

func nttRecord(logN int) (NTT, error) {
	name := fmt.Sprintf("n=2^%d", logN)
	rng := suite.Stream("ntt/" + name)
	n := 1 << logN
	rec := NTT{Name: name, LogN: logN}
	rec.X = randomElements(rng, n)
	rec.Shift = nttShift(logN, rng)

	plain := fft.NewDomain(uint64(n))
	coset := fft.NewDomain(uint64(n), fft.WithShift(rec.Shift))

	// Forward DIF: natural in, bit-reversed out.
	rec.Plain = slices.Clone(rec.X)
	plain.FFT(rec.Plain, fft.DIF)
	fft.BitReverse(rec.Plain)
	rec.Coset = slices.Clone(rec.X)
	coset.FFT(rec.Coset, fft.DIF, fft.OnCoset())
	fft.BitReverse(rec.Coset)

	// The other three orders must agree with these, by gnark-crypto itself.
	for _, v := range []struct {
		d     *fft.Domain
		y     []fr.Element
		extra []fft.Option
		what  string
	}{{plain, rec.Plain, nil, "plain"}, {coset, rec.Coset, []fft.Option{fft.OnCoset()}, "coset"}} {
		if err := checkNTTOrders(v.d, rec.X, v.y, v.extra); err != nil {
			return rec, fmt.Errorf("NTT %s %s: %w", name, v.what, err)
		}
	}
	// And with the definition, where O(n²) is cheap.
	if logN <= 6 {
		if err := checkNaiveDFT(rec.X, rec.Plain, plain.Generator, nil); err != nil {
			return rec, fmt.Errorf("NTT %s plain: %w", name, err)
		}
		if err := checkNaiveDFT(rec.X, rec.Coset, plain.Generator, &rec.Shift); err != nil {
			return rec, fmt.Errorf("NTT %s coset: %w", name, err)
		}
	}
	return rec, nil
}

// checkNTTOrders checks, with gnark-crypto, that y = DFT(x) (natural order
// both) is what the DIT forward and both inverse variants give.
func checkNTTOrders(d *fft.Domain, x, y []fr.Element, opts []fft.Option) error {
	xr := slices.Clone(x)
	fft.BitReverse(xr)
	yr := slices.Clone(y)
	fft.BitReverse(yr)

	t := slices.Clone(xr)
	d.FFT(t, fft.DIT, opts...)
	if !slices.Equal(t, y) {
		return fmt.Errorf("forward DIT of bit-reversed input disagrees with forward DIF")
	}
	t = slices.Clone(y)
	d.FFTInverse(t, fft.DIF, opts...)
	if !slices.Equal(t, xr) {
		return fmt.Errorf("inverse DIF does not give back the bit-reversed input")
	}
	t = slices.Clone(yr)
	d.FFTInverse(t, fft.DIT, opts...)
	if !slices.Equal(t, x) {
		return fmt.Errorf("inverse DIT does not give back the input")
	}
	return nil
}

// checkNaiveDFT checks y_j = Σ_i x_i (shift^i) ω^{ij} term by term.
func checkNaiveDFT(x, y []fr.Element, omega fr.Element, shift *fr.Element) error {
	n := len(x)
	for j := range n {
		var wj, acc, pow, t fr.Element
		wj.Exp(omega, big.NewInt(int64(j)))
		pow.SetOne()
		for i := range n {
			t.Mul(&x[i], &pow)
			if shift != nil {
				var s fr.Element
				s.Exp(*shift, big.NewInt(int64(i)))
				t.Mul(&t, &s)
			}
			acc.Add(&acc, &t)
			pow.Mul(&pow, &wj)
		}
		if acc != y[j] {
			return fmt.Errorf("output %d disagrees with the naive DFT", j)
		}
	}
	return nil
}

func writeNTT(w io.Writer) error {
	var recs []NTT
	for _, k := range sizes.NTTLogs {
		rec, err := nttRecord(k)
		if err != nil {
			return err
		}
		recs = append(recs, rec)
	}
	return WriteNTT(w, recs)
}

// hRecord builds a quotient vector. With satisfied set, A·B = C on the
// first n−1 points (like a solved R1CS: constraints then zero padding), so
// H is the true quotient of degree ≤ n−2; otherwise A, B, C are random and
// H is what the prover's formula gives.
func hRecord(logN int, satisfied bool) (H, error) {
	n := 1 << logN
	name := fmt.Sprintf("n=2^%d", logN)
	if !satisfied {
		name += "/random"
	}
	rng := suite.Stream("h/" + name)
	d := fft.NewDomain(uint64(n))
	rec := H{Name: name, LogN: logN, Shift: d.FrMultiplicativeGen}
	rec.A = randomElements(rng, n)
	rec.B = randomElements(rng, n)
	if satisfied {
		m := n - 1 // number of "constraints"; the rest is padding
		rec.C = make([]fr.Element, n)
		for i := range m {
			rec.C[i].Mul(&rec.A[i], &rec.B[i])
		}
		for i := m; i < n; i++ {
			rec.A[i].SetZero()
			rec.B[i].SetZero()
		}
	} else {
		rec.C = randomElements(rng, n)
	}
	rec.H = quotient(d, rec.A, rec.B, rec.C)

	// Check at a random point z: A(z)·B(z) − C(z) = H(z)·(zⁿ − 1), with A,
	// B, C the interpolants of the inputs over the domain. This holds only
	// when H is a true quotient.
	if satisfied {
		z := randomElement(rng)
		ev := func(values []fr.Element, bitReversed bool) fr.Element {
			coeffs := slices.Clone(values)
			if !bitReversed {
				d.FFTInverse(coeffs, fft.DIF)
			}
			fft.BitReverse(coeffs)
			return horner(coeffs, &z)
		}
		az, bz, cz, hz := ev(rec.A, false), ev(rec.B, false), ev(rec.C, false), ev(rec.H, true)
		var lhs, zn, one fr.Element
		lhs.Mul(&az, &bz).Sub(&lhs, &cz)
		one.SetOne()
		zn.Exp(z, big.NewInt(int64(n))).Sub(&zn, &one).Mul(&zn, &hz)
		if lhs != zn {
			return rec, fmt.Errorf("H %s: A·B − C ≠ H·(Xⁿ − 1) at a random point", name)
		}
		hn := slices.Clone(rec.H)
		fft.BitReverse(hn)
		if !hn[n-1].IsZero() {
			return rec, fmt.Errorf("H %s: quotient has degree n−1", name)
		}
	}
	return rec, nil
}

// quotient computes H as gnark's prover does (computeH in
// gnark/backend/groth16/bls12-381/prove.go), on copies of its inputs:
//
//	a, b, c ← FFTInverse(·, DIF)          coefficients, bit-reversed
//	a, b, c ← FFT(·, DIT, OnCoset)        values on g·⟨ω⟩, natural order
//	a ← (a·b − c)·(gⁿ − 1)⁻¹              Z(X) = Xⁿ − 1 is gⁿ − 1 on the coset
//	a ← FFTInverse(a, DIF, OnCoset)       H's coefficients, bit-reversed
func quotient(d *fft.Domain, a0, b0, c0 []fr.Element) []fr.Element {
	a, b, c := slices.Clone(a0), slices.Clone(b0), slices.Clone(c0)
	for _, v := range [][]fr.Element{a, b, c} {
		d.FFTInverse(v, fft.DIF)
		d.FFT(v, fft.DIT, fft.OnCoset())
	}
	var zInv, one fr.Element
	one.SetOne()
	zInv.Exp(d.FrMultiplicativeGen, big.NewInt(int64(d.Cardinality))).Sub(&zInv, &one).Inverse(&zInv)
	for i := range a {
		a[i].Mul(&a[i], &b[i]).Sub(&a[i], &c[i]).Mul(&a[i], &zInv)
	}
	d.FFTInverse(a, fft.DIF, fft.OnCoset())
	return a
}

// horner evaluates Σ coeffs[i]·zⁱ.
func horner(coeffs []fr.Element, z *fr.Element) fr.Element {
	var acc fr.Element
	for i := len(coeffs) - 1; i >= 0; i-- {
		acc.Mul(&acc, z).Add(&acc, &coeffs[i])
	}
	return acc
}

func writeH(w io.Writer) error {
	var recs []H
	for _, k := range sizes.HLogs {
		rec, err := hRecord(k, true)
		if err != nil {
			return err
		}
		recs = append(recs, rec)
	}
	rec, err := hRecord(6, false)
	if err != nil {
		return err
	}
	recs = append(recs, rec)
	return WriteH(w, recs)
}
