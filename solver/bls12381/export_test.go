package bls12381

import (
	"fmt"
	"math/big"
	"sort"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
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
	sc := s.scheduleFor(tasks)
	return len(sc.chunks), len(sc.waits)
}

// SimulatedSpeedup runs s's schedule on tasks workers in a model where an
// instruction takes its estimated cost and each wait waitCost more, and
// returns the work of all instructions over the model's makespan: the
// speedup the schedule allows over one worker, load balance and waits
// counted, memory and hint calls' real costs not. An instruction of more
// than 64·minTaskCost is taken as cut into parts on every worker, as the
// large batch inverses, count hints and hint input lists are.
func (s *Solver) SimulatedSpeedup(tasks int, waitCost int64) float64 {
	sc := s.scheduleFor(tasks)
	finish := make([]int64, len(sc.chunks))
	type ref struct{ w, c int }
	var all []ref
	for w := 0; w < sc.nt; w++ {
		for c := sc.wStart[w]; c < sc.wStart[w+1]; c++ {
			all = append(all, ref{w, c})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return sc.chunks[all[i].c].level < sc.chunks[all[j].c].level })
	var makespan int64
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
			c := s.cost[i+1] - s.cost[i]
			if c >= 64*minTaskCost {
				c /= int64(tasks) // cut into parts on every core (batchInverse, countQueries, readInputs)
			}
			work += c
		}
		finish[r.c] = start + work
		makespan = max(makespan, finish[r.c])
	}
	return float64(s.cost[len(s.cost)-1]) / float64(makespan)
}

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
