package pool

// Worker is what an instrumenting wrapper (WithInstrument) knows about the
// worker whose calls it sees. Its methods are meant to be called from
// inside the wrapper's methods, on the worker's goroutine.
type Worker struct {
	Device int // the device's index in the Run
	ID     int // the worker's number on its device; -1 for the pool itself

	partition int
	staging   bool
	compute   bool
}

// Partition is the index of the job the worker is running, or -1.
func (w *Worker) Partition() int { return w.partition }

// Holds reports whether the worker holds region r.
func (w *Worker) Holds(r Region) bool {
	switch r {
	case RegionStaging:
		return w.staging
	case RegionCompute:
		return w.compute
	}
	return false
}

// region is the innermost device region the worker holds, for the trace.
func (w *Worker) region() Region {
	switch {
	case w.compute:
		return RegionCompute
	case w.staging:
		return RegionStaging
	}
	return ""
}
