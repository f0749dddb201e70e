package gnarkio

import (
	"fmt"
	"math"

	"github.com/consensys/gnark/constraint"

	"github.com/g16prover/g16/curve"
)

// CheckR1CS checks a decoded system for what gnark's solver, which solves
// the instructions of a level on several goroutines, would panic on:
//
//   - a level naming an instruction that does not exist, or an instruction
//     listed twice;
//   - an instruction naming a blueprint that does not exist, call data
//     outside the table, or constraints past the system's count;
//   - a wire or coefficient index outside its table;
//   - an instruction reading a wire that no earlier level solves, a wire
//     solved twice, an input (public or secret) wire overwritten, an R1C
//     with more than one unknown wire, or an unknown wire whose
//     coefficient is zero (the solver divides by it).
//
// Hints name functions by ID; an unknown ID is an error of the solver, not
// a crash, and is not checked here.
//
// ccs must be gnark's R1CS of a curve g16 proves on.
func CheckR1CS(ccs constraint.ConstraintSystem) error {
	if ccs == nil {
		return fmt.Errorf("nil system: %w", ErrCorrupt)
	}
	var (
		r        *constraint.System
		nbCoeffs int
		ok       bool
	)
	for _, rd := range readers {
		if r, nbCoeffs, ok = rd.system(ccs); ok {
			break
		}
	}
	if !ok {
		return fmt.Errorf("a %T is not gnark's R1CS over %s: %w", ccs, curve.SupportedNames(), ErrUnsupported)
	}
	return checkSystem(r, uint64(nbCoeffs))
}

// checkSystem is CheckR1CS for the curve-neutral part of a system whose
// coefficient table holds nbCoeffs values.
func checkSystem(r *constraint.System, nbCoeffs uint64) error {
	nbInputs := uint64(len(r.Public)) + uint64(len(r.Secret))
	if r.NbInternalVariables < 0 {
		return fmt.Errorf("%d internal variables: %w", r.NbInternalVariables, ErrCorrupt)
	}
	// Every internal wire is the output of an instruction; bound the count
	// by what the instructions can solve before allocating per wire (the
	// solver allocates as much again).
	outputs, err := countOutputs(r)
	if err != nil {
		return err
	}
	if uint64(r.NbInternalVariables) > outputs {
		return fmt.Errorf("%d internal variables, but the instructions solve at most %d: %w", r.NbInternalVariables, outputs, ErrCorrupt)
	}
	tree := &wireTree{
		nbInputs: nbInputs,
		nbWires:  nbInputs + uint64(r.NbInternalVariables),
		level:    make([]constraint.Level, r.NbInternalVariables),
	}
	for i := range tree.level {
		tree.level[i] = constraint.LevelUnset
	}
	nbConstraints := uint64(r.GetNbConstraints())
	seen := make([]bool, len(r.Instructions))
	for li, level := range r.Levels {
		for _, id := range level {
			if uint64(id) >= uint64(len(r.Instructions)) {
				return fmt.Errorf("level %d names instruction %d of %d: %w", li, id, len(r.Instructions), ErrCorrupt)
			}
			if seen[id] {
				return fmt.Errorf("instruction %d is listed twice in the levels: %w", id, ErrCorrupt)
			}
			seen[id] = true
			if err := checkInstruction(r, int(id), li, tree, nbCoeffs, nbConstraints); err != nil {
				return fmt.Errorf("instruction %d (level %d): %w", id, li, err)
			}
		}
	}
	return nil
}

// countOutputs checks every instruction's blueprint and call data range,
// and returns how many wires the instructions can solve at most: one per
// R1C, a hint's output range, what other blueprints say (NbOutputs).
func countOutputs(r *constraint.System) (uint64, error) {
	var total uint64
	for id, pi := range r.Instructions {
		bp, inst, err := unpack(r, pi)
		if err != nil {
			return 0, fmt.Errorf("instruction %d: %w", id, err)
		}
		var n uint64
		switch b := bp.(type) {
		case constraint.BlueprintR1C:
			n = 1
		case constraint.BlueprintHint:
			var h constraint.HintMapping
			if _, err := guarded(func() bool { b.DecompressHint(&h, inst); return true }); err != nil {
				return 0, fmt.Errorf("instruction %d: %w: %w", id, err, ErrCorrupt)
			}
			if h.OutputRange.Start > h.OutputRange.End {
				return 0, fmt.Errorf("instruction %d: hint outputs [%d, %d): %w", id, h.OutputRange.Start, h.OutputRange.End, ErrCorrupt)
			}
			n = uint64(h.OutputRange.End - h.OutputRange.Start)
		default:
			k, err := guarded(func() int { return bp.NbOutputs(inst) })
			if err != nil || k < 0 {
				return 0, fmt.Errorf("instruction %d: %d outputs (%v): %w", id, k, err, ErrCorrupt)
			}
			n = uint64(k)
		}
		total += n
	}
	return total, nil
}

