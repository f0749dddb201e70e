package backend

// UrgentQueuer is implemented by backends whose queues can take a
// priority: the CUDA backend's NewUrgentQueue is a stream of the device's
// highest priority, whose kernels' blocks the GPU schedules before those
// of other streams waiting for room (work already running is not
// preempted). A short chain of work that others wait for (a proof's H
// computation, which the Z MSM needs) then runs at once beside long
// kernels instead of behind them.
type UrgentQueuer interface {
	// NewUrgentQueue creates an ordered work queue of the highest
	// priority. It is a Queue like any other in every other respect.
	NewUrgentQueue() (Queue, error)
}

// NewUrgentQueue returns b.NewUrgentQueue() when b implements
// UrgentQueuer, else b.NewQueue(): priorities only order work, so a queue
// without one is correct, only not first.
func NewUrgentQueue(b Backend) (Queue, error) {
	if u, ok := b.(UrgentQueuer); ok {
		return u.NewUrgentQueue()
	}
	return b.NewQueue()
}
