package solver

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