// unpack checks pi's blueprint and call data range and unpacks it.
func unpack(r *constraint.System, pi constraint.PackedInstruction) (constraint.Blueprint, constraint.Instruction, error) {
	if uint64(pi.BlueprintID) >= uint64(len(r.Blueprints)) || r.Blueprints[pi.BlueprintID] == nil {
		return nil, constraint.Instruction{}, fmt.Errorf("blueprint %d of %d: %w", pi.BlueprintID, len(r.Blueprints), ErrCorrupt)
	}
	bp := r.Blueprints[pi.BlueprintID]
	start, size := pi.StartCallData, uint64(0)
	if start > uint64(len(r.CallData)) {
		return nil, constraint.Instruction{}, fmt.Errorf("call data from %d of %d: %w", start, len(r.CallData), ErrCorrupt)
	}
	if cs := bp.CalldataSize(); cs >= 0 {
		size = uint64(cs)
	} else if start < uint64(len(r.CallData)) {
		size = uint64(r.CallData[start])
	} else {
		return nil, constraint.Instruction{}, fmt.Errorf("no call data length at %d: %w", start, ErrCorrupt)
	}
	if size > uint64(len(r.CallData))-start {
		return nil, constraint.Instruction{}, fmt.Errorf("%d call data values from %d of %d: %w", size, start, len(r.CallData), ErrCorrupt)
	}
	return bp, pi.Unpack(r), nil
}

func checkInstruction(r *constraint.System, id, li int, tree *wireTree, nbCoeffs, nbConstraints uint64) error {
	pi := r.Instructions[id]
	bp, inst, err := unpack(r, pi)
	if err != nil {
		return err
	}
	if uint64(pi.ConstraintOffset)+uint64(bp.NbConstraints()) > nbConstraints {
		return fmt.Errorf("constraints from %d past the system's %d: %w", pi.ConstraintOffset, nbConstraints, ErrCorrupt)
	}

	tree.at, tree.outs, tree.err = li, tree.outs[:0], nil
	lvl, err := guarded(func() constraint.Level { return bp.UpdateInstructionTree(inst, tree) })
	if err == nil {
		err = tree.err
	}
	if err != nil {
		return err
	}
	if int(lvl) > li {
		return fmt.Errorf("reads a wire solved at level %d or later: %w", lvl, ErrCorrupt)
	}
	terms := func(what string, exprs ...constraint.LinearExpression) error {
		for _, e := range exprs {
			for _, t := range e {
				if uint64(t.CID) >= nbCoeffs {
					return fmt.Errorf("%s: coefficient %d of %d: %w", what, t.CID, nbCoeffs, ErrCorrupt)
				}
				if t.VID != math.MaxUint32 && uint64(t.VID) >= tree.nbWires {
					return fmt.Errorf("%s: wire %d of %d: %w", what, t.VID, tree.nbWires, ErrCorrupt)
				}
			}
		}
		return nil
	}
	switch b := bp.(type) {
	case constraint.BlueprintR1C:
		var c constraint.R1C
		if _, err := guarded(func() bool { b.DecompressR1C(&c, inst); return true }); err != nil {
			return err
		}
		if err := terms("R1C", c.L, c.R, c.O); err != nil {
			return err
		}
		if len(tree.outs) > 1 {
			return fmt.Errorf("R1C with %d unknown wires: %w", len(tree.outs), ErrCorrupt)
		}
		for _, e := range []constraint.LinearExpression{c.L, c.R, c.O} {
			for _, t := range e {
				if tree.solvedHere(t.VID) && t.CID == constraint.CoeffIdZero {
					return fmt.Errorf("R1C's unknown wire %d has coefficient zero: %w", t.VID, ErrCorrupt)
				}
			}
		}
	case constraint.BlueprintHint:
		var h constraint.HintMapping
		if _, err := guarded(func() bool { b.DecompressHint(&h, inst); return true }); err != nil {
			return err
		}
		if err := terms("hint", h.Inputs...); err != nil {
			return err
		}
		if h.OutputRange.Start > h.OutputRange.End || uint64(h.OutputRange.End) > tree.nbWires {
			return fmt.Errorf("hint outputs [%d, %d) of %d wires: %w", h.OutputRange.Start, h.OutputRange.End, tree.nbWires, ErrCorrupt)
		}
	}
	return nil
}

// wireTree is a constraint.InstructionTree that checks what blueprints
// tell it: wires in range, each internal wire solved once, at the level
// being walked (at), never an input wire.
type wireTree struct {
	nbInputs, nbWires uint64
	level             []constraint.Level // by internal wire
	at                int
	outs              []uint32 // the wires the instruction being checked solves
	err               error
}

func (t *wireTree) fail(format string, args ...any) {
	if t.err == nil {
		t.err = fmt.Errorf(format+": %w", append(args, ErrCorrupt)...)
	}
}

func (t *wireTree) HasWire(w uint32) bool {
	if uint64(w) >= t.nbWires {
		if w != math.MaxUint32 {
			t.fail("wire %d of %d", w, t.nbWires)
		}
		return false
	}
	return uint64(w) >= t.nbInputs
}

func (t *wireTree) GetWireLevel(w uint32) constraint.Level {
	if !t.HasWire(w) {
		return constraint.LevelUnset
	}
	return t.level[uint64(w)-t.nbInputs]
}

func (t *wireTree) InsertWire(w uint32, _ constraint.Level) {
	switch {
	case uint64(w) >= t.nbWires:
		t.fail("solves wire %d of %d", w, t.nbWires)
	case uint64(w) < t.nbInputs:
		t.fail("solves input wire %d", w)
	case t.level[uint64(w)-t.nbInputs] != constraint.LevelUnset:
		t.fail("solves wire %d a second time", w)
	default:
		t.level[uint64(w)-t.nbInputs] = constraint.Level(t.at)
		t.outs = append(t.outs, w)
	}
}

// solvedHere says whether the instruction being checked solves w.
func (t *wireTree) solvedHere(w uint32) bool {
	for _, o := range t.outs {
		if o == w {
			return true
		}
	}
	return false
}
