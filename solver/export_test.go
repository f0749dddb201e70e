package solver

import (
	"math/big"

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
