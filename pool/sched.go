package pool

import "sync"

// item is a job waiting for a worker.
type item struct {
	job      int
	attempt  int
	exclude  int // a device not to run on (the one that failed); -1: none
	prepared bool
	first    error // the first attempt's error, when retried
}

// quarantineAfter is how many device failures in a row take a device out
// of the rotation.
const quarantineAfter = 2

// sched hands items to workers, across devices.
type sched struct {
	mu      sync.Mutex
	cond    *sync.Cond
	pending []*item
	left    int // jobs not yet finished or failed
	stopped bool

	// failures counts each device's device failures since its last
	// success. A device at quarantineAfter or more is quarantined: its
	// workers take only items that no healthy device may run, so a dead
	// device stops eating partitions while the others work, yet no item
	// is ever stranded.
	failures []int
}

func (s *sched) healthyLocked(dev int) bool { return s.failures[dev] < quarantineAfter }

// runnableLocked says whether a worker of device dev may take it.
func (s *sched) runnableLocked(it *item, dev int) bool {
	if it.exclude == dev {
		return false
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

// next blocks until an item that may run on device dev is pending, and
// returns it; nil once the Run is over or stopped.
func (s *sched) next(dev int) *item {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		if s.stopped || s.left == 0 {
			return nil
		}
		for i, it := range s.pending {
			if s.runnableLocked(it, dev) {
				s.pending = append(s.pending[:i], s.pending[i+1:]...)
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

func (s *sched) settle() {
	s.mu.Lock()
	s.left--
	s.cond.Broadcast()
	s.mu.Unlock()
}

// retry puts it back, ahead of the jobs not yet started.
func (s *sched) retry(it *item) {
	s.mu.Lock()
	s.pending = append([]*item{it}, s.pending...)
	s.cond.Broadcast()
	s.mu.Unlock()
}

func (s *sched) stop() {
	s.mu.Lock()
	s.stopped = true
	s.cond.Broadcast()
	s.mu.Unlock()
}
