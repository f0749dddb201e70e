package core

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
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
