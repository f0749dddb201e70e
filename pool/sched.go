package pool

import "sync"

// item is a job waiting for a solver or a device worker.
type item struct {
	job     int
	attempt int
	exclude int   // a device not to run on (the one that failed); -1: none
	first   error // the first attempt's error, when retried
}

// quarantineAfter is how many device failures in a row take a device out
// of the rotation.
const quarantineAfter = 2

// sched hands items to solvers (pending: Prepare not yet run) and then to
// device workers (ready), across devices.
type sched struct {
	mu      sync.Mutex
	cond    *sync.Cond
	pending []*item // not yet prepared, in job order
	ready   []*item // prepared (or retried), waiting for a device worker
	left    int     // jobs not yet finished or failed
	stopped bool

	solving solving // how many Prepares run at once: solve.go

	// failures counts each device's device failures since its last
	// success. A device at quarantineAfter or more is quarantined: its
	// workers take only items that no healthy device may run, so a dead
	// device stops eating partitions while the others work, yet no item
	// is ever stranded.
	failures []int
	// lost marks the devices that reported backend.ErrDeviceLost: they
	// take no more items in this Run. lostErr is the first such error.
	lost    []bool
	lostErr error
}

func (s *sched) healthyLocked(dev int) bool { return !s.lost[dev] && s.failures[dev] < quarantineAfter }

// runnableLocked says whether a worker of device dev may take it.
func (s *sched) runnableLocked(it *item, dev int) bool {
	if s.lost[dev] {
		return false
	}
	if it.exclude == dev {
		// Back where it failed only when no other device is left.
		for d := range s.lost {
			if d != dev && !s.lost[d] {
				return false
			}
		}
		return true
	}
	if s.healthyLocked(dev) {
		return true
	}
	for d := range s.failures {
		if d != dev && d != it.exclude && s.healthyLocked(d) {
			return false // a healthy device will take it
		}
	}
	return true
}

// usableLocked says whether any device is not lost.
func (s *sched) usableLocked() bool {
	for _, l := range s.lost {
		if !l {
			return true
		}
	}
	return false
}

// lose takes dev out of the Run for good, after it reported err (which
// matches backend.ErrDeviceLost). When no device is left, it removes and
// returns the pending items, which no device will run; the caller fails
// them. newly says whether dev was not lost before.
func (s *sched) lose(dev int, err error) (stranded []*item, newly bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	newly = !s.lost[dev]
	s.lost[dev] = true
	if s.lostErr == nil {
		s.lostErr = err
	}
	s.cond.Broadcast()
	if s.usableLocked() {
		return nil, newly
	}
	stranded = append(s.pending, s.ready...)
	s.solving.held -= len(s.ready) // prepared: they held host slots
	s.pending, s.ready = nil, nil
	s.left -= len(stranded)
	return stranded, newly
}

// isLost says whether dev is lost.
func (s *sched) isLost(dev int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lost[dev]
}

// allLost returns the first device-lost error once every device is lost;
// nil while one is left.
func (s *sched) allLost() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.usableLocked() {
		return nil
	}
	return s.lostErr
}

// next blocks until a prepared item that may run on device dev is ready,
// and returns it; nil once the Run is over or stopped, or dev is lost.
func (s *sched) next(dev int) *item {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		if s.stopped || s.left == 0 || s.lost[dev] {
			return nil
		}
		for i, it := range s.ready {
			if s.runnableLocked(it, dev) {
				s.ready = append(s.ready[:i], s.ready[i+1:]...)
				s.cond.Broadcast() // room in ready: a solver may start
				return it
			}
		}
		s.cond.Wait()
	}
}

// deviceOutcome records whether device work on dev succeeded, and reports
// whether dev has just been quarantined.
func (s *sched) deviceOutcome(dev int, ok bool) (quarantined bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ok {
		if !s.healthyLocked(dev) {
			s.cond.Broadcast() // back in the rotation: its idle workers may take work
		}
		s.failures[dev] = 0
		return false
	}
	s.failures[dev]++
	s.cond.Broadcast() // other devices' workers may now take what dev would have
	return s.failures[dev] == quarantineAfter
}

// settle records that a job taken by nextToPrepare has finished or failed
// for good: it gives back its host slot.
func (s *sched) settle() {
	s.mu.Lock()
	s.left--
	s.solving.held--
	s.cond.Broadcast()
	s.mu.Unlock()
}

// retry puts it back, prepared, ahead of the jobs not yet started. It
// returns false, and leaves it out, when every device is lost.
func (s *sched) retry(it *item) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.usableLocked() {
		return false
	}
	s.ready = append([]*item{it}, s.ready...)
	s.cond.Broadcast()
	return true
}

func (s *sched) stop() {
	s.mu.Lock()
	s.stopped = true
	s.cond.Broadcast()
	s.mu.Unlock()
}
