package bls12381

import (
	"fmt"
	"math/big"
	"sort"
	"strings"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark/backend/witness"
	csolver "github.com/consensys/gnark/constraint/solver"
)

// SetParallelism makes every solve use tasks goroutines (0: the default),
// split every level whose estimated work exceeds minCost among them, and
// cut an instruction's own work into parts of minCost; it returns a
// function restoring the defaults.
func SetParallelism(tasks int, minCost int64) (restore func()) {
	oldTasks, oldCost, oldChunk := forceTasks, minTaskCost, minChunkCost
	forceTasks, minTaskCost, minChunkCost = tasks, minCost, minCost
	return func() { forceTasks, minTaskCost, minChunkCost = oldTasks, oldCost, oldChunk }
}

// SetTasks makes every solve use tasks goroutines, the rest of the
// defaults kept; it returns a function restoring the default.
func SetTasks(tasks int) (restore func()) {
	old := forceTasks
	forceTasks = tasks
	return func() { forceTasks = old }
}

// SetScheduleHook makes every worker of a solve call hook(worker, chunk)
// before each of its chunks, once the chunks it waits for are done; with
// dropWaits it does not wait at all (a broken schedule, for the test that
// shows the waits matter). It returns a function restoring the defaults.
func SetScheduleHook(hook func(worker, chunk int), dropWaits bool) (restore func()) {
	testHook, testDropWaits = hook, dropWaits
	return func() { testHook, testDropWaits = nil, false }
}

// ScheduleStats describes s's schedule on tasks workers: how many chunks
// and how many waits between them.
func (s *Solver) ScheduleStats(tasks int) (chunks, waits int) {
	sc := s.scheduleFor(tasks, s.checksApart(tasks))
	return len(sc.chunks), len(sc.waits)
}

// RemoteReads counts, in s's schedule on tasks workers, the wires the
// instructions read (a lookup's or an opaque blueprint's not counted) and
// those of them that another worker solved: the values that move between
// cores' caches in a solve.
func (s *Solver) RemoteReads(tasks int) (reads, remote int) {
	sc := s.scheduleFor(tasks, s.checksApart(tasks))
	producer := make([]int32, s.nbWires)
	for i := range producer {
		producer[i] = -1
	}
	for i := range s.ops {
		lo, hi := s.outputs(&s.ops[i])
		for w := lo; w < hi; w++ {
			producer[w] = int32(i)
		}
	}
	worker := make([]int32, len(s.ops))
	for w := 0; w < sc.nt; w++ {
		for c := sc.wStart[w]; c < sc.wStart[w+1]; c++ {
			for _, i := range sc.order[sc.chunks[c].lo:sc.chunks[c].hi] {
				worker[i] = int32(w)
			}
		}
	}
	for i := range s.ops {
		s.reads(&s.ops[i], func(wire uint32) {
			if p := producer[wire]; p >= 0 && p != int32(i) {
				reads++
				if worker[p] != worker[i] {
					remote++
				}
			}
		})
	}
	return reads, remote
}

// SimulatedSpeedup runs s's schedule on tasks workers in a model where an
// instruction takes its estimated cost and each wait waitCost more, and
// returns the work of all instructions over the model's makespan: the
// speedup the schedule allows over one worker, load balance and waits
// counted, memory and hint calls' real costs not. An instruction of more
// than 64·minTaskCost is taken as cut into parts on every worker, as the
// large batch inverses, count hints and hint input lists are. With the
// checks apart, they come after the schedule, an equal share a worker.
func (s *Solver) SimulatedSpeedup(tasks int, waitCost int64) float64 {
	est := make([]int64, len(s.ops))
	for i := range est {
		est[i] = s.cost[i+1] - s.cost[i]
	}
	return s.SimulatedSpeedupOf(tasks, waitCost, est)
}

