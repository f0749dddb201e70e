package bls12381

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	csolver "github.com/consensys/gnark/constraint/solver"
)

// nativeHint computes a std hint on field elements, without big.Ints. It
// gets the instruction's calldata (as callHint does).
type nativeHint func(st *state, calldata []uint32, sc *scratch) error

// nativeHints are std hints computed here on field elements: the ones that
// gnark v0.16.1's solver computes natively, with the results and errors of
// gnark's native code, the small ones of native_std.go, the GLV scalar
// decomposition of native_emulated.go and the emulated multiplication and
// polynomial evaluation of native_emulated_mul.go and
// native_emulated_polymv.go. A hint function
// under another name (a caller's replacement) is called as given.
var nativeHints = map[string]nativeHint{
	"github.com/consensys/gnark/std/math/bits.nBits":          (*state).nBits,
	"github.com/consensys/gnark/std/rangecheck.DecomposeHint": (*state).decompose,
	countName: (*state).count,

	"github.com/consensys/gnark/std/math/uints.xorHint":          (*state).xorWords,
	"github.com/consensys/gnark/std/math/uints.andHint":          (*state).andWords,
	"github.com/consensys/gnark/std/math/uints.orHint":           (*state).orWords,
	"github.com/consensys/gnark/std/math/uints.toBytes":          (*state).toBytes,
	"github.com/consensys/gnark/std/math/bitslice.partitionHint": (*state).partition,
	"github.com/consensys/gnark/constraint/solver.InvZeroHint":   (*state).invZero,

	rationalReconstructExtName: (*state).rationalReconstructExt,
	mulHintName:                (*state).mulHint,
	polyMvHintName:             (*state).polyMvHint,
}

// nativeFor returns the native form of hint f, registered under name, or nil.
func nativeFor(f csolver.Hint, name string) nativeHint {
	n, ok := nativeHints[name]
	if !ok || f == nil || csolver.GetHintName(f) != name {
		return nil
	}
	return n
}

// nBits: the bits of one input, one output wire each.
func (st *state) nBits(calldata []uint32, _ *scratch) error {
	if int(calldata[2]) != 1 {
		return fmt.Errorf("expected one input, got %d", calldata[2])
	}
	words, n := st.readBits(calldata[3:])
	j := 3 + n
	lo, hi := int(calldata[j]), int(calldata[j+1])
	for i := 0; i < hi-lo; i++ {
		bit := uint64(0)
		if i < 64*len(words) {
			bit = words[i/64] >> (i % 64) & 1
		}
		st.setWordAt(lo+i, bit)
	}
	return nil
}

// decompose: inputs (varSize, limbSize, value); outputs the limbs of value,
// limbSize bits each, low first.
func (st *state) decompose(calldata []uint32, sc *scratch) error {
	if int(calldata[2]) != 3 {
		return fmt.Errorf("rangecheck decompose: expected 3 inputs")
	}
	j := 3
	varSizeW, n := st.readBits(calldata[j:])
	j += n
	varSize, ok := smallWord(&varSizeW)
	if !ok {
		return st.callHint(st.slotOf(calldata), calldata, sc)
	}
	limbSizeW, n := st.readBits(calldata[j:])
	j += n
	limbSize, ok := smallWord(&limbSizeW)
	if !ok || limbSize <= 0 || limbSize >= 64 {
		return st.callHint(st.slotOf(calldata), calldata, sc)
	}
	words, n := st.readBits(calldata[j:])
	j += n
	nbLimbs := (varSize + limbSize - 1) / limbSize
	lo, hi := int(calldata[j]), int(calldata[j+1])
	if hi-lo != nbLimbs {
		return fmt.Errorf("rangecheck decompose: need %d outputs", nbLimbs)
	}
	mask := uint64(1)<<uint(limbSize) - 1
	for i := 0; i < nbLimbs; i++ {
		st.setWordAt(lo+i, bitWindow(&words, i*limbSize, limbSize)&mask)
	}
	return nil
}

