package solver

// SetParallelism makes every solve use tasks goroutines and cut levels of
// more than 2·minCost into tasks; it returns a function restoring the
// defaults.
func SetParallelism(tasks int, minCost int64) (restore func()) {
	oldTasks, oldCost := forceTasks, minTaskCost
	forceTasks, minTaskCost = tasks, minCost
	return func() { forceTasks, minTaskCost = oldTasks, oldCost }
}