// SimulatedSpeedupOf is SimulatedSpeedup with the instructions' costs
// given (cost[i] of op i, in any unit; waitCost in the same), the
// schedule still built on the estimated ones; an instruction whose
// estimate is of 64·minTaskCost or more is taken as cut into parts.
func (s *Solver) SimulatedSpeedupOf(tasks int, waitCost int64, cost []int64) float64 {
	sc := s.scheduleFor(tasks, s.checksApart(tasks))
	finish := make([]int64, len(sc.chunks))
	type ref struct{ w, c int }
	var all []ref
	for w := 0; w < sc.nt; w++ {
		for c := sc.wStart[w]; c < sc.wStart[w+1]; c++ {
			all = append(all, ref{w, c})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return sc.chunks[all[i].c].level < sc.chunks[all[j].c].level })
	var makespan, total int64
	for _, c := range cost {
		total += c
	}
	for _, r := range all {
		ch := sc.chunks[r.c]
		start := int64(0)
		if r.c > sc.wStart[r.w] {
			start = finish[r.c-1]
		}
		for _, wt := range sc.waits[ch.waitLo:ch.waitHi] {
			start = max(start, finish[sc.wStart[wt.worker]+int(wt.done)-1]) + waitCost
		}
		work := int64(0)
		for _, i := range sc.order[ch.lo:ch.hi] {
			c := cost[i]
			if s.cost[i+1]-s.cost[i] >= 64*minTaskCost {
				c /= int64(tasks) // cut into parts on every core (batchInverse, countQueries, readInputs)
			}
			work += c
		}
		finish[r.c] = start + work
		makespan = max(makespan, finish[r.c])
	}
	if s.checksApart(tasks) {
		// the checks after the wires, shared out equally
		var checks int64
		for _, i := range s.checks {
			checks += cost[i]
		}
		makespan += (checks + int64(tasks) - 1) / int64(tasks)
	}
	return float64(total) / float64(makespan)
}

// OpTimes solves w on one goroutine one instruction at a time (each a
// chunk of its own), reps times, and returns each instruction's least time
// in ns (the others count a preemption or a cold cache), and the time a
// clock reading takes. An R1C that divides, or an InvZeroHint, inverts
// alone here: its time counts three products in place of that inversion,
// as in a chunk's batch inversion.
func (s *Solver) OpTimes(w witness.Witness, reps int, opts ...csolver.Option) (ns []int64, clock int64, err error) {
	cfg, err := csolver.NewConfig(opts...)
	if err != nil {
		return nil, 0, err
	}
	t0 := time.Now()
	for range 1000 {
		_ = time.Since(t0)
	}
	clock = int64(time.Since(t0)) / 1000
	var x, y fr.Element
	x.SetRandom()
	t0 = time.Now()
	for range 1000 {
		y.Inverse(&x)
		x.Add(&x, &y)
	}
	inverse := int64(time.Since(t0)) / 1000
	t0 = time.Now()
	for range 1000 {
		y.Mul(&x, &y)
	}
	product := int64(time.Since(t0)) / 1000

	ns = make([]int64, len(s.ops))
	for r := range reps {
		st := s.getState()
		st.start(w.Vector().(fr.Vector), &cfg, 1, Vectors{})
		st.nt = 1
		sc := st.scratch[0]
		for i := range s.ops {
			t := time.Now()
			if err := st.chunk([]uint32{uint32(i)}, sc); err != nil {
				s.putState(st)
				return nil, 0, err
			}
			d := int64(time.Since(t)) - clock
			o := &s.ops[i]
			divides := o.kind == opR1C && (o.loc == locL || o.loc == locR)
			if o.kind == opHint && s.kindName(o) == "solver.InvZeroHint" {
				lo, _ := s.outputs(o)
				divides = !st.values[lo].IsZero()
			}
			if divides {
				d -= inverse - 3*product
			}
			d = max(d, 1)
			if r == 0 || d < ns[i] {
				ns[i] = d
			}
		}
		s.putState(st)
	}
	return ns, clock, nil
}

// ScheduleOn makes s schedule its instructions on the costs given
// (cost[i] of op i, scaled to the estimates' units) instead of its
// estimates, and returns a function restoring them.
func (s *Solver) ScheduleOn(cost []int64) (restore func()) {
	s.schedMu.Lock()
	old, oldScheds := s.cost, s.scheds
	s.cost, s.scheds = make([]int64, len(cost)+1), nil
	var total float64
	for _, c := range cost {
		total += float64(c)
	}
	scale := float64(old[len(old)-1]) / total
	for i, c := range cost {
		s.cost[i+1] = s.cost[i] + max(int64(float64(c)*scale), 1)
	}
	s.schedMu.Unlock()
	return func() {
		s.schedMu.Lock()
		s.cost, s.scheds = old, oldScheds
		s.schedMu.Unlock()
	}
}

