package bls12381

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"runtime"
	"slices"
	"sync"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark/backend/witness"
	cs "github.com/consensys/gnark/constraint/bls12-381"
	csolver "github.com/consensys/gnark/constraint/solver"

	"github.com/g16prover/g16/solver/internal/gnarkcheck"
	"github.com/g16prover/g16/solver/internal/inflight"
)

// Solver solves one gnark BLS12-381 R1CS. New decodes the circuit once;
// Solve may then be called any number of times, from several goroutines at
// once. A Solver reads the R1CS it was made from at every Solve: the R1CS
// must not change after New.
type Solver struct {
	r1cs     *cs.R1CS
	fallback string // why gnark's solver solves this circuit; "" when we do

	nbWires int
	ops     []op             // the instructions, in level order (ops[i].rank == i)
	levels  []int            // ops[levels[i]:levels[i+1]] is level i
	cost    []int64          // cost[i] is the estimated work of ops[:i]
	terms   []uint32         // the R1Cs' rows (compileRows)
	hintIDs []csolver.HintID // the hints the circuit calls, by slot
	lookups []lookupTable
	tables  []constTable // count hints' constant tables

	// checks are the R1Cs that solve no wire, in constraint order, and
	// checkCost[k] the estimated work of checks[:k] (checks.go).
	checks    []uint32
	checkCost []int64

	// rowsWritten: every constraint is an R1C's, so a solve writes every
	// row of A, B and C.
	rowsWritten bool

	coeffInv   []fr.Element // 1/coefficient, for the coefficients of solved wires
	coeffHave  []bool
	coeffWords []uint32     // x+1 for a coefficient that is the integer x < 2³²−1, else 0
	coeffSmall []smallCoeff // the coefficients that are ±k, k < 2⁶⁴ (wide.go)

	// states are finished solves' states (wire flags, the workers'
	// scratch), kept for the next solves: at most GOMAXPROCS, in a list
	// the garbage collector leaves alone, as a batch's proofs collect
	// often and a sync.Pool loses its entries at collections.
	stateMu sync.Mutex
	states  []*state

	schedMu sync.Mutex
	scheds  map[schedKey]*schedule // by worker count
}

// New decodes r1cs for solving and schedules it on the workers of a solve
// with the default options (a solve on another number of workers schedules
// it on first use). It fails when the linked gnark is not the version whose
// constraint-system layout this package reads.
func New(r1cs *cs.R1CS) (*Solver, error) {
	if r1cs == nil {
		return nil, errors.New("solver: nil constraint system")
	}
	if err := gnarkcheck.Check(); err != nil {
		return nil, err
	}
	s := &Solver{r1cs: r1cs}
	reason, err := s.compile()
	if err != nil {
		return nil, err
	}
	if reason != "" {
		*s = Solver{r1cs: r1cs, fallback: reason}
		return s, nil
	}
	nt := tasks(&csolver.Config{}, 1)
	s.scheduleFor(nt, s.checksApart(nt)) // a lone solve's with the default options
	return s, nil
}

// Fallback returns why Solve hands this circuit to gnark's solver as a
// whole, or "" when Solve solves it itself.
func (s *Solver) Fallback() string { return s.fallback }

// Solve solves the circuit for a full witness, as gnark's (*cs.R1CS).Solve
// does with the same options: the same W, A, B and C (A, B and C of
// capacity the next power of two of the constraint count), the same hints
// called with the same inputs, and the same error for an unsatisfied
// constraint (a *cs.UnsatisfiedConstraintError naming it). ctx is checked
// between levels; when it is done, Solve returns ctx.Err().
func (s *Solver) Solve(ctx context.Context, w witness.Witness, opts ...csolver.Option) (*cs.R1CSSolution, error) {
	return s.SolveInto(ctx, w, Vectors{}, opts...)
}

// Vectors are the vectors of an earlier solution of the same circuit,
// handed back for a solve to fill instead of allocating its own (a batch
// of partitions reuses them: no fresh pages, less for the GC). A solve
// fills W when it holds at least one entry per wire, and A, B and C when
// their capacities are at least the next power of two of the constraint
// count; it allocates the others. Their contents do not matter: the solve
// writes every entry of what it fills (each wire, and each row of A, B and
// C when every constraint is an R1C's; else it clears A, B and C first).
type Vectors struct {
	W, A, B, C []fr.Element
}

