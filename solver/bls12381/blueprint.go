package bls12381

import (
	"errors"
	"fmt"
	"math/big"
	"sync"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark/constraint"
)

// batchInverse solves gnark's batch-inverse blueprint: its outputs are the
// inverses of its n input expressions, zero for a zero input. Calldata:
//
//	size, n, n linear expressions
//
// A large one is cut into runs inverted by several goroutines, each with a
// scratch of sc's.
func (st *state) batchInverse(o *op, sc *scratch) {
	r := st.s.r1cs
	pi := r.Instructions[o.inst]
	calldata := r.CallData[pi.StartCallData:]
	n := int(calldata[1])
	out := int(pi.WireOffset)
	parts := min(st.nt, n/int(4*minTaskCost))
	if parts <= 1 {
		st.invertRun(calldata, 2, out, n, sc)
		return
	}
	for len(sc.sub) < parts-1 {
		sc.sub = append(sc.sub, new(scratch))
	}
	var wg sync.WaitGroup
	j, done := 2, 0
	for p := 0; p < parts; p++ {
		m := (n - done) / (parts - p)
		start, first := j, done
		done += m
		if p == parts-1 {
			st.invertRun(calldata, start, out+first, m, sc)
			break
		}
		j = skipExpressions(calldata, j, m)
		sub := sc.sub[p]
		wg.Add(1)
		go func() {
			defer wg.Done()
			st.invertRun(calldata, start, out+first, m, sub)
		}()
	}
	wg.Wait()
}

// invertRun sets wires out, out+1, … to the inverses of the n expressions
// from calldata[j] (zero for zero). Expressions of two terms c·q + a·A, of
// one a·A in the run and at most two coefficients c, whose q is a word below
// 2¹⁶ set this solve (setWordAt), are read and inverted once per distinct
// (c, q): a log-derivative argument's queries, α − q, repeat the few values
// of its table.
func (st *state) invertRun(calldata []uint32, j, out, n int, sc *scratch) {
	slot := sc.slotsFor(n) // index in distinct, or −1 for a zero value
	distinct := sc.frElements(1, n)[:0]
	memo := sc.memoFor()
	var refC, refW uint32 // a and A, from the first expression that fits
	haveRef := false
	var coeffs [2]uint32
	nCoeffs := 0
	for i := 0; i < n; i++ {
		key := -1
		if calldata[j] == 2 {
			c1, w1, c2, w2 := calldata[j+1], calldata[j+2], calldata[j+3], calldata[j+4]
			if w1 == constantWire || st.words[w1] == 0 {
				c1, w1, c2, w2 = c2, w2, c1, w1
			}
			if w1 != constantWire && st.words[w1] != 0 && st.words[w1]-1 < 1<<16 {
				if !haveRef {
					refC, refW, haveRef = c2, w2, true
				}
				if c2 == refC && w2 == refW {
					k := 0
					for k < nCoeffs && coeffs[k] != c1 {
						k++
					}
					if k == nCoeffs && nCoeffs < len(coeffs) {
						coeffs[k] = c1
						nCoeffs++
					}
					if k < nCoeffs {
						key = k<<16 | int(st.words[w1]-1)
					}
				}
			}
			if key >= 0 && memo.gen[key] == memo.at {
				slot[i] = memo.slot[key]
				j += 5
				continue
			}
		}
		var v fr.Element
		j += st.read(&v, calldata[j:])
		if v.IsZero() {
			slot[i] = -1
		} else {
			slot[i] = int32(len(distinct))
			distinct = append(distinct, v)
		}
		if key >= 0 {
			memo.gen[key], memo.slot[key] = memo.at, slot[i]
		}
	}
	inv := batchInvert(distinct, sc)
	var zero fr.Element
	for i, k := range slot {
		if k < 0 {
			st.set(out+i, &zero)
		} else {
			st.set(out+i, &inv[k])
		}
	}
}

