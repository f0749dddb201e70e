package bls12381

import (
	"encoding/binary"
	"errors"
	"math/big"
	"math/bits"
	"strconv"
	"sync"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark/constraint"
	csolver "github.com/consensys/gnark/constraint/solver"
)

// scratch is one task's reusable memory.
type scratch struct {
	failAt   uint32       // the rank of the op that failed
	pending  []int32      // ops whose R1C waits for its divisor's inverse
	divisors []fr.Element // their divisors, in the same order
	invWires []uint32     // InvZeroHint outputs waiting for their input's inverse
	invVals  []fr.Element // those inputs (not zero), in the same order
	inverses []fr.Element

	elems  [3][]fr.Element // native hints' temporaries
	sub    []*scratch      // the scratch of the goroutines one op starts
	count  []uint64
	parts  [][]uint64 // the count hint's parts beyond the first
	byElem map[fr.Element]int
	byRow  map[string]int
	key    []byte
	mul    mulScratch  // the emulated mulHint's numbers
	poly   polyScratch // the emulated polyMvHint's numbers
	word   fr.Element  // wordHint's output (here, not on its stack: it is passed to an interface)
	slots  []int32     // invertRun's slots
	memo   invMemo     // invertRun's words read

	// a hint's big.Int inputs and outputs; ins[i] points at inVals[i], and
	// the inputs' words live in words, so filling them does not allocate.
	inVals  []big.Int
	ins     []*big.Int
	words   []big.Word
	outVals []big.Int
	outs    []*big.Int
}

// hint calls the hint of a generic hint instruction. Its calldata is
//
//	size, hint ID, nbInputs, nbInputs linear expressions, output start, output end
//
// and its outputs are the wires [start, end).
func (st *state) hint(o *op, sc *scratch) error {
	r := st.s.r1cs
	calldata := r.CallData[r.Instructions[o.inst].StartCallData:]
	if f := st.native[o.slot]; f != nil {
		if o.t != 0 { // a count hint of a table indexed by New
			return st.countConst(&st.s.tables[o.t-1], calldata, sc)
		}
		return f(st, calldata, sc)
	}
	return st.callHint(o.slot, calldata, sc)
}

// callHint calls the hint function through big.Ints, as gnark does.
func (st *state) callHint(slot uint32, calldata []uint32, sc *scratch) error {
	f := st.hints[slot]
	if f == nil {
		return errors.New("missing hint function")
	}
	return st.callHintFunc(f, calldata, sc)
}

// callHintFunc calls f through big.Ints with a hint instruction's inputs
// and outputs.
func (st *state) callHintFunc(f csolver.Hint, calldata []uint32, sc *scratch) error {
	nbIn := int(calldata[2])
	ins := sc.inputs(nbIn)
	j := st.readInputs(calldata, 0, nbIn, 3, sc)
	var v fr.Element
	lo, hi := calldata[j], calldata[j+1]
	outs := sc.outputs(int(hi - lo))
	err := f(st.q, ins, outs)
	for i := range outs {
		v.SetBigInt(outs[i])
		st.values[int(lo)+i] = v
		st.solved[int(lo)+i] = true
	}
	return err
}

// readInputs sets hint inputs [from, to) of sc to the expressions from
// calldata[j] and returns the calldata index past them. Many inputs (a
// commitment's: hundreds of thousands) are cut into runs converted by
// several goroutines.
func (st *state) readInputs(calldata []uint32, from, to, j int, sc *scratch) int {
	convert := func(i, to, j int) int {
		for ; i < to; i++ {
			b, n := st.readBits(calldata[j:])
			j += n
			sc.setInput(i, &b)
		}
		return j
	}
	parts := min(st.nt, (to-from)/int(8*minTaskCost))
	if parts <= 1 {
		return convert(from, to, j)
	}
	var wg sync.WaitGroup
	at := from
	for p := 0; p < parts-1; p++ {
		m := (to - at) / (parts - p)
		start, first := j, at
		j = skipExpressions(calldata, j, m)
		at += m
		wg.Add(1)
		go func() {
			defer wg.Done()
			convert(first, first+m, start)
		}()
	}
	j = convert(at, to, j)
	wg.Wait()
	return j
}