// count: inputs (nbTable, nbRow, table rows, query rows), each row nbRow
// values; output i counts the queries equal to table row i.
func (st *state) count(calldata []uint32, sc *scratch) error {
	nbIn := int(calldata[2])
	if nbIn <= 2 {
		return fmt.Errorf("logderivarg count: at least two inputs required")
	}
	end := skipExpressions(calldata, 3, nbIn)
	lo, hi := int(calldata[end]), int(calldata[end+1])
	var e fr.Element
	j := 3 + st.read(&e, calldata[3:])
	nbTable, ok := smallInt(&e)
	if !ok {
		return fmt.Errorf("logderivarg count: first input must be table length")
	}
	j += st.read(&e, calldata[j:])
	nbRow, ok := smallInt(&e)
	if !ok {
		return fmt.Errorf("logderivarg count: second input must be row length")
	}
	if nbIn < 2+nbTable*nbRow || (nbIn-2-nbTable*nbRow)%nbRow != 0 {
		return fmt.Errorf("logderivarg count: input shape doesn't match table layout")
	}
	if hi-lo != nbTable {
		return fmt.Errorf("logderivarg count: output size mismatch")
	}
	nbQueries := (nbIn - 2 - nbTable*nbRow) / nbRow
	if nbQueries <= 0 {
		return fmt.Errorf("logderivarg count: at least one query required")
	}
	counts := sc.counts(nbTable)
	if nbRow == 1 && st.identityTable(calldata, j, nbTable) {
		// the table is 0, 1, …, nbTable−1: a query is its own row.
		j = skipExpressions(calldata, j, nbTable)
		if err := st.countQueries(counts, nil, calldata, j, nbQueries, sc); err != nil {
			return err
		}
	} else if nbRow == 1 {
		idx := sc.elementIndex()
		for i := 0; i < nbTable; i++ {
			j += st.read(&e, calldata[j:])
			if _, dup := idx[e]; dup {
				return fmt.Errorf("logderivarg count: duplicate table key")
			}
			idx[e] = i
		}
		for i := 0; i < nbQueries; i++ {
			j += st.read(&e, calldata[j:])
			at, ok := idx[e]
			if !ok {
				return fmt.Errorf("logderivarg count: query element not in table")
			}
			counts[at]++
		}
	} else {
		idx := sc.rowIndex()
		key := sc.rowKey(nbRow)
		readRow := func() string {
			for k := 0; k < nbRow; k++ {
				j += st.read(&e, calldata[j:])
				b := e.Bytes()
				copy(key[k*fr.Bytes:], b[:])
			}
			return string(key)
		}
		for i := 0; i < nbTable; i++ {
			k := readRow()
			if _, dup := idx[k]; dup {
				return fmt.Errorf("logderivarg count: duplicate table key")
			}
			idx[k] = i
		}
		for i := 0; i < nbQueries; i++ {
			at, ok := idx[readRow()]
			if !ok {
				return fmt.Errorf("logderivarg count: query element not in table")
			}
			counts[at]++
		}
	}
	for i, c := range counts {
		st.setWordAt(lo+i, c)
	}
	return nil
}

// countConst is count for a table indexed by New.
func (st *state) countConst(tab *constTable, calldata []uint32, sc *scratch) error {
	nbIn := int(calldata[2])
	end := skipExpressions(calldata, tab.end, nbIn-2-tab.nbTable)
	lo, hi := int(calldata[end]), int(calldata[end+1])
	nbQueries := nbIn - 2 - tab.nbTable
	if hi-lo != tab.nbTable || nbQueries <= 0 {
		return st.count(calldata, sc) // its error
	}
	counts := sc.counts(tab.nbTable)
	if err := st.countQueries(counts, tab, calldata, tab.end, nbQueries, sc); err != nil {
		return err
	}
	for i, c := range counts {
		st.setWordAt(lo+i, c)
	}
	return nil
}

