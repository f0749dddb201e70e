package bls12381

import (
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark/constraint"
)

// An R1C's rows L, R and O are compiled by New into Solver.terms, each row
// as
//
//	n₊ | n₋<<16,  n₊ wires of coefficient 1,  n₋ wires of coefficient −1,
//	then (coefficient ID, wire) pairs for the other terms
//
// so that a solve adds and subtracts runs of values with no test per term
// and multiplies only by the coefficients other than ±1. Terms of
// coefficient 0 and the R1C's unknown term (its wire is unsolved when the
// row is evaluated: it would add 0) are left out. A row of 2¹⁶ or more
// terms of one sign keeps the rest of them as pairs.

const rowRun = 1<<16 - 1 // the most wires of one sign a row's runs hold

// rowBuf is compileRows' scratch.
type rowBuf struct{ plus, minus, rest []uint32 }

// compileRows appends o's rows to s.terms, from its (coefficient ID, wire)
// pairs, L's nL first, then R's nR, then O's, and sets o.t, o.nL, o.nR and
// o.nO; buf holds the runs while a row is sorted.
func (s *Solver) compileRows(o *op, pairs []uint32, nL, nR uint32, buf *rowBuf) {
	o.t = uint64(len(s.terms))
	bounds := [4]uint32{0, 2 * nL, 2 * (nL + nR), uint32(len(pairs))}
	var n [3]uint32
	for row := range 3 {
		start := len(s.terms)
		s.terms = append(s.terms, 0)
		plus, minus, rest := buf.plus[:0], buf.minus[:0], buf.rest[:0]
		p := pairs[bounds[row]:bounds[row+1]]
		for k := 0; k+1 < len(p); k += 2 {
			cid, vid := p[k], p[k+1]
			switch {
			case cid == constraint.CoeffIdZero:
			case o.loc != locNone && vid == o.wire:
			case cid == constraint.CoeffIdOne && len(plus) < rowRun:
				plus = append(plus, vid)
			case cid == constraint.CoeffIdMinusOne && len(minus) < rowRun:
				minus = append(minus, vid)
			default:
				rest = append(rest, cid, vid)
			}
		}
		s.terms[start] = uint32(len(plus)) | uint32(len(minus))<<16
		s.terms = append(append(append(s.terms, plus...), minus...), rest...)
		buf.plus, buf.minus, buf.rest = plus, minus, rest
		n[row] = uint32(len(s.terms) - start)
	}
	o.nL, o.nR, o.nO = n[0], n[1], n[2]
}

// evalRow sets r to the sum of a compiled row's terms.
func (st *state) evalRow(r *fr.Element, row []uint32) {
	values := st.values
	nPlus, nMinus := row[0]&rowRun, row[0]>>16
	var acc, neg fr.Element
	for _, w := range row[1 : 1+nPlus] {
		acc.Add(&acc, &values[w])
	}
	if nMinus > 0 {
		for _, w := range row[1+nPlus : 1+nPlus+nMinus] {
			neg.Add(&neg, &values[w])
		}
		acc.Sub(&acc, &neg)
	}
	rest := row[1+nPlus+nMinus:]
	if len(rest) > 0 {
		coeffs := st.s.r1cs.Coefficients
		var t fr.Element
		for k := 0; k+1 < len(rest); k += 2 {
			cid, w := rest[k], rest[k+1]
			switch cid {
			case constraint.CoeffIdOne:
				acc.Add(&acc, &values[w])
			case constraint.CoeffIdTwo:
				t.Double(&values[w])
				acc.Add(&acc, &t)
			case constraint.CoeffIdMinusOne:
				acc.Sub(&acc, &values[w])
			default:
				t.Mul(&coeffs[cid], &values[w])
				acc.Add(&acc, &t)
			}
		}
	}
	*r = acc
}

// rowWires calls visit for each wire of an R1C's compiled rows t.
func (s *Solver) rowWires(t []uint32, o *op, visit func(uint32)) {
	for _, row := range [3][]uint32{t[:o.nL], t[o.nL : o.nL+o.nR], t[o.nL+o.nR:]} {
		nRuns := row[0]&rowRun + row[0]>>16
		for _, w := range row[1 : 1+nRuns] {
			visit(w)
		}
		rest := row[1+nRuns:]
		for k := 1; k < len(rest); k += 2 {
			visit(rest[k])
		}
	}
}