// read sets v to the linear expression at the start of calldata (a length,
// then coefficient and wire pairs; a wire of MaxUint32 is the constant
// term) and returns how many words it read.
func (st *state) read(v *fr.Element, calldata []uint32) int {
	values, coeffs, small := st.values, st.s.r1cs.Coefficients, st.s.coeffSmall
	n := int(calldata[0])
	var acc, t fr.Element
	// the terms of small integer coefficients are summed in wide (wide.go)
	// from the second on; the first waits in first, and is a product when
	// it stays the only one.
	var wide wideSum
	var first *fr.Element
	var firstCid uint32
	nWide := 0
	for k := 0; k < n; k++ {
		cid, vid := calldata[1+2*k], calldata[2+2*k]
		if vid == constantWire {
			acc.Add(&acc, &coeffs[cid])
			continue
		}
		switch cid {
		case constraint.CoeffIdZero:
		case constraint.CoeffIdOne:
			acc.Add(&acc, &values[vid])
		case constraint.CoeffIdTwo:
			t.Double(&values[vid])
			acc.Add(&acc, &t)
		case constraint.CoeffIdMinusOne:
			acc.Sub(&acc, &values[vid])
		default:
			if small[cid].k == 0 {
				t.Mul(&coeffs[cid], &values[vid])
				acc.Add(&acc, &t)
				continue
			}
			nWide++
			if nWide == 1 {
				first, firstCid = &values[vid], cid
				continue
			}
			if nWide == 2 {
				wide.addSmall(first, small[firstCid])
			}
			wide.addSmall(&values[vid], small[cid])
		}
	}
	switch {
	case nWide == 1:
		t.Mul(&coeffs[firstCid], first)
		acc.Add(&acc, &t)
	case nWide > 1:
		wide.reduce(&t)
		acc.Add(&acc, &t)
	}
	*v = acc
	return 1 + 2*n
}

// readBits reads the linear expression at the start of calldata as an
// integer, its canonical words low first, and returns how many words it
// read. One term of coefficient 1 on a wire set from a word in this solve
// (setWordAt), or one constant term of a coefficient below 2³²−1, is read
// as that word, and a sum of such words times such coefficients as an
// integer (readWordSum), with no conversion out of Montgomery form.
func (st *state) readBits(calldata []uint32) (b [fr.Limbs]uint64, n int) {
	if calldata[0] == 1 {
		var x uint32
		switch cid, vid := calldata[1], calldata[2]; {
		case vid == constantWire:
			x = st.s.coeffWords[cid]
		case cid == constraint.CoeffIdOne:
			x = st.words[vid]
		}
		if x != 0 {
			b[0] = uint64(x - 1)
			return b, 3
		}
	}
	if x, ok := st.readWordSum(calldata); ok {
		b[0] = x
		return b, 1 + 2*int(calldata[0])
	}
	var v fr.Element
	n = st.read(&v, calldata)
	return v.Bits(), n
}

// readWordSum reads the linear expression at the start of calldata as an
// integer when each of its terms is a noted word (setWordAt) times a
// coefficient below 2³²−1, or such a constant, and their sum is below
// 2⁶⁴ (the field's modulus is larger: the sum is the canonical value).
func (st *state) readWordSum(calldata []uint32) (uint64, bool) {
	n := int(calldata[0])
	var sum uint64
	for k := 0; k < n; k++ {
		cid, vid := calldata[1+2*k], calldata[2+2*k]
		c := uint64(st.s.coeffWords[cid])
		if c == 0 {
			return 0, false
		}
		term := c - 1
		if vid != constantWire {
			x := uint64(st.words[vid])
			if x == 0 {
				return 0, false
			}
			var hi uint64
			if hi, term = bits.Mul64(c-1, x-1); hi != 0 {
				return 0, false
			}
		}
		var carry uint64
		if sum, carry = bits.Add64(sum, term, 0); carry != 0 {
			return 0, false
		}
	}
	return sum, true
}

