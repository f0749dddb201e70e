package bls12381

import (
	"sync"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// Witness scalars are mostly 0 and 1 (bits, booleans, selectors), with
// some r − 1 and many small integers (bytes, limbs). An MSM over them is
// split four ways:
//
//	Σ sᵢ·Pᵢ = Σ_{sᵢ=1} Pᵢ − Σ_{sᵢ=−1} Pᵢ + Σ_{small i} sᵢ·Pᵢ + Σ_{other i} sᵢ·Pᵢ
//
// The zeros drop out, the ±1 terms are summed with batched affine
// additions (sumSigned), and the small terms (below 2^smallBits) and the
// others go to gnark-crypto's MultiExp, each set compacted and alone: the
// small scalars have no digit beyond their first window, and beside full
// ones they cost MultiExp about as much again as on their own (BENCHMARKS.md,
// "small scalars apart"). The result is the same group element.

// A split is taken when at least 1/splitShare of the scalars are 0 or ±1,
// or when at least 1/splitShare are small and as many full-size; below
// that, compacting costs more than it saves.
const splitShare = 8

// smallBits bounds the small scalars: those below 2^smallBits.
const smallBits = 16

// minSplitPerTask is the fewest scalars a task classifies or sums.
const minSplitPerTask = 1 << 12

// split is an MSM's scalars sorted by kind: signed indices of the ±1
// scalars (i for +1, ^i for −1), the indices of the small ones and those
// of the others.
type split struct {
	signed []int32
	small  []int32
	others []int32
}

// scalar kinds, as splitScalars sorts them
const (
	kindZero uint8 = iota
	kindPlus
	kindMinus
	kindSmall
	kindOther
)

// scalarKind is the kind of s (one and minusOne are 1 and −1).
func scalarKind(s, one, minusOne *fr.Element) uint8 {
	switch {
	case s.IsZero():
		return kindZero
	case *s == *one:
		return kindPlus
	case *s == *minusOne:
		return kindMinus
	}
	b := s.Bits()
	for _, w := range b[1:] {
		if w != 0 {
			return kindOther
		}
	}
	if b[0] < 1<<smallBits {
		return kindSmall
	}
	return kindOther
}

// splitScalars sorts s into zeros, ±1, small and others with up to tasks
// goroutines. It returns ok false, and no split, when it does not pay
// (splitShare), or when len(s) does not fit an int32 index.
func splitScalars(s []fr.Element, tasks int) (sp split, ok bool) {
	n := len(s)
	if n == 0 || int64(n) > 1<<31-1 {
		return sp, false
	}
	var one, minusOne fr.Element
	one.SetOne()
	minusOne.Neg(&one)

	ranges := taskRanges(n, tasks)
	type count struct{ signed, small, others int }
	counts := make([]count, len(ranges))
	kinds := make([]uint8, n) // each scalar classified once (a small one's test leaves Montgomery form)
	parallel(ranges, func(t, lo, hi int) {
		var c count
		for i := lo; i < hi; i++ {
			kinds[i] = scalarKind(&s[i], &one, &minusOne)
			switch kinds[i] {
			case kindPlus, kindMinus:
				c.signed++
			case kindSmall:
				c.small++
			case kindOther:
				c.others++
			}
		}
		counts[t] = c
	})
	var total count
	for _, c := range counts {
		total.signed += c.signed
		total.small += c.small
		total.others += c.others
	}
	least := max(n/splitShare, 1)
	zerosAndSigned := n - total.small - total.others
	if zerosAndSigned < least && (total.small < least || total.others < least) {
		return sp, false
	}
	sp.signed = make([]int32, total.signed)
	sp.small = make([]int32, total.small)
	sp.others = make([]int32, total.others)
	offs := make([]count, len(ranges))
	for t := 1; t < len(ranges); t++ {
		p, c := offs[t-1], counts[t-1]
		offs[t] = count{p.signed + c.signed, p.small + c.small, p.others + c.others}
	}
	parallel(ranges, func(t, lo, hi int) {
		sg, sm, ot := sp.signed[offs[t].signed:], sp.small[offs[t].small:], sp.others[offs[t].others:]
		var j, k, m int
		for i := lo; i < hi; i++ {
			switch kinds[i] {
			case kindPlus:
				sg[j] = int32(i)
				j++
			case kindMinus:
				sg[j] = ^int32(i)
				j++
			case kindSmall:
				sm[m] = int32(i)
				m++
			case kindOther:
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