// KindName names op i's kind as PathStats does.
func (s *Solver) KindName(i int) string { return s.kindName(&s.ops[i]) }

// EstimatedCost is op i's estimated cost.
func (s *Solver) EstimatedCost(i int) int64 { return s.cost[i+1] - s.cost[i] }

// RationalReconstructExtHint is the native form of gnark's
// sw_emulated.rationalReconstructExt hint.
var RationalReconstructExtHint = rationalReconstructExtHint

// RationalReconstructExtName is the name gnark registers that hint under.
const RationalReconstructExtName = rationalReconstructExtName

// EmulatedHintNative computes the emulated hint registered under name
// (mulHint or polyMvHint) as the solver does, for inputs in and nbOut
// outputs; ok is false where it leaves the call to gnark's function.
func EmulatedHintNative(name string, in []*big.Int, nbOut int) (out []fr.Element, ok bool) {
	fin := make([]fr.Element, len(in))
	for i := range in {
		fin[i].SetBigInt(in[i])
	}
	out = make([]fr.Element, nbOut)
	switch name {
	case mulHintName:
		var ms mulScratch
		if !ms.compute(fin, nbOut) {
			return nil, false
		}
		for i := range out {
			ms.output(&out[i], i)
		}
	case polyMvHintName:
		var ps polyScratch
		if !ps.compute(fin, nbOut) {
			return nil, false
		}
		for i := range out {
			ps.output(&out[i], i)
		}
	default:
		return nil, false
	}
	return out, true
}

// MulHintName and PolyMvHintName are the names gnark registers those hints under.
const (
	MulHintName    = mulHintName
	PolyMvHintName = polyMvHintName
)

// Shape returns s's total estimated work, the sum over levels of each
// level's costliest instruction, the costliest path through the
// instructions' reads, and the costliest instructions' costs and kinds.
func (s *Solver) Shape() (total, levelMax, path int64, top []string) {
	n := len(s.ops)
	total = s.cost[n]
	for l := 0; l+1 < len(s.levels); l++ {
		m := int64(0)
		for i := s.levels[l]; i < s.levels[l+1]; i++ {
			m = max(m, s.cost[i+1]-s.cost[i])
		}
		levelMax += m
	}
	producer := make([]int32, s.nbWires)
	for i := range producer {
		producer[i] = -1
	}
	for i := range s.ops {
		lo, hi := s.outputs(&s.ops[i])
		for w := lo; w < hi; w++ {
			producer[w] = int32(i)
		}
	}
	end := make([]int64, n)
	levelEnd := make([]int64, len(s.levels))
	for l := 0; l+1 < len(s.levels); l++ {
		for i := s.levels[l]; i < s.levels[l+1]; i++ {
			start := int64(0)
			if !s.reads(&s.ops[i], func(w uint32) {
				if p := producer[w]; p >= 0 && int(p) < s.levels[l] {
					start = max(start, end[p])
				}
			}) && l > 0 {
				start = levelEnd[l-1]
			}
			end[i] = start + s.cost[i+1] - s.cost[i]
			path = max(path, end[i])
		}
		levelEnd[l] = path
		if l > 0 {
			levelEnd[l] = max(levelEnd[l], levelEnd[l-1])
		}
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return s.cost[idx[a]+1]-s.cost[idx[a]] > s.cost[idx[b]+1]-s.cost[idx[b]] })
	for _, i := range idx[:min(5, n)] {
		o := &s.ops[i]
		name := fmt.Sprint("kind ", o.kind)
		if o.kind == opHint {
			name = s.r1cs.MHintsDependencies[s.hintIDs[o.slot]]
		}
		top = append(top, fmt.Sprintf("%d (%s)", s.cost[i+1]-s.cost[i], name))
	}
	return
}

// PathStats describes the dependency graph of a circuit's instructions:
// what bounds a solve on many cores. Work and Path are in the estimated
// cost units of the schedule (about one term's multiply-add).
type PathStats struct {
	Ops, Solving, Checks int   // instructions; R1Cs that solve a wire; R1Cs that solve none
	Work, CheckWork      int64 // estimated work of all instructions, of the checks
	// PathOps is the longest chain of instructions, each counted once,
	// where an instruction follows the latest producer of a wire it reads
	// (a lookup or an opaque blueprint follows every earlier level).
	PathOps int
	// Path is the costliest chain, an instruction of at least
	// 64·minTaskCost taken as cut into parts on nt cores (as large batch
	// inverses and count hints are; a hint called through big.Ints, as the
	// commitment's, is not: only its inputs are read in parts); PathLinks
	// is its instructions and PathKinds its cost by kind of instruction.
	Path      int64
	PathLinks int
	PathKinds map[string]int64
}