// SolveInto is Solve, its solution filling buf's vectors that fit the
// circuit (see Vectors): the solution's W, A, B and C are then buf's,
// resliced. When gnark's solver solves the circuit (Fallback), the
// solution is allocated afresh and buf is left alone.
func (s *Solver) SolveInto(ctx context.Context, w witness.Witness, buf Vectors, opts ...csolver.Option) (*cs.R1CSSolution, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if w == nil {
		return nil, errors.New("solver: nil witness")
	}
	if s.fallback != "" {
		sol, err := s.r1cs.Solve(w, opts...)
		if err != nil {
			return nil, err
		}
		return sol.(*cs.R1CSSolution), nil
	}
	v, ok := w.Vector().(fr.Vector)
	if !ok {
		return nil, fmt.Errorf("solver: witness is %T, not a BLS12-381 vector", w.Vector())
	}
	cfg, err := csolver.NewConfig(opts...)
	if err != nil {
		return nil, err
	}
	r := s.r1cs
	if want := len(r.Public) - 1 + len(r.Secret); len(v) != want {
		return nil, fmt.Errorf("invalid witness size, got %d, expected %d", len(v), want)
	}
	var missing []string
	for id, name := range r.MHintsDependencies {
		if _, ok := cfg.HintFunctions[id]; !ok {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("solver missing hint(s): %v", missing)
	}

	active := inflight.Begin()
	defer inflight.End()
	st := s.getState()
	defer s.putState(st)
	st.start(v, &cfg, active, buf)
	err = st.solve(ctx)
	if err == nil && slices.Contains(st.solved, false) {
		err = errors.New("solver didn't assign a value to all wires")
	}
	st.printLogs() // after solving or failing, as gnark does
	if err != nil {
		return nil, err
	}
	sol := &cs.R1CSSolution{W: st.values, A: st.a, B: st.b, C: st.c}
	st.values, st.a, st.b, st.c = nil, nil, nil, nil
	return sol, nil
}

// Beside marks host work that runs beside the solves of the process until
// done is called: a batch's device pipeline, whose uploads and waits on
// the device take cores. While it is marked, every solve's waits poll
// briefly before they yield, as beside other solves (run.go).
func Beside() (done func()) { return inflight.Beside() }

// forceTasks, when positive, is the task count of every solve (for the
// tests, to run many tasks on few cores).
var forceTasks int

// state is one solve in flight. Its buffers other than the solution are
// kept for the next solve.
type state struct {
	s   *Solver
	q   *big.Int
	cfg *csolver.Config

	witness fr.Vector // the public and secret inputs
	values  []fr.Element
	solved  []bool
	words   []uint32 // words[w] is x+1 when wire w was set to word x this solve (setWordAt); 0 if not
	a, b, c []fr.Element

	hints  []csolver.Hint // by slot
	native []nativeHint   // by slot; nil: call hints[slot]

	scratch []*scratch // one per task
	nt      int        // tasks of this solve
	active  int        // solves in flight in the process when it started, itself included
	exec    exec       // the workers' progress
}

func (s *Solver) getState() *state {
	s.stateMu.Lock()
	if n := len(s.states); n > 0 {
		st := s.states[n-1]
		s.states[n-1] = nil
		s.states = s.states[:n-1]
		s.stateMu.Unlock()
		return st
	}
	s.stateMu.Unlock()
	return &state{s: s, q: s.r1cs.Field(), solved: make([]bool, s.nbWires), words: make([]uint32, s.nbWires)}
}

// putState keeps st's buffers for the next solve, and drops what belongs
// to the finished one (the caller's hint closures hold its data).
func (s *Solver) putState(st *state) {
	clear(st.hints)
	st.hints = st.hints[:0]
	st.native = st.native[:0]
	st.cfg, st.witness = nil, nil
	st.values, st.a, st.b, st.c = nil, nil, nil, nil
	s.stateMu.Lock()
	if len(s.states) < runtime.GOMAXPROCS(0) {
		s.states = append(s.states, st)
	}
	s.stateMu.Unlock()
}

// start resets st for a solve of witness v, one of active solves in
// flight, into buf's vectors when they fit.
func (st *state) start(v fr.Vector, cfg *csolver.Config, active int, buf Vectors) {
	s := st.s
	st.cfg = cfg
	st.nt = tasks(cfg, active)
	st.active = active
	st.witness = v
	st.reset(buf)
	for len(st.scratch) < st.nt {
		st.scratch = append(st.scratch, new(scratch))
	}
	st.hints = st.hints[:0]
	st.native = st.native[:0]
	for _, id := range s.hintIDs {
		f := cfg.HintFunctions[id]
		st.hints = append(st.hints, f)
		st.native = append(st.native, nativeFor(f, s.r1cs.MHintsDependencies[id]))
	}
}

// restart resets st's vectors for solving its witness again.
func (st *state) restart() {
	st.reset(Vectors{W: st.values, A: st.a, B: st.b, C: st.c})
}

// reset sets the solve's vectors, buf's when they fit, for a solve of its
// witness: the witness's wires solved, every other wire unsolved.
func (st *state) reset(buf Vectors) {
	s := st.s
	v := st.witness
	m := s.r1cs.GetNbConstraints()
	n := ecc.NextPowerOfTwo(uint64(m))
	// A, B and C start at 0, unless every row is an R1C's, which writes
	// it (s.rowsWritten); W needs no zeros: an instruction reads only
	// wires solved before it (the unknown term of an R1C is left out of
	// its rows) and a solve that leaves a wire unsolved fails. So a
	// solve into buf's vectors writes each of their entries once; fresh
	// vectors are made side by side when the solve has tasks (at 765k
	// constraints, 100 MB).
	vs := [4]struct {
		dst       *[]fr.Element
		buf       []fr.Element
		len, capa int
		zero      bool
	}{
		{&st.values, buf.W, s.nbWires, s.nbWires, false},
		{&st.a, buf.A, m, int(n), !s.rowsWritten},
		{&st.b, buf.B, m, int(n), !s.rowsWritten},
		{&st.c, buf.C, m, int(n), !s.rowsWritten},
	}
	if st.nt > 1 {
		var wg sync.WaitGroup
		for _, v := range vs[1:] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				*v.dst = fit(v.buf, v.len, v.capa, v.zero)
			}()
		}
		st.values = fit(buf.W, s.nbWires, s.nbWires, false)
		onCores(len(st.solved), func(lo, hi int) {
			clear(st.solved[lo:hi])
			clear(st.words[lo:hi])
		})
		wg.Wait()
	} else {
		for _, v := range vs {
			*v.dst = fit(v.buf, v.len, v.capa, v.zero)
		}
		clear(st.solved)
		clear(st.words)
	}
	st.values[0].SetOne()
	st.solved[0] = true
	copy(st.values[1:], v)
	for i := range v {
		st.solved[i+1] = true
	}
}

