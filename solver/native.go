package solver

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	csolver "github.com/consensys/gnark/constraint/solver"
)

// nativeHint computes a std hint on field elements, without big.Ints. It
// gets the instruction's calldata (as callHint does).
type nativeHint func(st *state, calldata []uint32, sc *scratch) error

// nativeHints are the std hints gnark v0.16.1's solver computes natively,
// with the results and errors of gnark's native code. A hint function under
// another name (a caller's replacement) is called as given.
var nativeHints = map[string]nativeHint{
	"github.com/consensys/gnark/std/math/bits.nBits":                        (*state).nBits,
	"github.com/consensys/gnark/std/rangecheck.DecomposeHint":               (*state).decompose,
	"github.com/consensys/gnark/std/internal/logderivarg.batchDivBySubHint": (*state).batchDivBySub,
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
	var v fr.Element
	j := 3 + st.read(&v, calldata[3:])
	lo, hi := int(calldata[j]), int(calldata[j+1])
	words := v.Bits()
	var b fr.Element
	for i := 0; i < hi-lo; i++ {
		bit := uint64(0)
		if i < 64*len(words) {
			bit = words[i/64] >> (i % 64) & 1
		}
		b.SetUint64(bit)
		st.set(lo+i, &b)
	}
	return nil
}

// decompose: inputs (varSize, limbSize, value); outputs the limbs of value,
// limbSize bits each, low first.
func (st *state) decompose(calldata []uint32, sc *scratch) error {
	if int(calldata[2]) != 3 {
		return fmt.Errorf("rangecheck decompose: expected 3 inputs")
	}
	var varSizeE, limbSizeE, v fr.Element
	j := 3
	j += st.read(&varSizeE, calldata[j:])
	varSize, ok := smallInt(&varSizeE)
	if !ok {
		return st.callHint(st.slotOf(calldata), calldata, sc)
	}
	j += st.read(&limbSizeE, calldata[j:])
	limbSize, ok := smallInt(&limbSizeE)
	if !ok || limbSize <= 0 || limbSize >= 64 {
		return st.callHint(st.slotOf(calldata), calldata, sc)
	}
	j += st.read(&v, calldata[j:])
	nbLimbs := (varSize + limbSize - 1) / limbSize
	lo, hi := int(calldata[j]), int(calldata[j+1])
	if hi-lo != nbLimbs {
		return fmt.Errorf("rangecheck decompose: need %d outputs", nbLimbs)
	}
	words := v.Bits()
	mask := uint64(1)<<uint(limbSize) - 1
	var e fr.Element
	for i := 0; i < nbLimbs; i++ {
		e.SetUint64(bitWindow(&words, i*limbSize, limbSize) & mask)
		st.set(lo+i, &e)
	}
	return nil
}

// batchDivBySub: inputs (x, n₀…nₖ₋₁, t₀…tₖ₋₁); outputs nᵢ/(x − tᵢ), with one
// inversion for all of them.
func (st *state) batchDivBySub(calldata []uint32, sc *scratch) error {
	nbIn := int(calldata[2])
	end := skipExpressions(calldata, 3, nbIn)
	lo, hi := int(calldata[end]), int(calldata[end+1])
	n := hi - lo
	if nbIn != 1+2*n {
		return fmt.Errorf("logderivarg batchDivBySub: expected %d inputs, got %d", 1+2*n, nbIn)
	}
	var x, t fr.Element
	j := 3 + st.read(&x, calldata[3:])
	num := sc.frElements(0, n)
	for i := range num {
		j += st.read(&num[i], calldata[j:])
	}
	den := sc.frElements(1, n)
	for i := range den {
		j += st.read(&t, calldata[j:])
		den[i].Sub(&x, &t)
		if den[i].IsZero() {
			return fmt.Errorf("logderivarg batchDivBySub: no inverse at index %d", i)
		}
	}
	inv := batchInvert(den, sc)
	for i := range num {
		num[i].Mul(&num[i], &inv[i])
		st.set(lo+i, &num[i])
	}
	return nil
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
	if !v.IsUint64() {
		return 0, false
	}
	n := v.Uint64()
	if n > uint64(int(^uint(0)>>1)) {
		return 0, false
	}
	return int(n), true
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
