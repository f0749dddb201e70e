package solver

import (
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// countName is the registered name of gnark's log-derivative count hint.
const countName = "github.com/consensys/gnark/std/internal/logderivarg.countHint"

// constTable is the table of a count hint whose table length, row length
// and entries are all constants, indexed once by New: rows of one value,
// distinct. Such a table (std/rangecheck's, the byte tables of
// std/math/uints) reads the same in every solve.
type constTable struct {
	nbTable int
	end     int     // calldata index past the table, where the queries start
	pos     []int32 // pos[v] is the row of value v, or −1 (dense tables)
	byValue map[fr.Element]int32
}

// maxDense bounds a dense table's index: values up to 4 a row, plus 1024.
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
	dense := true
	var top uint64
	for i := range vals {
		if !constant() {
			return nil
		}
		vals[i] = e
		b := e.Bits()
		if b[1]|b[2]|b[3] != 0 || b[0] >= maxDense(nbTable) {
			dense = false
		} else {
			top = max(top, b[0])
		}
	}
	t.end = j
	if dense {
		t.pos = make([]int32, top+1)
		for i := range t.pos {
			t.pos[i] = -1
		}
		for i := range vals {
			v := vals[i].Bits()[0]
			if t.pos[v] >= 0 {
				return nil // a duplicate: the hint's error, in every solve
			}
			t.pos[v] = int32(i)
		}
		return t
	}
	t.byValue = make(map[fr.Element]int32, nbTable)
	for i := range vals {
		if _, dup := t.byValue[vals[i]]; dup {
			return nil
		}
		t.byValue[vals[i]] = int32(i)
	}
	return t
}

// row returns the row of value e, or false.
func (t *constTable) row(e *fr.Element) (int32, bool) {
	if t.pos != nil {
		b := e.Bits()
		if b[1]|b[2]|b[3] != 0 || b[0] >= uint64(len(t.pos)) {
			return 0, false
		}
		r := t.pos[b[0]]
		return r, r >= 0
	}
	r, ok := t.byValue[*e]
	return r, ok
}