// fit is buf[:n], cleared when zero is set, if buf's capacity is at
// least capa, else a new vector of n zeros and capacity capa.
func fit(buf []fr.Element, n, capa int, zero bool) []fr.Element {
	if cap(buf) < capa {
		return make([]fr.Element, n, capa)
	}
	buf = buf[:n]
	if zero {
		clear(buf)
	}
	return buf
}

// minParallel is the fewest cores on which a solve uses more than one
// goroutine (BENCHMARKS.md: "The solver on two tasks below 8 cores", and
// the point-to-point schedule's runs).
const minParallel = 2

// tasks is how many goroutines a solve uses when active solves (itself
// included) are in flight: tasksFor the process's GOMAXPROCS.
func tasks(cfg *csolver.Config, active int) int {
	if forceTasks > 0 {
		return forceTasks
	}
	return tasksFor(runtime.GOMAXPROCS(0), active, cfg.NbTasks)
}

// tasksFor shares procs cores among active solves: each gets
// procs/active, at most nbTasks (when positive), and one when that is
// below minParallel. Several solves at once (a batch's partitions) thus
// each run on fewer workers, where a schedule wastes less in waits (the
// modelled speedup of sha256-400B's schedule is 1.9 on 2 workers, 7.1 on 8
// and 13 on 16: BenchmarkSchedule), instead of every solve running on every
// core and their workers waiting on each other's preempted ones.
func tasksFor(procs, active, nbTasks int) int {
	n := procs / max(active, 1)
	if n < minParallel {
		return 1
	}
	if nbTasks > 0 && nbTasks < n {
		n = nbTasks
	}
	return max(n, 1)
}
