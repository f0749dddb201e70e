package pool

import (
	"testing"
)

func TestMostAtOnce(t *testing.T) {
	for _, c := range []struct {
		spans [][2]int64
		want  int
	}{
		{nil, 0},
		{[][2]int64{{0, 10}}, 1},
		{[][2]int64{{0, 10}, {10, 20}}, 1}, // touching: one ends as the other starts
		{[][2]int64{{0, 10}, {9, 20}}, 2},
		{[][2]int64{{5, 6}, {0, 10}, {1, 7}, {6, 8}}, 3},
		{[][2]int64{{0, 1 << 62}, {3, 4}, {3, 4}}, 3},
	} {
		if got := MostAtOnce(c.spans); got != c.want {
			t.Errorf("MostAtOnce(%v) = %d, want %d", c.spans, got, c.want)
		}
	}
}
