package bls12381

import (
	"math/bits"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// countName is the registered name of gnark's log-derivative count hint.
const countName = "github.com/consensys/gnark/std/internal/logderivarg.countHint"

// constTable is the table of a count hint whose table length, row length
// and entries are all constants, indexed once by New: rows of one value,
// distinct. Such a table (std/rangecheck's, the byte tables of
// std/math/uints) reads the same in every solve.
//
// A table of one-word values whose low k bits differ (0…n−1, or the packed
// (x, y, f(x, y)) rows of std's precomputed tables) is indexed by those
// bits: pos[v mod 2^k] is the row whose value may be v, or −1, and
// words[row] is that row's value. Any other table is indexed by value.
type constTable struct {
	nbTable int
	end     int // calldata index past the table, where the queries start
	pos     []int32
	mask    uint64
	words   []uint64
	byValue map[fr.Element]int32
}

// maxDense bounds the length of pos: 4 a row, plus 1024.
func maxDense(nbTable int) uint64 { return 4*uint64(nbTable) + 1024 }

// constTableOf indexes the table of a count hint's calldata when its
// layout and entries are constants with one value a row, all distinct;
// otherwise it returns nil and the hint reads its table in every solve.
func (s *Solver) constTableOf(calldata []uint32) *constTable {
	nbIn := int(calldata[2])
	if nbIn <= 2 {
		return nil
	}
	j := 3
	var e fr.Element
	constant := func() bool { // reads the expression at j if it is constant
		n := int(calldata[j])
		e.SetZero()
		for k := 0; k < n; k++ {
			cid, vid := calldata[j+1+2*k], calldata[j+2+2*k]
			if vid != constantWire {
				return false
			}
			e.Add(&e, &s.r1cs.Coefficients[cid])
		}
		j += 1 + 2*n
		return true
	}
	if !constant() {
		return nil
	}
	nbTable, ok := smallInt(&e)
	if !ok || nbTable == 0 || !constant() {
		return nil
	}
	if nbRow, ok := smallInt(&e); !ok || nbRow != 1 || nbIn < 2+nbTable {
		return nil
	}
	t := &constTable{nbTable: nbTable}
	vals := make([]fr.Element, nbTable)
	words := make([]uint64, nbTable)
	oneWord := true
	for i := range vals {
		if !constant() {
			return nil
		}
		vals[i] = e
		b := e.Bits()
		words[i] = b[0]
		if !zeroFrom(&b, 1) {
			oneWord = false
		}
	}
	t.end = j
	if oneWord {
		for k := bits.Len(uint(nbTable - 1)); uint64(1)<<k <= maxDense(nbTable); k++ {
			if t.indexLowBits(words, k) {
				return t
			}
		}
	}
	t.byValue = make(map[fr.Element]int32, nbTable)
	for i := range vals {
		if _, dup := t.byValue[vals[i]]; dup {
			return nil // a duplicate: the hint's error, in every solve
		}
		t.byValue[vals[i]] = int32(i)
	}
	return t
}

// indexLowBits indexes words by their low k bits, when those differ.
func (t *constTable) indexLowBits(words []uint64, k int) bool {
	pos := make([]int32, 1<<k)
	for i := range pos {
		pos[i] = -1
	}
	mask := uint64(1)<<k - 1
	for i, w := range words {
		if pos[w&mask] >= 0 {
			return false
		}
		pos[w&mask] = int32(i)
	}
	t.pos, t.mask, t.words = pos, mask, words
	return true
}

// row returns the row of value e, or false.
func (t *constTable) row(e *fr.Element) (int32, bool) {
	if t.pos != nil {
		b := e.Bits()
		if !zeroFrom(&b, 1) {
			return 0, false
		}
		return t.rowOfWord(b[0])
	}
	r, ok := t.byValue[*e]
	return r, ok
}

// rowOfWord returns the row of the value x, or false, in a table indexed
// by its words' low bits (pos not nil).
func (t *constTable) rowOfWord(x uint64) (int32, bool) {
	r := t.pos[x&t.mask]
	if r < 0 || t.words[r] != x {
		return 0, false
	}
	return r, true
}
