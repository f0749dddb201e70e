package bls12381

import (
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark/constraint"
)

// chunk solves the ops of list, instructions of one level in rank order,
// in three passes:
//
//  1. every instruction but the R1Cs that divide and the InvZeroHints of
//     non-zero inputs is solved; those R1Cs evaluate their known terms and
//     queue their divisor, those hints their input;
//  2. the queued values are inverted together (Montgomery's trick: one
//     inversion and three multiplications a value);
//  3. the dividing R1Cs and the hints set their output wire.
//
// It stops at the first instruction that fails, sets sc.failAt to its rank
// and returns its error; the divisions queued before it are done.
func (st *state) chunk(list []uint32, sc *scratch) error {
	s := st.s
	sc.pending = sc.pending[:0]
	sc.divisors = sc.divisors[:0]
	sc.invWires, sc.invVals = sc.invWires[:0], sc.invVals[:0]
	for _, i := range list {
		o := &s.ops[i]
		var err error
		switch o.kind {
		case opR1C:
			err = st.r1c(int32(i), o, sc)
		case opHint:
			err = st.hint(o, sc)
		case opBatchInverse:
			st.batchInverse(o, sc)
		case opLookup:
			err = st.lookup(o)
		case opBlueprint:
			err = st.blueprint(o)
		}
		if err != nil {
			sc.failAt = o.rank
			st.divide(sc)
			return err
		}
	}
	st.divide(sc)
	return nil
}

// divide solves the R1Cs queued in sc for division.
func (st *state) divide(sc *scratch) {
	if len(sc.pending) == 0 && len(sc.invWires) == 0 {
		return
	}
	s := st.s
	nR1C := len(sc.pending)
	sc.divisors = append(sc.divisors, sc.invVals...)
	inv := batchInvert(sc.divisors, sc)
	for m, w := range sc.invWires {
		st.set(int(w), &inv[nR1C+m])
	}
	sc.invWires, sc.invVals = sc.invWires[:0], sc.invVals[:0]
	for k, i := range sc.pending {
		o := &s.ops[i]
		a, b, c := &st.a[o.cid], &st.b[o.cid], &st.c[o.cid]
		// the term is c/b − a (unknown in L) or c/a − b (unknown in R), and
		// the row then c/b or c/a: the full evaluation.
		var q, wire fr.Element
		switch {
		case c.IsZero(): // c of 0 or 1 (a log-derivative table's multiplicities): no product
		case c.Equal(&smallLo[1]):
			q = inv[k]
		default:
			q.Mul(c, &inv[k])
		}
		if o.loc == locL {
			wire.Sub(&q, a)
			*a = q
		} else {
			wire.Sub(&q, b)
			*b = q
		}
		st.setTerm(o, &wire)
	}
}

// r1c evaluates one R1C's known terms into its rows of A, B and C and
// solves or checks it, or queues it for division.
func (st *state) r1c(i int32, o *op, sc *scratch) error {
	a, b, c := st.rows(o)
	switch o.loc {
	case locNone:
		return st.check(o, a, b, c)
	case locO:
		// the term is a·b − c, and the row of C then a·b
		var ab, wire fr.Element
		mulBits(&ab, a, b)
		wire.Sub(&ab, c)
		*c = ab
		st.setTerm(o, &wire)
		return nil
	case locL:
		if !b.IsZero() {
			sc.pending = append(sc.pending, i)
			sc.divisors = append(sc.divisors, *b)
			return nil
		}
	case locR:
		if !a.IsZero() {
			sc.pending = append(sc.pending, i)
			sc.divisors = append(sc.divisors, *a)
			return nil
		}
	}
	// the divisor is zero: the wire is set to zero and the constraint checked.
	if err := st.check(o, a, b, c); err != nil {
		return err
	}
	var zero fr.Element
	st.setTerm(o, &zero)
	return nil
}

// rows evaluates an R1C's known terms into its rows of A, B and C and
// returns them.
func (st *state) rows(o *op) (a, b, c *fr.Element) {
	t := st.s.terms[o.t : o.t+uint64(o.nL+o.nR+o.nO)]
	a, b, c = &st.a[o.cid], &st.b[o.cid], &st.c[o.cid]
	st.evalRow(a, t[:o.nL])
	st.evalRow(b, t[o.nL:o.nL+o.nR])
	st.evalRow(c, t[o.nL+o.nR:])
	return a, b, c
}

// mulBits sets z = a·b, with no product when a factor is 0 or 1 (a bit).
func mulBits(z, a, b *fr.Element) {
	switch one := &smallLo[1]; {
	case a.IsZero() || b.IsZero():
		z.SetZero()
	case a.Equal(one):
		*z = *b
	case b.Equal(one):
		*z = *a
	default:
		z.Mul(a, b)
	}
}

// setTerm sets the unknown wire of o from the value of its term
// (coefficient · wire).
func (st *state) setTerm(o *op, term *fr.Element) {
	v := *term
	switch o.coeff {
	case constraint.CoeffIdOne:
	case constraint.CoeffIdMinusOne:
		v.Neg(&v)
	default:
		v.Mul(&v, &st.s.coeffInv[o.coeff])
	}
	st.values[o.wire] = v
	st.solved[o.wire] = true
}

// batchInvert returns the inverses of d (none zero) in scratch memory:
//
//	pᵢ = d₀⋯dᵢ₋₁,  u = (d₀⋯dₙ₋₁)⁻¹,  then from i = n−1 down:
//	dᵢ⁻¹ = pᵢ·u,  u ← u·dᵢ
func batchInvert(d []fr.Element, sc *scratch) []fr.Element {
	n := len(d)
	if cap(sc.inverses) < n {
		sc.inverses = make([]fr.Element, n, 2*n)
	}
	p := sc.inverses[:n]
	var acc fr.Element
	acc.SetOne()
	for i := range d {
		p[i] = acc
		acc.Mul(&acc, &d[i])
	}
	acc.Inverse(&acc)
	for i := n - 1; i >= 0; i-- {
		p[i].Mul(&p[i], &acc)
		acc.Mul(&acc, &d[i])
	}
	return p
}
