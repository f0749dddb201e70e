package bls12381

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark/constraint"
	csolver "github.com/consensys/gnark/constraint/solver"
)

// opKind says how one instruction is solved.
type opKind uint8

const (
	opR1C          opKind = iota // a rank-1 constraint, at most one unknown wire
	opHint                       // gnark's generic hint blueprint
	opBatchInverse               // gnark's batch-inverse blueprint
	opLookup                     // gnark's log-derivative lookup blueprint
	opBlueprint                  // another blueprint, solved through its own Solve
	opSkip                       // a blueprint with nothing to solve
)

// Where the unknown wire of an R1C sits (gnark's "loc").
const (
	locNone uint8 = iota // every wire known: the R1C is checked
	locL
	locR
	locO
)

// op is one instruction of the circuit, decoded once by New.
//
// An R1C's rows L, R and O are nL, nR and nO words of Solver.terms from
// word t, in the form compileRows writes. wire and coeff are its unknown
// term's wire and coefficient ID (the rows leave that term out). For a
// hint, slot indexes Solver.hintIDs, and t, when not 0, is 1 + the index in
// Solver.tables of its count hint's table; for a lookup, slot indexes
// Solver.lookups.
type op struct {
	kind       opKind
	loc        uint8
	cid        uint32 // constraint offset (the R1C's index, or a blueprint's first)
	inst       uint32 // instruction index
	rank       uint32 // position in gnark's level order
	wire       uint32
	coeff      uint32
	slot       uint32
	nL, nR, nO uint32
	t          uint64
}

// lookupTable is where each entry of one lookup blueprint's table starts in
// its EntriesCalldata.
type lookupTable struct {
	bp      *constraint.BlueprintLookupHint[constraint.U64]
	offsets []uint32
}

