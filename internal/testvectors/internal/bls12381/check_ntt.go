package bls12381

import (
	"fmt"
	"math/big"

	"github.com/g16prover/g16/internal/testvectors/internal/suite"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
)

// nttCase is one transform: input, spec, expected output.
type nttCase struct {
	spec    backend.NTTSpec
	in, out []fr.Element
}

// nttVariants expands a record into its eight transforms. With x the input
// and y its transform, both in natural order (rev: bit-reversal):
//
//	forward DIF: x      → rev(y)      inverse DIF: y      → rev(x)
//	forward DIT: rev(x) → y           inverse DIT: rev(y) → x
//
// for y the plain and the coset transform in turn.
func nttVariants(r *NTT) (names []string, cases []nttCase) {
	x, xr := r.X, bitReversed(r.X)
	for _, coset := range []bool{false, true} {
		y, kind := r.Plain, "plain"
		if coset {
			y, kind = r.Coset, "coset"
		}
		yr := bitReversed(y)
		spec := backend.NTTSpec{Curve: ecc.BLS12_381, LogN: r.LogN, Coset: coset}
		if coset {
			spec.CosetShift = scalarOf(r.Shift)
		}
		add := func(dir string, inverse bool, order backend.Order, in, out []fr.Element) {
			s := spec
			s.Inverse, s.Order = inverse, order
			names = append(names, fmt.Sprintf("%s/%s/%s/%v", r.Name, kind, dir, order))
			cases = append(cases, nttCase{spec: s, in: in, out: out})
		}
		add("forward", false, backend.DIF, x, yr)
		add("forward", false, backend.DIT, xr, y)
		add("inverse", true, backend.DIF, y, xr)
		add("inverse", true, backend.DIT, yr, x)
	}
	return names, cases
}

func nttChecks(recs []NTT) []suite.Check {
	var checks []suite.Check
	for i := range recs {
		names, cases := nttVariants(&recs[i])
		for j := range cases {
			c := cases[j]
			checks = append(checks, suite.Check{Group: suite.GroupNTT, Curve: ecc.BLS12_381, Name: names[j], Run: func(b backend.Backend) error {
				got, err := runNTT(b, c.spec, c.in)
				if err != nil {
					return err
				}
				return compareElements(got, c.out)
			}})
		}
	}
	return checks
}

// runNTT transforms a copy of in on b.
func runNTT(b backend.Backend, spec backend.NTTSpec, in []fr.Element) (out []fr.Element, err error) {
	d, err := open(b)
	if err != nil {
		return nil, err
	}
	defer func() { err = d.close(err) }()
	buf, err := d.upload(backend.AsBytes(in))
	if err != nil {
		return nil, err
	}
	if err := b.NTT(d.q, buf, spec); err != nil {
		return nil, fmt.Errorf("NTT: %w", err)
	}
	return d.download(buf, len(in))
}

func hChecks(recs []H) []suite.Check {
	var checks []suite.Check
	for i := range recs {
		r := &recs[i]
		checks = append(checks, suite.Check{Group: suite.GroupH, Curve: ecc.BLS12_381, Name: r.Name, Run: func(b backend.Backend) error {
			got, err := runQuotient(b, r.LogN, r.Shift, r.A, r.B, r.C)
			if err != nil {
				return err
			}
			return compareElements(got, r.H)
		}})
	}
	return checks
}

// runQuotient computes H on b as the prover does: seven NTTs and the
// pointwise step (see H):
//
//	a, b, c ← inverse DIF; then forward DIT on the coset g·⟨ω⟩
//	a ← (a·b − c)·(gⁿ − 1)⁻¹
//	a ← inverse DIF on the coset      (H, bit-reversed)
func runQuotient(b backend.Backend, logN int, shift fr.Element, a, bb, c []fr.Element) (h []fr.Element, err error) {
	d, err := open(b)
	if err != nil {
		return nil, err
	}
	defer func() { err = d.close(err) }()
	var bufs [3]backend.Buffer
	for i, v := range [][]fr.Element{a, bb, c} {
		if bufs[i], err = d.upload(backend.AsBytes(v)); err != nil {
			return nil, err
		}
	}
	toCoset := []backend.NTTSpec{
		{Curve: ecc.BLS12_381, LogN: logN, Inverse: true, Order: backend.DIF},
		{Curve: ecc.BLS12_381, LogN: logN, Order: backend.DIT, Coset: true, CosetShift: backend.ValueBytes(&shift)},
	}
	for i, buf := range bufs {
		for _, s := range toCoset {
			if err := b.NTT(d.q, buf, s); err != nil {
				return nil, fmt.Errorf("NTT %d (%+v): %w", i, s, err)
			}
		}
	}
	n := 1 << logN
	var zInv, one fr.Element
	one.SetOne()
	zInv.Exp(shift, big.NewInt(int64(n))).Sub(&zInv, &one).Inverse(&zInv)
	if err := b.QuotientStep(d.q, ecc.BLS12_381, bufs[0], bufs[1], bufs[2], n, backend.ValueBytes(&zInv)); err != nil {
		return nil, fmt.Errorf("QuotientStep: %w", err)
	}
	back := backend.NTTSpec{Curve: ecc.BLS12_381, LogN: logN, Inverse: true, Order: backend.DIF, Coset: true, CosetShift: backend.ValueBytes(&shift)}
	if err := b.NTT(d.q, bufs[0], back); err != nil {
		return nil, fmt.Errorf("NTT (%+v): %w", back, err)
	}
	return d.download(bufs[0], n)
}

// scalarOf is x's bytes, as the Backend takes a scalar.
func scalarOf(x fr.Element) []byte { return backend.ValueBytes(&x) }
