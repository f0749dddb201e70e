package bls12381

import (
	"cmp"
	"slices"
	"sync"
	"time"
)

// timeline collects spans from the goroutines of one proof's device phase,
// from t0.
type timeline struct {
	mu    sync.Mutex
	t0    time.Time
	spans []Span
}

func newTimeline() *timeline { return &timeline{t0: time.Now()} }

// add records the span name from start to now.
func (tl *timeline) add(name string, start time.Time) {
	if tl == nil {
		return
	}
	end := time.Now()
	tl.mu.Lock()
	tl.spans = append(tl.spans, Span{Name: name, Start: start.Sub(tl.t0), End: end.Sub(tl.t0)})
	tl.mu.Unlock()
}

// list is the spans recorded so far, in order of their start.
func (tl *timeline) list() []Span {
	if tl == nil {
		return nil
	}
	tl.mu.Lock()
	defer tl.mu.Unlock()
	s := slices.Clone(tl.spans)
	slices.SortStableFunc(s, func(a, b Span) int { return cmp.Compare(a.Start, b.Start) })
	return s
}