// compile walks gnark's levels in order, decodes every instruction into an
// op, and follows which wires are solved when: which wire of each R1C is the
// unknown depends on the circuit's structure only (every instruction sets
// all of its outputs), so it is found here once instead of in every solve.
// The R1Cs with no unknown solve nothing: they are checks, evaluated into
// their rows of A, B and C and checked in their level like any other op.
// It returns a non-empty reason when the circuit must be left to gnark's
// solver.
func (s *Solver) compile() (string, error) {
	r := s.r1cs
	if r.Type != constraint.SystemR1CS {
		return "", fmt.Errorf("solver: constraint system is not an R1CS")
	}
	nbInputs := len(r.Public) + len(r.Secret)
	s.nbWires = nbInputs + r.NbInternalVariables
	solved := make([]bool, s.nbWires)
	for i := 0; i < nbInputs; i++ {
		solved[i] = true
	}
	inRange := func(w uint32) bool { return int(w) < s.nbWires }
	twice := uint32(0) // a wire two instructions output, plus one
	mark := func(lo, hi uint32) bool {
		if hi < lo || int(hi) > s.nbWires {
			return false
		}
		for w := lo; w < hi; w++ {
			if solved[w] && twice == 0 {
				twice = w + 1
			}
			solved[w] = true
		}
		return true
	}

	nbOps := 0
	for _, l := range r.Levels {
		nbOps += len(l)
	}
	if nbOps != len(r.Instructions) {
		return fmt.Sprintf("the levels hold %d instructions, the system %d", nbOps, len(r.Instructions)), nil
	}
	s.ops = make([]op, 0, nbOps)
	s.levels = make([]int, 0, len(r.Levels)+1)
	s.cost = make([]int64, 1, nbOps+1)
	slots := map[csolver.HintID]uint32{}
	lookups := map[constraint.BlueprintID]int{}
	var r1c constraint.R1C
	var own []uint32 // the pairs of R1Cs of other blueprints than gnark's generic one, decompressed
	var total int64

	rank := uint32(0)
	for _, level := range r.Levels {
		if n := len(s.levels); n == 0 || s.levels[n-1] != len(s.ops) {
			s.levels = append(s.levels, len(s.ops))
		}
		for _, ii := range level {
			if int(ii) >= len(r.Instructions) {
				return "", fmt.Errorf("solver: level names instruction %d of %d", ii, len(r.Instructions))
			}
			pi := r.Instructions[ii]
			bp := r.Blueprints[pi.BlueprintID]
			o := op{inst: ii, cid: pi.ConstraintOffset, rank: rank}
			rank++
			var cost int64
			calldata := r.CallData[pi.StartCallData:]
			switch b := bp.(type) {
			case constraint.BlueprintR1C:
				o.kind = opR1C
				// The terms' (coefficient, wire) pairs, L's nL, R's nR, O's
				// nO, from word t of CallData, or of own for another
				// blueprint (slot 1), until compileRows compiles them.
				var pairs []uint32
				if _, ok := bp.(*constraint.BlueprintGenericR1C); ok {
					// calldata: size, len L, len R, len O, the terms
					o.nL, o.nR, o.nO = calldata[1], calldata[2], calldata[3]
					o.t = pi.StartCallData + 4
					pairs = calldata[4 : 4+2*(uint64(o.nL)+uint64(o.nR)+uint64(o.nO))]
				} else {
					b.DecompressR1C(&r1c, pi.Unpack(&r.System))
					o.slot, o.t = 1, uint64(len(own))
					for _, le := range [3]constraint.LinearExpression{r1c.L, r1c.R, r1c.O} {
						for _, t := range le {
							own = append(own, t.CID, t.VID)
						}
					}
					o.nL, o.nR, o.nO = uint32(len(r1c.L)), uint32(len(r1c.R)), uint32(len(r1c.O))
					pairs = own[o.t:]
				}
				nL, nR := o.nL, o.nR
				unknown := 0
				for k := 0; 2*k < len(pairs); k++ {
					cid, vid := pairs[2*k], pairs[2*k+1]
					if vid == constantWire || !inRange(vid) {
						return fmt.Sprintf("constraint %d has a term on wire %d", o.cid, vid), nil
					}
					if solved[vid] {
						continue
					}
					unknown++
					switch {
					case k < int(nL):
						o.loc = locL
					case k < int(nL+nR):
						o.loc = locR
					default:
						o.loc = locO
					}
					o.wire, o.coeff = vid, cid
				}
				if unknown > 1 {
					return fmt.Sprintf("constraint %d has %d unsolved wires", o.cid, unknown), nil
				}
				cost = 4 + int64(len(pairs)/2)
				if unknown == 0 {
					o.loc, o.wire, o.coeff = locNone, 0, 0
				} else if o.coeff == constraint.CoeffIdZero {
					return fmt.Sprintf("constraint %d has its unknown wire with coefficient 0", o.cid), nil
				}
				if unknown == 0 {
					break // a check: it solves nothing
				}
				s.needInverse(o.coeff)
				solved[o.wire] = true
			case *constraint.BlueprintGenericHint:
				o.kind = opHint
				id := csolver.HintID(calldata[1])
				slot, ok := slots[id]
				if !ok {
					slot = uint32(len(s.hintIDs))
					slots[id] = slot
					s.hintIDs = append(s.hintIDs, id)
				}
				o.slot = slot
				if r.MHintsDependencies[id] == countName {
					if t := s.constTableOf(calldata); t != nil {
						s.tables = append(s.tables, *t)
						o.t = uint64(len(s.tables))
					}
				}
				nbIn := int(calldata[2])
				j := skipExpressions(calldata, 3, nbIn)
				lo, hi := calldata[j], calldata[j+1]
				if !mark(lo, hi) {
					return "", fmt.Errorf("solver: hint outputs [%d, %d) out of %d wires", lo, hi, s.nbWires)
				}
				cost = 24 + 2*int64(j) + 4*int64(hi-lo)
				if _, native := nativeHints[r.MHintsDependencies[id]]; !native {
					// a hint through big.Ints: conversions, allocations,
					// and usually big-number arithmetic of its own.
					cost += bigHintCost
				}
			case *constraint.BlueprintBatchInverse[constraint.U64]:
				o.kind = opBatchInverse
				n := calldata[1]
				if !mark(pi.WireOffset, pi.WireOffset+n) {
					return "", fmt.Errorf("solver: batch inverse outputs out of range")
				}
				cost = 8 + 6*int64(n)
			case *constraint.BlueprintLookupHint[constraint.U64]:
				o.kind = opLookup
				k, ok := lookups[pi.BlueprintID]
				if !ok {
					k = len(s.lookups)
					lookups[pi.BlueprintID] = k
					s.lookups = append(s.lookups, lookupTable{bp: b, offsets: expressionOffsets(b.EntriesCalldata)})
				}
				o.slot = uint32(k)
				n := calldata[2]
				if int(calldata[1]) > len(s.lookups[k].offsets) {
					return "", fmt.Errorf("solver: lookup reads %d entries of a table of %d", calldata[1], len(s.lookups[k].offsets))
				}
				if !mark(pi.WireOffset, pi.WireOffset+n) {
					return "", fmt.Errorf("solver: lookup outputs out of range")
				}
				cost = 8 + 6*int64(n)
			case constraint.BlueprintStateful[constraint.U64]:
				return fmt.Sprintf("blueprint %T keeps state between solves", bp), nil
			case constraint.BlueprintSolvable[constraint.U64]:
				o.kind = opBlueprint
				n := uint32(b.NbOutputs(pi.Unpack(&r.System)))
				if !mark(pi.WireOffset, pi.WireOffset+n) {
					return "", fmt.Errorf("solver: blueprint %T outputs out of range", bp)
				}
				cost = 64
			default:
				o.kind = opSkip
				cost = 1
			}
			s.ops = append(s.ops, o)
			total += cost
			s.cost = append(s.cost, total)
		}
	}
	if n := len(s.levels); n == 0 || s.levels[n-1] != len(s.ops) {
		s.levels = append(s.levels, len(s.ops))
	}
	if twice != 0 {
		return fmt.Sprintf("wire %d is solved by two instructions", twice-1), nil
	}
	s.coeffSmall = smallCoeffsOf(r.Coefficients)
	s.coeffWords = wordsOf(r.Coefficients, s.coeffSmall)
	s.compileRows(own)
	s.compileChecks()
	s.rowsWritten = s.everyRowR1C()
	return "", nil
}