// lookup solves gnark's log-derivative lookup blueprint: output i is the
// table entry the i-th query names. Calldata:
//
//	size, nbEntries, nbQueries, nbQueries linear expressions
//
// The entries are the blueprint's EntriesCalldata expressions, all solved
// in earlier levels.
func (st *state) lookup(o *op) error {
	r := st.s.r1cs
	tab := &st.s.lookups[o.slot]
	pi := r.Instructions[o.inst]
	calldata := r.CallData[pi.StartCallData:]
	nbEntries := uint64(calldata[1])
	n := int(calldata[2])
	j := 3
	var q, e fr.Element
	for i := 0; i < n; i++ {
		j += st.read(&q, calldata[j:])
		if !q.IsUint64() || q.Uint64() >= nbEntries {
			return st.unsatisfied(o.cid, errors.New("lookup query too large"))
		}
		st.read(&e, tab.bp.EntriesCalldata[tab.offsets[q.Uint64()]:])
		st.set(int(pi.WireOffset)+i, &e)
	}
	return nil
}

// blueprint solves an instruction through its blueprint's own Solve, with
// st as its constraint.Solver.
func (st *state) blueprint(o *op) error {
	r := st.s.r1cs
	pi := r.Instructions[o.inst]
	bp := r.Blueprints[pi.BlueprintID].(constraint.BlueprintSolvable[constraint.U64])
	inst := pi.Unpack(&r.System)
	if err := bp.Solve(st, inst); err != nil {
		return st.unsatisfied(o.cid, err)
	}
	n := uint32(bp.NbOutputs(inst))
	for w := pi.WireOffset; w < pi.WireOffset+n; w++ {
		if !st.solved[w] {
			return fmt.Errorf("solver: blueprint %T did not set its output wire %d", bp, w)
		}
	}
	return nil
}

// The constraint.Solver methods, for blueprints that solve themselves.
// The field arithmetic is the constraint system's own.

var _ constraint.Solver[constraint.U64] = (*state)(nil)

func (st *state) FromInterface(i any) constraint.U64              { return st.s.r1cs.FromInterface(i) }
func (st *state) ToBigInt(e constraint.U64) *big.Int              { return st.s.r1cs.ToBigInt(e) }
func (st *state) Mul(a, b constraint.U64) constraint.U64          { return st.s.r1cs.Mul(a, b) }
func (st *state) Add(a, b constraint.U64) constraint.U64          { return st.s.r1cs.Add(a, b) }
func (st *state) Sub(a, b constraint.U64) constraint.U64          { return st.s.r1cs.Sub(a, b) }
func (st *state) Neg(a constraint.U64) constraint.U64             { return st.s.r1cs.Neg(a) }
func (st *state) One() constraint.U64                             { return st.s.r1cs.One() }
func (st *state) IsOne(a constraint.U64) bool                     { return st.s.r1cs.IsOne(a) }
func (st *state) String(a constraint.U64) string                  { return st.s.r1cs.String(a) }
func (st *state) Uint64(a constraint.U64) (uint64, bool)          { return st.s.r1cs.Uint64(a) }
func (st *state) Inverse(a constraint.U64) (constraint.U64, bool) { return st.s.r1cs.Inverse(a) }

// GetValue returns coefficient cID times wire vID (the coefficient alone
// for the constant wire); the wire must be solved unless cID is 0.
func (st *state) GetValue(cID, vID uint32) constraint.U64 {
	var v fr.Element
	if vID == constantWire {
		v = st.s.r1cs.Coefficients[cID]
	} else {
		if cID != constraint.CoeffIdZero && !st.solved[vID] {
			panic("computing a term with an unsolved wire")
		}
		v.Mul(&st.s.r1cs.Coefficients[cID], &st.values[vID])
	}
	return toU64(&v)
}

func (st *state) GetCoeff(cID uint32) constraint.U64 {
	return toU64(&st.s.r1cs.Coefficients[cID])
}

func (st *state) SetValue(vID uint32, f constraint.U64) {
	if st.solved[vID] {
		panic("solving the same wire twice should never happen.")
	}
	v := fromU64(f)
	st.set(int(vID), &v)
}

func (st *state) IsSolved(vID uint32) bool { return st.solved[vID] }

func (st *state) Read(calldata []uint32) (constraint.U64, int) {
	var v fr.Element
	n := st.read(&v, calldata)
	return toU64(&v), n
}

func (st *state) GetBlueprint(id constraint.BlueprintID) constraint.Blueprint {
	return st.s.r1cs.Blueprints[id]
}
