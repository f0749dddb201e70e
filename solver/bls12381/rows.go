package bls12381

import (
	"runtime"
	"slices"
	"sync"

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
// and multiplies only by the coefficients other than ±1 (and 2), and only
// values other than 0 and 1 (the bits of a decomposition). The pairs are
// in groups (groupKeys): those of one coefficient, or of ±k for a small
// integer k below 2³⁰, side by side, so that a solve sums a group's values
// and multiplies the sum once; the groups of small integers are summed in
// a wide sum (wide.go) reduced once a row. Terms of coefficient 0 and the
// R1C's unknown term (its wire is unsolved when the row is evaluated: it
// would add 0) are left out. A row of 2¹⁶ or more terms of one sign keeps
// the rest of them as pairs.

const rowRun = 1<<16 - 1 // the most wires of one sign a row's runs hold

// rowClass is where a term of an R1C goes in its compiled row, given how
// many of its row's terms went to the runs before it.
func rowClass(o *op, cid, vid uint32, nPlus, nMinus int) int {
	switch {
	case cid == constraint.CoeffIdZero, o.loc != locNone && vid == o.wire:
		return classNone
	case cid == constraint.CoeffIdOne && nPlus < rowRun:
		return classPlus
	case cid == constraint.CoeffIdMinusOne && nMinus < rowRun:
		return classMinus
	}
	return classRest
}

const (
	classNone = iota
	classPlus
	classMinus
	classRest
)

// compileRows compiles the rows of every R1C of s.ops into s.terms and
// sets its t, nL, nR and nO to them. Before, they name its pairs: nL + nR +
// nO (coefficient ID, wire) pairs from word t of the system's CallData, or
// of own when slot is 1. The rows' sizes are counted, summed into offsets,
// then the rows written in place, each pass on every core.
func (s *Solver) compileRows(own []uint32) {
	ops := s.ops
	pairsOf := func(o *op) []uint32 {
		src := s.r1cs.CallData
		if o.slot == 1 {
			src = own
		}
		return src[o.t : o.t+2*uint64(o.nL+o.nR+o.nO)]
	}
	at := make([]uint64, len(ops)+1) // the sizes, then the offsets
	onCores(len(ops), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if o := &ops[i]; o.kind == opR1C {
				at[i+1] = uint64(rowsSize(o, pairsOf(o)))
			}
		}
	})
	for i := range ops {
		at[i+1] += at[i]
	}
	s.terms = make([]uint32, at[len(ops)])
	key := groupKeys(s.coeffSmall)
	onCores(len(ops), func(lo, hi int) {
		var buf []uint64
		for i := lo; i < hi; i++ {
			if o := &ops[i]; o.kind == opR1C {
				t := s.terms[at[i]:at[i+1]]
				writeRows(o, pairsOf(o), t)
				for _, row := range [3][]uint32{t[:o.nL], t[o.nL : o.nL+o.nR], t[o.nL+o.nR:]} {
					buf = groupPairs(row[1+row[0]&rowRun+row[0]>>16:], key, buf)
				}
				o.t, o.slot = at[i], 0
			}
		}
	})
}

// rowsSize is the words of o's compiled rows.
func rowsSize(o *op, pairs []uint32) int {
	bounds := [4]uint32{0, 2 * o.nL, 2 * (o.nL + o.nR), uint32(len(pairs))}
	size := 0
	for row := range 3 {
		p := pairs[bounds[row]:bounds[row+1]]
		var count [4]int
		for k := 0; k+1 < len(p); k += 2 {
			count[rowClass(o, p[k], p[k+1], count[classPlus], count[classMinus])]++
		}
		size += 1 + count[classPlus] + count[classMinus] + 2*count[classRest]
	}
	return size
}

// writeRows writes o's compiled rows into out, rowsSize(o, pairs) words,
// and sets o.nL, o.nR and o.nO to their sizes.
func writeRows(o *op, pairs []uint32, out []uint32) {
	bounds := [4]uint32{0, 2 * o.nL, 2 * (o.nL + o.nR), uint32(len(pairs))}
	var n [3]uint32
	start := 0
	for row := range 3 {
		p := pairs[bounds[row]:bounds[row+1]]
		var count [4]int
		for k := 0; k+1 < len(p); k += 2 {
			count[rowClass(o, p[k], p[k+1], count[classPlus], count[classMinus])]++
		}
		size := 1 + count[classPlus] + count[classMinus] + 2*count[classRest]
		r := out[start : start+size]
		r[0] = uint32(count[classPlus]) | uint32(count[classMinus])<<16
		at := [4]int{0, 1, 1 + count[classPlus], 1 + count[classPlus] + count[classMinus]}
		var seen [4]int
		for k := 0; k+1 < len(p); k += 2 {
			cid, vid := p[k], p[k+1]
			c := rowClass(o, cid, vid, seen[classPlus], seen[classMinus])
			seen[c]++
			switch c {
			case classPlus, classMinus:
				r[at[c]] = vid
				at[c]++
			case classRest:
				r[at[c]], r[at[c]+1] = cid, vid
				at[c] += 2
			}
		}
		n[row] = uint32(size)
		start += size
	}
	o.nL, o.nR, o.nO = n[0], n[1], n[2]
}