// CriticalPath computes s's PathStats for a solve on nt cores.
func (s *Solver) CriticalPath(nt int) PathStats {
	n := len(s.ops)
	ps := PathStats{Ops: n, Work: s.cost[n], PathKinds: map[string]int64{}}
	producer := make([]int32, s.nbWires)
	for i := range producer {
		producer[i] = -1
	}
	for i := range s.ops {
		lo, hi := s.outputs(&s.ops[i])
		for w := lo; w < hi; w++ {
			producer[w] = int32(i)
		}
	}
	weight := func(i int) int64 {
		c := s.cost[i+1] - s.cost[i]
		if c >= 64*minTaskCost && !s.serialHint(&s.ops[i]) {
			c /= int64(nt)
		}
		return c
	}
	endOps := make([]int32, n)  // the longest chain ending at op i, in ops
	endCost := make([]int64, n) // the costliest chain ending at op i
	prev := make([]int32, n)    // op i's predecessor on its costliest chain
	// levelTop[l]: the op ending the longest and the costliest chain up
	// to the end of level l, for the instructions whose reads are unknown.
	levelTopOps := make([]int32, len(s.levels))
	levelTopCost := make([]int32, len(s.levels))
	bestOps, bestCost := int32(-1), int32(-1)
	for l := 0; l+1 < len(s.levels); l++ {
		lo := s.levels[l]
		for i := lo; i < s.levels[l+1]; i++ {
			o := &s.ops[i]
			if o.kind == opR1C {
				if o.loc == locNone {
					ps.Checks++
					ps.CheckWork += s.cost[i+1] - s.cost[i]
				} else {
					ps.Solving++
				}
			}
			pOps, pCost := int32(-1), int32(-1)
			if !s.reads(o, func(w uint32) {
				p := producer[w]
				if p < 0 || int(p) >= lo {
					return
				}
				if pOps < 0 || endOps[p] > endOps[pOps] {
					pOps = p
				}
				if pCost < 0 || endCost[p] > endCost[pCost] {
					pCost = p
				}
			}) && l > 0 {
				pOps, pCost = levelTopOps[l-1], levelTopCost[l-1]
			}
			endOps[i], endCost[i], prev[i] = 1, weight(i), pCost
			if pOps >= 0 {
				endOps[i] += endOps[pOps]
			}
			if pCost >= 0 {
				endCost[i] += endCost[pCost]
			}
			if bestOps < 0 || endOps[i] > endOps[bestOps] {
				bestOps = int32(i)
			}
			if bestCost < 0 || endCost[i] > endCost[bestCost] {
				bestCost = int32(i)
			}
		}
		levelTopOps[l], levelTopCost[l] = bestOps, bestCost
	}
	if bestOps < 0 {
		return ps
	}
	ps.PathOps = int(endOps[bestOps])
	ps.Path = endCost[bestCost]
	for i := bestCost; i >= 0; i = prev[i] {
		ps.PathLinks++
		ps.PathKinds[s.kindName(&s.ops[i])] += weight(int(i))
	}
	return ps
}

// serialHint reports whether o is a hint whose function is called
// through big.Ints: the solve cuts only the reading of its inputs into
// parts, and the function runs alone.
func (s *Solver) serialHint(o *op) bool {
	if o.kind != opHint {
		return false
	}
	_, native := nativeHints[s.r1cs.MHintsDependencies[s.hintIDs[o.slot]]]
	return !native
}

// kindName names an instruction's kind for PathStats.
func (s *Solver) kindName(o *op) string {
	switch o.kind {
	case opR1C:
		switch o.loc {
		case locNone:
			return "check"
		case locO:
			return "r1c"
		}
		return "r1c-div"
	case opHint:
		name := s.r1cs.MHintsDependencies[s.hintIDs[o.slot]]
		return name[strings.LastIndexByte(name, '/')+1:]
	case opBatchInverse:
		return "batch-inverse"
	case opLookup:
		return "lookup"
	case opBlueprint:
		return "blueprint"
	}
	return "other"
}