// bigHintCost is the estimated cost of calling a hint function through
// big.Ints, beyond reading its inputs: about one emulated-field hint.
const bigHintCost = 512

// needInverse records that a solved wire is divided by coefficient cID.
func (s *Solver) needInverse(cID uint32) {
	if s.coeffInv == nil {
		s.coeffInv = make([]fr.Element, len(s.r1cs.Coefficients))
		s.coeffHave = make([]bool, len(s.r1cs.Coefficients))
	}
	if s.coeffHave[cID] {
		return
	}
	s.coeffHave[cID] = true
	s.coeffInv[cID].Inverse(&s.r1cs.Coefficients[cID])
}

// skipExpressions returns the calldata index past n linear expressions
// starting at j (each is a length, then coefficient and wire pairs).
func skipExpressions(calldata []uint32, j, n int) int {
	for i := 0; i < n; i++ {
		j += 1 + 2*int(calldata[j])
	}
	return j
}

// expressionOffsets lists where each linear expression of a run of them
// starts.
func expressionOffsets(calldata []uint32) []uint32 {
	var offs []uint32
	for j := 0; j < len(calldata); j += 1 + 2*int(calldata[j]) {
		offs = append(offs, uint32(j))
	}
	return offs
}

// outputs returns the wires [lo, hi) that op o solves.
func (s *Solver) outputs(o *op) (lo, hi uint32) {
	r := s.r1cs
	pi := r.Instructions[o.inst]
	calldata := r.CallData[pi.StartCallData:]
	switch o.kind {
	case opR1C:
		if o.loc == locNone {
			return 0, 0
		}
		return o.wire, o.wire + 1
	case opHint:
		j := skipExpressions(calldata, 3, int(calldata[2]))
		return calldata[j], calldata[j+1]
	case opBatchInverse:
		return pi.WireOffset, pi.WireOffset + calldata[1]
	case opLookup:
		return pi.WireOffset, pi.WireOffset + calldata[2]
	case opBlueprint:
		bp := r.Blueprints[pi.BlueprintID].(constraint.BlueprintSolvable[constraint.U64])
		return pi.WireOffset, pi.WireOffset + uint32(bp.NbOutputs(pi.Unpack(&r.System)))
	}
	return 0, 0
}

// reads calls visit for each wire op o reads (the unknown wire of an R1C
// too, which it writes) and returns true, or returns false when what o
// reads is not known here: a lookup reads entries of its table that any
// earlier level may have solved, another blueprint whatever it reads.
func (s *Solver) reads(o *op, visit func(uint32)) bool {
	r := s.r1cs
	switch o.kind {
	case opR1C:
		s.rowWires(s.terms[o.t:o.t+uint64(o.nL+o.nR+o.nO)], o, visit)
		if o.loc != locNone {
			visit(o.wire)
		}
	case opHint:
		calldata := r.CallData[r.Instructions[o.inst].StartCallData:]
		visitExpressions(calldata, 3, int(calldata[2]), visit)
	case opBatchInverse:
		calldata := r.CallData[r.Instructions[o.inst].StartCallData:]
		visitExpressions(calldata, 2, int(calldata[1]), visit)
	case opLookup, opBlueprint:
		return false
	}
	return true
}

// visitExpressions calls visit for each wire of n linear expressions
// starting at calldata[j], constant terms left out.
func visitExpressions(calldata []uint32, j, n int, visit func(uint32)) {
	for i := 0; i < n; i++ {
		m := int(calldata[j])
		for k := 0; k < m; k++ {
			if w := calldata[j+2+2*k]; w != constantWire {
				visit(w)
			}
		}
		j += 1 + 2*m
	}
}

// everyRowR1C reports whether each constraint of the system is the row of
// exactly one R1C instruction.
func (s *Solver) everyRowR1C() bool {
	m := s.r1cs.GetNbConstraints()
	seen := make([]bool, m)
	n := 0
	for i := range s.ops {
		if o := &s.ops[i]; o.kind == opR1C {
			if int(o.cid) >= m || seen[o.cid] {
				return false
			}
			seen[o.cid] = true
			n++
		}
	}
	return n == m
}

// wordsOf returns, for each coefficient, x+1 when it is the integer x below
// 2³²−1, and 0 otherwise (readBits reads a constant term through it), from
// the coefficients' small integers (smallCoeffsOf).
func wordsOf(coeffs []fr.Element, small []smallCoeff) []uint32 {
	words := make([]uint32, len(coeffs))
	for i, c := range small {
		switch {
		case coeffs[i].IsZero():
			words[i] = 1
		case !c.neg && c.k != 0 && c.k < 1<<32-1:
			words[i] = uint32(c.k) + 1
		}
	}
	return words
}