// groupPairs orders a row's (coefficient ID, wire) pairs by group: by key
// (groupKeys) of their coefficients. buf is scratch memory; it returns it,
// grown as needed.
func groupPairs(pairs []uint32, key []uint32, buf []uint64) []uint64 {
	n := len(pairs) / 2
	if n <= 1 {
		return buf
	}
	buf = slices.Grow(buf[:0], 2*n)[:n] // keys, then a copy of the pairs
	sorted := true
	for k := range n {
		buf[k] = uint64(key[pairs[2*k]])<<32 | uint64(k)
		sorted = sorted && (k == 0 || buf[k] > buf[k-1])
	}
	if sorted {
		return buf
	}
	slices.Sort(buf)
	for k := range n {
		buf = append(buf, uint64(pairs[2*k])<<32|uint64(pairs[2*k+1]))
	}
	old := buf[n:]
	for k, kp := range buf[:n] {
		p := old[uint32(kp)]
		pairs[2*k], pairs[2*k+1] = uint32(p>>32), uint32(p)
	}
	return buf
}

// groupKeys are the coefficients' keys in groupPairs' order: the small
// integers ±k below 2³⁰ by k, −k after k, then the others by ID.
func groupKeys(small []smallCoeff) []uint32 {
	key := make([]uint32, len(small))
	for id, c := range small {
		switch {
		case c.k != 0 && c.k < 1<<30 && c.neg:
			key[id] = uint32(c.k)<<1 | 1
		case c.k != 0 && c.k < 1<<30:
			key[id] = uint32(c.k) << 1
		default:
			key[id] = 1<<31 | uint32(id)
		}
	}
	return key
}

// onCores calls f on the parts of [0, n), on up to GOMAXPROCS goroutines.
func onCores(n int, f func(lo, hi int)) {
	parts := min(runtime.GOMAXPROCS(0), n/4096+1)
	if parts <= 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := n*p/parts, n*(p+1)/parts
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(lo, hi)
		}()
	}
	wg.Wait()
}

// evalRow sets r to the sum of a compiled row's terms.
func (st *state) evalRow(r *fr.Element, row []uint32) {
	values := st.values
	nPlus, nMinus := row[0]&rowRun, row[0]>>16
	// each run starts from its first value: no addition to 0
	var acc fr.Element
	if nPlus > 0 {
		acc = values[row[1]]
		for _, w := range row[2 : 1+nPlus] {
			acc.Add(&acc, &values[w])
		}
	}
	if nMinus > 0 {
		neg := values[row[1+nPlus]]
		for _, w := range row[2+nPlus : 1+nPlus+nMinus] {
			neg.Add(&neg, &values[w])
		}
		acc.Sub(&acc, &neg)
	}
	rest := row[1+nPlus+nMinus:]
	if len(rest) > 0 {
		coeffs, small := st.s.r1cs.Coefficients, st.s.coeffSmall
		var t, sum fr.Element
		// the groups of small integer coefficients are summed in wide
		// (wide.go) from a row's second on; its first waits in first, and
		// is a product when it stays the only one.
		var wide wideSum
		var first fr.Element
		var firstCid uint32
		nWide := 0
		for k := 0; k+1 < len(rest); {
			cid, w := rest[k], rest[k+1]
			c := small[cid]
			j := k + 2 // the group is rest[k:j]
			if c.k != 0 {
				for j+1 < len(rest) && small[rest[j]].k == c.k {
					j += 2
				}
			} else {
				for j+1 < len(rest) && rest[j] == cid {
					j += 2
				}
			}
			v := &values[w]
			if j == k+2 {
				k = j
				// mostly bits in a bit decomposition: no product for 0 or 1
				switch {
				case c.k == 1 && c.neg:
					acc.Sub(&acc, v)
					continue
				case c.k == 1:
					acc.Add(&acc, v)
					continue
				case c.k == 2:
					t.Double(v)
					if c.neg {
						acc.Sub(&acc, &t)
					} else {
						acc.Add(&acc, &t)
					}
					continue
				case v.IsZero():
					continue
				case v.Equal(&smallLo[1]):
					acc.Add(&acc, &coeffs[cid])
					continue
				}
				sum = *v
			} else {
				// the values, those of −c subtracted: the group is c·sum
				// (a coefficient table may hold one integer under two IDs:
				// the sign decides, not the ID)
				sum = *v
				for m := k + 2; m < j; m += 2 {
					if small[rest[m]] == c {
						sum.Add(&sum, &values[rest[m+1]])
					} else {
						sum.Sub(&sum, &values[rest[m+1]])
					}
				}
				k = j
				if c.k == 1 {
					if c.neg {
						acc.Sub(&acc, &sum)
					} else {
						acc.Add(&acc, &sum)
					}
					continue
				}
			}
			if c.k == 0 {
				t.Mul(&coeffs[cid], &sum)
				acc.Add(&acc, &t)
				continue
			}
			nWide++
			if nWide == 1 {
				first, firstCid = sum, cid
				continue
			}
			if nWide == 2 {
				wide.addSmall(&first, small[firstCid])
			}
			wide.addSmall(&sum, c)
		}
		switch {
		case nWide == 1:
			t.Mul(&coeffs[firstCid], &first)
			acc.Add(&acc, &t)
		case nWide > 1:
			wide.reduce(&t)
			acc.Add(&acc, &t)
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
