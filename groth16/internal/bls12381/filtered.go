package bls12381

import (
	"fmt"
	"sort"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// filterBlock is how many values of the source one entry of
// filtered.before covers.
const filterBlock = 1 << 12

// filtered is the vector filterOut(v, skip, want) would return, read in
// ranges without being materialised: a streamed MSM copies each chunk of
// it into a chunk-sized buffer as the chunk is uploaded (the K MSM's
// wires, all but the committed ones: 4 GiB at 2^27 that the host then
// does not hold twice).
type filtered struct {
	v    []fr.Element
	skip []bool
	n    int // values kept
	// before[b] is how many values of v[:b·filterBlock] are kept.
	before []int
}

// newFiltered indexes the values of v whose skip is false (want of them;
// len(skip) == len(v)), counting each block of filterBlock on all cores.
func newFiltered(v []fr.Element, skip []bool, want int) (*filtered, error) {
	if len(skip) != len(v) {
		return nil, fmt.Errorf("groth16: internal error: %d values, %d skip flags", len(v), len(skip))
	}
	blocks := (len(v) + filterBlock - 1) / filterBlock
	f := &filtered{v: v, skip: skip, before: make([]int, blocks+1)}
	forRanges(ranges(blocks), func(_, lo, hi int) {
		for b := lo; b < hi; b++ {
			kept := 0
			for _, s := range skip[b*filterBlock : min(len(v), (b+1)*filterBlock)] {
				if !s {
					kept++
				}
			}
			f.before[b+1] = kept
		}
	})
	for b := range blocks {
		f.before[b+1] += f.before[b]
	}
	if f.n = f.before[blocks]; f.n != want {
		return nil, fmt.Errorf("groth16: internal error: %d values kept, want %d", f.n, want)
	}
	return f, nil
}

// fill sets dst to the kept values lo … lo+len(dst)−1, in order, the ranges
// of dst on all cores.
func (f *filtered) fill(lo int, dst []fr.Element) {
	if lo < 0 || lo+len(dst) > f.n {
		panic(fmt.Sprintf("groth16: internal error: kept values [%d, %d) of %d", lo, lo+len(dst), f.n))
	}
	if len(dst) == 0 {
		return
	}
	forRanges(ranges(len(dst)), func(_, from, to int) {
		// The block holding kept value lo+from, then the values before it
		// in that block.
		want := lo + from
		b := sort.Search(len(f.before)-1, func(b int) bool { return f.before[b+1] > want })
		i, kept := b*filterBlock, f.before[b]
		for ; ; i++ {
			if !f.skip[i] {
				if kept == want {
					break
				}
				kept++
			}
		}
		for j := from; j < to; i++ {
			if !f.skip[i] {
				dst[j] = f.v[i]
				j++
			}
		}
	})
}

// padded extends v with zeros to length n, reusing its capacity.
func padded(v []fr.Element, n int) []fr.Element {
	if cap(v) < n {
		out := make([]fr.Element, n)
		copy(out, v)
		return out
	}
	old := len(v)
	v = v[:n]
	clear(v[old:])
	return v
}

// filterOut returns the values v[i] whose skip[i] is false, in order;
// want is their expected count. checkKey has made len(skip) == len(v).
// When none is skipped it returns v itself, not a copy (4 GiB a vector at
// 2^27): the MSMs only read it. Ranges of v are counted, then copied, on
// all cores.
func filterOut(v []fr.Element, skip []bool, want int) []fr.Element {
	return filterOutInto(nil, v, skip, want)
}

// filterOutInto is filterOut copying into dst when its capacity holds the
// values kept (every one of them is written).
func filterOutInto(dst, v []fr.Element, skip []bool, want int) []fr.Element {
	if want == len(v) {
		return v
	}
	rs := ranges(len(v))
	offs := make([]int, len(rs)+1)
	forRanges(rs, func(t, lo, hi int) {
		kept := 0
		for _, s := range skip[lo:hi] {
			if !s {
				kept++
			}
		}
		offs[t+1] = kept
	})
	for t := range rs {
		offs[t+1] += offs[t]
	}
	out := dst[:0]
	if cap(out) < offs[len(rs)] {
		out = make([]fr.Element, offs[len(rs)])
	}
	out = out[:offs[len(rs)]]
	forRanges(rs, func(t, lo, hi int) {
		o := out[offs[t]:offs[t+1]]
		j := 0
		for i := lo; i < hi; i++ {
			if !skip[i] {
				o[j] = v[i]
				j++
			}
		}
	})
	return out
}
