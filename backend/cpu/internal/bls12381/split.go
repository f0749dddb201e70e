package bls12381

import (
	"sync"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// Witness scalars are mostly 0 and 1 (bits, booleans, selectors), with
// some r − 1. An MSM over them is split three ways:
//
//	Σ sᵢ·Pᵢ = Σ_{sᵢ=1} Pᵢ − Σ_{sᵢ=−1} Pᵢ + Σ_{other i} sᵢ·Pᵢ
//
// The zeros drop out, the ±1 terms are summed with batched affine
// additions (sumSigned), and only the other terms go to gnark-crypto's
// MultiExp, compacted. The result is the same group element.

// A scalar is split off when at least 1/splitShare of the scalars are 0 or
// ±1; below that, compacting the others costs more than it saves.
const splitShare = 8

// minSplitPerTask is the fewest scalars a task classifies or sums.
const minSplitPerTask = 1 << 12

// split is an MSM's scalars sorted by kind: signed indices of the ±1
// scalars (i for +1, ^i for −1) and the indices of the others.
type split struct {
	signed []int32
	others []int32
}

// splitScalars sorts s into zeros, ±1 and others with up to tasks
// goroutines. It returns ok false, and no split, when fewer than
// len(s)/splitShare scalars are 0 or ±1, or when len(s) does not fit an
// int32 index.
func splitScalars(s []fr.Element, tasks int) (sp split, ok bool) {
	n := len(s)
	if n == 0 || int64(n) > 1<<31-1 {
		return sp, false
	}
	var one, minusOne fr.Element
	one.SetOne()
	minusOne.Neg(&one)

	ranges := taskRanges(n, tasks)
	type count struct{ signed, others int }
	counts := make([]count, len(ranges))
	parallel(ranges, func(t, lo, hi int) {
		var c count
		for i := lo; i < hi; i++ {
			switch {
			case s[i].IsZero():
			case s[i] == one || s[i] == minusOne:
				c.signed++
			default:
				c.others++
			}
		}
		counts[t] = c
	})
	var signed, others int
	for _, c := range counts {
		signed += c.signed
		others += c.others
	}
	if n-others < n/splitShare || n-others == 0 {
		return sp, false
	}
	sp.signed = make([]int32, signed)
	sp.others = make([]int32, others)
	offs := make([]count, len(ranges))
	for t := 1; t < len(ranges); t++ {
		offs[t] = count{offs[t-1].signed + counts[t-1].signed, offs[t-1].others + counts[t-1].others}
	}
	parallel(ranges, func(t, lo, hi int) {
		sg, ot := sp.signed[offs[t].signed:], sp.others[offs[t].others:]
		var j, k int
		for i := lo; i < hi; i++ {
			switch {
			case s[i].IsZero():
			case s[i] == one:
				sg[j] = int32(i)
				j++
			case s[i] == minusOne:
				sg[j] = ^int32(i)
				j++
			default:
				ot[k] = int32(i)
				k++
			}
		}
	})
	return sp, true
}

// compact returns the points and scalars at idx, in order, copied by up to
// tasks goroutines.
func compact[Point any](points []Point, s []fr.Element, idx []int32, tasks int) ([]Point, []fr.Element) {
	cp := make([]Point, len(idx))
	cs := make([]fr.Element, len(idx))
	parallel(taskRanges(len(idx), tasks), func(_, lo, hi int) {
		for j := lo; j < hi; j++ {
			cp[j] = points[idx[j]]
			cs[j] = s[idx[j]]
		}
	})
	return cp, cs
}

// taskRanges cuts [0, n) into at most tasks ranges of at least
// minSplitPerTask elements (one range when n is smaller).
func taskRanges(n, tasks int) [][2]int {
	k := max(1, min(tasks, n/minSplitPerTask))
	r := make([][2]int, k)
	for t := range r {
		r[t] = [2]int{t * n / k, (t + 1) * n / k}
	}
	return r
}

// parallel runs f(t, lo, hi) for each range t, the first on the calling
// goroutine, and returns when all have.
func parallel(ranges [][2]int, f func(t, lo, hi int)) {
	var wg sync.WaitGroup
	for t := 1; t < len(ranges); t++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(t, ranges[t][0], ranges[t][1])
		}()
	}
	f(0, ranges[0][0], ranges[0][1])
	wg.Wait()
}
