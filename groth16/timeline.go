package groth16

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// Span is one step of a proof's device work (an upload, H, one MSM): when
// it started and ended, from the start of the proof's device phase.
type Span struct {
	Name       string
	Start, End time.Duration
}

// String is the span as "name start–end" in milliseconds.
func (s Span) String() string {
	return fmt.Sprintf("%s %.1f–%.1f", s.Name, msOf(s.Start), msOf(s.End))
}

func msOf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// FormatSpans is spans in order of their start, "; " between them.
func FormatSpans(spans []Span) string {
	s := slices.Clone(spans)
	slices.SortStableFunc(s, func(a, b Span) int { return cmp.Compare(a.Start, b.Start) })
	parts := make([]string, len(s))
	for i, x := range s {
		parts[i] = x.String()
	}
	return strings.Join(parts, "; ")
}

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
