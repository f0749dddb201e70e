package bls12381

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark/constraint"
	cs "github.com/consensys/gnark/constraint/bls12-381"
	"github.com/rs/zerolog"
)

// unsatisfied wraps err as gnark names an unsatisfied constraint: its
// index, and the circuit's debug information for it when there is some.
func (st *state) unsatisfied(cid uint32, err error) error {
	r := st.s.r1cs
	e := &cs.UnsatisfiedConstraintError{CID: int(cid), Err: err}
	if id, ok := r.MDebug[int(cid)]; ok {
		info := st.logValue(&r.DebugInfo[id])
		e.DebugInfo = &info
	}
	return e
}

// printLogs writes the circuit's Println entries to the solver options'
// logger, at debug level, as gnark's solver does after solving.
func (st *state) printLogs() {
	logger := st.cfg.Logger
	if logger.GetLevel() == zerolog.Disabled {
		return
	}
	for i := range st.s.r1cs.Logs {
		l := &st.s.r1cs.Logs[i]
		logger.Debug().Str(zerolog.CallerFieldName, l.Caller).Msg(st.logValue(l))
	}
}

// logValue formats a log or debug entry with the values of its
// expressions ("<unsolved>" for one with an unsolved wire) and its stack.
func (st *state) logValue(l *constraint.LogEntry) string {
	r := st.s.r1cs
	var args []any
	for _, le := range l.ToResolve {
		var sum fr.Element
		unsolved := false
		for _, t := range le {
			if t.IsConstant() {
				sum.Add(&sum, &r.Coefficients[t.CID])
				continue
			}
			if !st.solved[t.VID] {
				unsolved = true
				break
			}
			var v fr.Element
			v.Mul(&r.Coefficients[t.CID], &st.values[t.VID])
			sum.Add(&sum, &v)
		}
		if unsolved {
			args = append(args, "<unsolved>")
		} else {
			args = append(args, sum.String())
		}
	}
	if len(l.Stack) > 0 {
		var b strings.Builder
		for _, id := range l.Stack {
			loc := r.SymbolTable.Locations[id]
			fn := r.SymbolTable.Functions[loc.FunctionID]
			b.WriteString(fn.Name)
			b.WriteString("\n\t")
			b.WriteString(fn.Filename)
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(int(loc.Line)))
			b.WriteByte('\n')
		}
		args = append(args, b.String())
	}
	return fmt.Sprintf(l.Format, args...)
}