// countQueries adds to counts[row] one for each of the n queries (linear
// expressions from calldata[j]): row is the query's row in tab, or with a
// nil tab the query itself, below len(counts). Many queries are cut into
// parts counted by several goroutines, each part but the first into counts
// of its own, summed after.
func (st *state) countQueries(counts []uint64, tab *constTable, calldata []uint32, j, n int, sc *scratch) error {
	count := func(counts []uint64, j, n int) bool {
		var e fr.Element
		for i := 0; i < n; i++ {
			if tab != nil && tab.pos == nil {
				j += st.read(&e, calldata[j:])
				r, ok := tab.row(&e)
				if !ok {
					return false
				}
				counts[r]++
				continue
			}
			b, m := st.readBits(calldata[j:])
			j += m
			if !zeroFrom(&b, 1) {
				return false
			}
			if tab != nil {
				r, ok := tab.rowOfWord(b[0])
				if !ok {
					return false
				}
				counts[r]++
				continue
			}
			if b[0] >= uint64(len(counts)) {
				return false
			}
			counts[b[0]]++
		}
		return true
	}
	parts := min(st.nt, n/int(4*minTaskCost))
	if parts <= 1 {
		if !count(counts, j, n) {
			return errQueryNotInTable
		}
		return nil
	}
	sc.parts = slices.Grow(sc.parts[:0], parts-1)[:parts-1]
	ok := make([]bool, parts)
	var wg sync.WaitGroup
	firstEnd := 0
	at, done := j, 0
	for p := 0; p < parts; p++ {
		m := (n - done) / (parts - p)
		start := at
		at = skipExpressions(calldata, at, m)
		done += m
		if p == 0 {
			firstEnd = m
			continue
		}
		pc := &sc.parts[p-1]
		if cap(*pc) < len(counts) {
			*pc = make([]uint64, len(counts))
		}
		*pc = (*pc)[:len(counts)]
		clear(*pc)
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok[p] = count(*pc, start, m)
		}()
	}
	ok[0] = count(counts, j, firstEnd)
	wg.Wait()
	for p := range ok {
		if !ok[p] {
			return errQueryNotInTable
		}
	}
	for _, pc := range sc.parts {
		for i, c := range pc {
			counts[i] += c
		}
	}
	return nil
}

var errQueryNotInTable = errors.New("logderivarg count: query element not in table")

// identityTable reports whether the n linear expressions from calldata[j]
// are 0, 1, …, n−1.
func (st *state) identityTable(calldata []uint32, j, n int) bool {
	var e fr.Element
	for i := 0; i < n; i++ {
		j += st.read(&e, calldata[j:])
		if !e.IsUint64() || e.Uint64() != uint64(i) {
			return false
		}
	}
	return true
}

// slotOf returns the slot of the hint a hint instruction's calldata calls.
func (st *state) slotOf(calldata []uint32) uint32 {
	id := csolver.HintID(calldata[1])
	for i, h := range st.s.hintIDs {
		if h == id {
			return uint32(i)
		}
	}
	panic("solver: internal error: hint instruction of an unknown hint")
}

// smallInt returns v as an int when it is one.
func smallInt(v *fr.Element) (int, bool) {
	b := v.Bits()
	return smallWord(&b)
}

// smallWord is smallInt of a value's canonical words, low first.
func smallWord(b *[fr.Limbs]uint64) (int, bool) {
	if !zeroFrom(b, 1) || b[0] > uint64(int(^uint(0)>>1)) {
		return 0, false
	}
	return int(b[0]), true
}

// bitWindow returns size bits (1 to 63) of the little-endian words from bit
// offset; bits past the words are zero.
func bitWindow(words *[fr.Limbs]uint64, offset, size int) uint64 {
	var out uint64
	for got := 0; got < size; {
		at := offset + got
		w := at / 64
		if w >= len(words) {
			break
		}
		shift := uint(at % 64)
		take := min(64-int(shift), size-got)
		out |= (words[w] >> shift & (uint64(1)<<uint(take) - 1)) << uint(got)
		got += take
	}
	return out
}