// constantWire is the wire ID gnark gives a constant term.
const constantWire = ^uint32(0)

// set solves wire id.
func (st *state) set(id int, v *fr.Element) {
	st.values[id] = *v
	st.solved[id] = true
}

// setWordAt solves wire id with the word x, and notes x for readBits when
// it fits.
func (st *state) setWordAt(id int, x uint64) {
	setWord(&st.values[id], x)
	st.solved[id] = true
	if x < 1<<32-1 {
		st.words[id] = uint32(x) + 1
	}
}

func (sc *scratch) inputs(n int) []*big.Int {
	if cap(sc.inVals) < n {
		sc.inVals = make([]big.Int, n)
		sc.ins = make([]*big.Int, n)
		for i := range sc.ins {
			sc.ins[i] = &sc.inVals[i]
		}
		sc.words = make([]big.Word, n*fr.Limbs)
	}
	return sc.ins[:n]
}

// setInput sets input i to the integer of words b (low first) without
// allocating: its words are scratch's.
func (sc *scratch) setInput(i int, b *[fr.Limbs]uint64) {
	if strconv.IntSize != 64 {
		var be [fr.Bytes]byte
		for k, w := range b {
			binary.BigEndian.PutUint64(be[fr.Bytes-8*(k+1):], w)
		}
		sc.ins[i].SetBytes(be[:])
		return
	}
	w := sc.words[i*fr.Limbs : (i+1)*fr.Limbs]
	for k := range w {
		w[k] = big.Word(b[k])
	}
	sc.ins[i].SetBits(w)
}

func (sc *scratch) outputs(n int) []*big.Int {
	if cap(sc.outVals) < n {
		sc.outVals = make([]big.Int, n)
		sc.outs = make([]*big.Int, n)
		for i := range sc.outs {
			sc.outs[i] = &sc.outVals[i]
		}
	}
	outs := sc.outs[:n]
	for _, o := range outs {
		o.SetUint64(0)
	}
	return outs
}

// frElements returns scratch temporaries k (0, 1 or 2) of length n.
func (sc *scratch) frElements(k, n int) []fr.Element {
	if cap(sc.elems[k]) < n {
		sc.elems[k] = make([]fr.Element, n, 2*n)
	}
	return sc.elems[k][:n]
}

func (sc *scratch) slotsFor(n int) []int32 {
	if cap(sc.slots) < n {
		sc.slots = make([]int32, n)
	}
	return sc.slots[:n]
}

// invMemo is invertRun's index of the words it has read in one run: entry
// k<<16 | q holds the slot of (coefficient k, word q) when gen[k<<16|q] is
// at, the run's generation.
type invMemo struct {
	at   uint32
	gen  []uint32
	slot []int32
}

// memoFor returns sc's memo for a new run.
func (sc *scratch) memoFor() *invMemo {
	m := &sc.memo
	if m.gen == nil {
		m.gen = make([]uint32, 2<<16)
		m.slot = make([]int32, 2<<16)
	}
	m.at++
	if m.at == 0 { // the generations wrapped: forget them all
		clear(m.gen)
		m.at = 1
	}
	return m
}

func (sc *scratch) counts(n int) []uint64 {
	if cap(sc.count) < n {
		sc.count = make([]uint64, n)
	}
	c := sc.count[:n]
	clear(c)
	return c
}

func (sc *scratch) elementIndex() map[fr.Element]int {
	if sc.byElem == nil {
		sc.byElem = make(map[fr.Element]int)
	}
	clear(sc.byElem)
	return sc.byElem
}

func (sc *scratch) rowIndex() map[string]int {
	if sc.byRow == nil {
		sc.byRow = make(map[string]int)
	}
	clear(sc.byRow)
	return sc.byRow
}

func (sc *scratch) rowKey(nbRow int) []byte {
	if cap(sc.key) < nbRow*fr.Bytes {
		sc.key = make([]byte, nbRow*fr.Bytes)
	}
	return sc.key[:nbRow*fr.Bytes]
}
