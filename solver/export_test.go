package solver

import (
	"math/big"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// SetParallelism makes every solve use tasks goroutines, cut levels of
// more than 2·minCost into tasks, and take the checks in blocks of
// max(minCost, 4); it returns a function restoring the defaults.
func SetParallelism(tasks int, minCost int64) (restore func()) {
	oldTasks, oldCost, oldBlock := forceTasks, minTaskCost, checkBlock
	forceTasks, minTaskCost = tasks, minCost
	if tasks > 0 {
		checkBlock = max(minCost, 4)
	}
	return func() { forceTasks, minTaskCost, checkBlock = oldTasks, oldCost, oldBlock }
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
