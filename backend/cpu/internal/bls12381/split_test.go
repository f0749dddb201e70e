package bls12381

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	curve "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// splitCase is one MSM of the split tests: n terms whose scalars are 0, 1,
// r − 1, below 2³² (a third each below 2^8, 2^16 and 2^32) or random with
// the given weights, and bases with some repeated, negated and infinite
// points when special is set.
type splitCase struct {
	n                                  int
	zero, one, minusOne, small, random int
	special                            bool
}

func (c splitCase) String() string {
	sp := ""
	if c.special {
		sp = "/special"
	}
	return fmt.Sprintf("n=%d/w=%d.%d.%d.%d.%d%s", c.n, c.zero, c.one, c.minusOne, c.small, c.random, sp)
}

func splitCases() []splitCase {
	cases := []splitCase{
		{n: 1, one: 1},
		{n: 2, one: 1, special: true},
		{n: 7, zero: 1, one: 1, minusOne: 1},
		{n: 100, one: 1},
		{n: 100, minusOne: 1},
		{n: 100, zero: 1},
		{n: 513, zero: 4, one: 4, minusOne: 1, random: 1},
		{n: 1025, one: 1, special: true},
		{n: 3000, zero: 1, one: 1, minusOne: 1, random: 1, special: true},
		{n: 1000, one: 1, random: 30}, // too few ±1: MultiExp alone
		{n: 9001, zero: 5, one: 4, minusOne: 1, random: 1, special: true},
		{n: 5000, zero: 29, one: 1, small: 4, random: 6}, // sha256's wires
		{n: 3000, small: 1, random: 1},                   // small and full, no 0 or ±1
		{n: 2000, small: 1},                              // small only: MultiExp alone
	}
	if !testing.Short() {
		cases = append(cases, splitCase{n: 40000, zero: 5, one: 4, minusOne: 1, random: 1, special: true})
	}
	return cases
}

// draw returns c's scalars, drawn from rng, and how each base is made
// from the earlier ones: base[i] is fresh when from[i] == i, else base
// from[i], negated when neg[i]; inf[i] makes it the point at infinity.
// Only special cases repeat, negate or leave out bases.
func (c splitCase) draw(rng *rand.Rand) (scalars []fr.Element, from []int, neg, inf []bool) {
	scalars = make([]fr.Element, c.n)
	from, neg, inf = make([]int, c.n), make([]bool, c.n), make([]bool, c.n)
	total := c.zero + c.one + c.minusOne + c.small + c.random
	for i := range c.n {
		switch w := rng.IntN(total); {
		case w < c.zero:
		case w < c.zero+c.one:
			scalars[i].SetOne()
		case w < c.zero+c.one+c.minusOne:
			scalars[i].SetOne()
			scalars[i].Neg(&scalars[i])
		case w < c.zero+c.one+c.minusOne+c.small:
			scalars[i].SetUint64(uint64(rng.Uint32() >> (8 * rng.IntN(3))))
		default:
			scalars[i] = fr.Element{rng.Uint64(), rng.Uint64(), rng.Uint64(), rng.Uint64() >> 4}
		}
		from[i] = i
		if c.special && i > 0 {
			switch rng.IntN(8) {
			case 0:
				from[i] = rng.IntN(i)
			case 1:
				from[i], neg[i] = rng.IntN(i), true
			case 2:
				from[i] = i - 1
			case 3:
				from[i], neg[i] = i-1, true
			case 4:
				inf[i] = true
			}
		}
	}
	return scalars, from, neg, inf
}

// basesRun is how many fresh bases share a random start S and step T:
// S, S+T, S+2T, ... (distinct, and far cheaper than a scalar
// multiplication each).
const basesRun = 64

// g1Bases makes the G1 bases draw describes, from rng.
func g1Bases(rng *rand.Rand, from []int, neg, inf []bool) []curve.G1Affine {
	jac := make([]curve.G1Jac, len(from))
	var step curve.G1Affine
	for i := range jac {
		if i%basesRun == 0 {
			var s curve.G1Affine
			s.ScalarMultiplicationBase(new(big.Int).SetUint64(rng.Uint64()))
			step.ScalarMultiplicationBase(new(big.Int).SetUint64(rng.Uint64()))
			jac[i].FromAffine(&s)
		} else {
			jac[i] = jac[i-1]
			jac[i].AddMixed(&step)
		}
	}
	p := curve.BatchJacobianToAffineG1(jac)
	for i := range p {
		switch {
		case inf[i]:
			p[i] = curve.G1Affine{}
		case neg[i]:
			p[i].Neg(&p[from[i]])
		case from[i] != i:
			p[i] = p[from[i]]
		}
	}
	return p
}

// g2Bases is g1Bases over G2.
func g2Bases(rng *rand.Rand, from []int, neg, inf []bool) []curve.G2Affine {
	p := make([]curve.G2Affine, len(from))
	var acc curve.G2Jac
	var step curve.G2Affine
	for i := range p {
		if i%basesRun == 0 {
			var s curve.G2Affine
			s.ScalarMultiplicationBase(new(big.Int).SetUint64(rng.Uint64()))
			step.ScalarMultiplicationBase(new(big.Int).SetUint64(rng.Uint64()))
			acc.FromAffine(&s)
		} else {
			acc.AddMixed(&step)
		}
		p[i].FromJacobian(&acc)
	}
	for i := range p {
		switch {
		case inf[i]:
			p[i] = curve.G2Affine{}
		case neg[i]:
			p[i].Neg(&p[from[i]])
		case from[i] != i:
			p[i] = p[from[i]]
		}
	}
	return p
}

// TestMultiExpSplit: multiExpG1 and multiExpG2, which sum the ±1 terms
// apart, give gnark-crypto's MultiExp over witness-like scalars, with 1, 2
// and 5 tasks.
func TestMultiExpSplit(t *testing.T) {
	testMultiExpSplit(t, splitCases())
}

// TestMultiExpSplitBlocks is TestMultiExpSplit with the ±1 terms summed in
// blocks of 300.
func TestMultiExpSplitBlocks(t *testing.T) {
	defer func(b int) { sumBlock = b }(sumBlock)
	sumBlock = 300
	testMultiExpSplit(t, []splitCase{
		{n: 2000, one: 1, minusOne: 1, special: true},
		{n: 3001, zero: 1, one: 2, minusOne: 1, random: 1, special: true},
	})
}

func testMultiExpSplit(t *testing.T, cases []splitCase) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	for _, c := range cases {
		scalars, from, neg, inf := c.draw(rng)
		p1 := g1Bases(rng, from, neg, inf)
		var p2 []curve.G2Affine
		if c.n <= 10000 {
			p2 = g2Bases(rng, from, neg, inf)
		}
		var want1 curve.G1Jac
		if _, err := want1.MultiExp(p1, scalars, ecc.MultiExpConfig{}); err != nil {
			t.Fatal(err)
		}
		var want2 curve.G2Jac
		if p2 != nil {
			if _, err := want2.MultiExp(p2, scalars, ecc.MultiExpConfig{}); err != nil {
				t.Fatal(err)
			}
		}
		for _, tasks := range []int{1, 2, 5} {
			t.Run(fmt.Sprintf("%v/tasks=%d", c, tasks), func(t *testing.T) {
				var got1 curve.G1Jac
				if err := multiExpG1(&got1, p1, scalars, tasks); err != nil {
					t.Fatal(err)
				}
				if !got1.Equal(&want1) {
					t.Errorf("G1 differs from MultiExp (seed %d)", seed)
				}
				if p2 == nil {
					return
				}
				var got2 curve.G2Jac
				if err := multiExpG2(&got2, p2, scalars, tasks); err != nil {
					t.Fatal(err)
				}
				if !got2.Equal(&want2) {
					t.Errorf("G2 differs from MultiExp (seed %d)", seed)
				}
			})
		}
	}
}

// TestSplitScalars: splitScalars sorts the scalars into ±1, small (below
// 2^smallBits) and others, in order, and declines when too few are 0 or
// ±1 and too few small beside full-size ones.
func TestSplitScalars(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 3))
	var one, minusOne fr.Element
	one.SetOne()
	minusOne.Neg(&one)
	kinds := func(s []fr.Element) (signed, small, others []int32) {
		var z big.Int
		for i := range s {
			switch {
			case s[i].IsZero():
			case s[i] == one:
				signed = append(signed, int32(i))
			case s[i] == minusOne:
				signed = append(signed, ^int32(i))
			case s[i].BigInt(&z).BitLen() <= smallBits:
				small = append(small, int32(i))
			default:
				others = append(others, int32(i))
			}
		}
		return signed, small, others
	}
	c := splitCase{n: 20000, zero: 3, one: 3, minusOne: 2, small: 2, random: 2}
	s, _, _, _ := c.draw(rng)
	// the bounds of the small ones
	for i, v := range []uint64{2, 1<<smallBits - 1, 1 << smallBits, 1<<smallBits + 1} {
		s[rng.IntN(len(s)/4)*4+i].SetUint64(v)
	}
	wantSigned, wantSmall, wantOthers := kinds(s)
	if len(wantSmall) == 0 || len(wantOthers) == 0 {
		t.Fatalf("the draw has %d small and %d other scalars", len(wantSmall), len(wantOthers))
	}
	for _, tasks := range []int{1, 3} {
		sp, ok := splitScalars(s, tasks)
		if !ok {
			t.Fatalf("tasks=%d: split declined with %d of %d scalars 0 or ±1", tasks, len(s)-len(wantOthers)-len(wantSmall), len(s))
		}
		if fmt.Sprint(sp.signed) != fmt.Sprint(wantSigned) || fmt.Sprint(sp.small) != fmt.Sprint(wantSmall) || fmt.Sprint(sp.others) != fmt.Sprint(wantOthers) {
			t.Errorf("tasks=%d: split differs from the scalars' kinds", tasks)
		}
	}
	// small and full-size scalars, no 0 or ±1: split; small ones alone:
	// not.
	mixed := splitCase{n: 4000, small: 1, random: 1}
	s, _, _, _ = mixed.draw(rng)
	// (a small draw may be 0 or 1)
	wantSigned, wantSmall, wantOthers = kinds(s)
	if sp, ok := splitScalars(s, 2); !ok || fmt.Sprint(sp.signed) != fmt.Sprint(wantSigned) || fmt.Sprint(sp.small) != fmt.Sprint(wantSmall) || fmt.Sprint(sp.others) != fmt.Sprint(wantOthers) {
		t.Errorf("small and full-size scalars: split %v (%d ±1, %d small, %d others), want %d ±1, %d small and %d others", ok, len(sp.signed), len(sp.small), len(sp.others), len(wantSigned), len(wantSmall), len(wantOthers))
	}
	onlySmall := make([]fr.Element, 4000)
	for i := range onlySmall {
		onlySmall[i].SetUint64(2 + rng.Uint64N(1<<smallBits-2))
	}
	if _, ok := splitScalars(onlySmall, 2); ok {
		t.Errorf("split taken with every scalar small and none 0 or ±1")
	}
	random := splitCase{n: 1000, zero: 1, random: 9}
	s, _, _, _ = random.draw(rng)
	if _, ok := splitScalars(s, 2); ok {
		// about 10% zeros: above 1/8 only by chance; count to be sure.
		zeros := 0
		for i := range s {
			if s[i].IsZero() {
				zeros++
			}
		}
		if zeros < len(s)/splitShare {
			t.Errorf("split taken with %d of %d scalars zero", zeros, len(s))
		}
	}
}

// TestMultiExpSplitAdversarial: multiExpG1 and multiExpG2 give
// gnark-crypto's MultiExp on the mixes of issue 26 that stress the split:
// all ones (+1, −1), all zeros, all tail (no split), alternating 0/1, 1/tail
// and +1/−1, a tail of exactly one element among ones or zeros (first,
// middle, last), and points at infinity among the ones, up to every base.
func TestMultiExpSplitAdversarial(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 4))
	var one, minusOne fr.Element
	one.SetOne()
	minusOne.Neg(&one)
	tail := func() fr.Element {
		var e fr.Element
		for e.IsZero() || e == one || e == minusOne {
			e.MustSetRandom()
		}
		return e
	}
	type mix struct {
		name   string
		scalar func(i, n int) fr.Element
		inf    func(i int) bool // base i is the point at infinity
	}
	none := func(int) bool { return false }
	mixes := []mix{
		{"all ones", func(int, int) fr.Element { return one }, none},
		{"all minus ones", func(int, int) fr.Element { return minusOne }, none},
		{"all zeros", func(int, int) fr.Element { return fr.Element{} }, none},
		{"all tail", func(int, int) fr.Element { return tail() }, none},
		{"alternating 0/1", func(i, _ int) fr.Element { return [2]fr.Element{{}, one}[i%2] }, none},
		{"alternating 1/tail", func(i, _ int) fr.Element {
			if i%2 == 0 {
				return one
			}
			return tail()
		}, none},
		{"alternating +1/-1", func(i, _ int) fr.Element { return [2]fr.Element{one, minusOne}[i%2] }, none},
		{"ones, tail of one element first", func(i, _ int) fr.Element {
			if i == 0 {
				return tail()
			}
			return one
		}, none},
		{"ones, tail of one element in the middle", func(i, n int) fr.Element {
			if i == n/2 {
				return tail()
			}
			return one
		}, none},
		{"zeros, tail of one element last", func(i, n int) fr.Element {
			if i == n-1 {
				return tail()
			}
			return fr.Element{}
		}, none},
		{"ones on bases a third at infinity", func(int, int) fr.Element { return one }, func(i int) bool { return i%3 == 1 }},
		{"ones and a tenth tail on bases at random at infinity", func(int, int) fr.Element {
			if rng.IntN(10) == 0 {
				return tail()
			}
			return [2]fr.Element{one, minusOne}[rng.IntN(2)]
		}, func(int) bool { return rng.IntN(4) == 0 }},
		{"ones on bases all at infinity", func(int, int) fr.Element { return one }, func(int) bool { return true }},
		{"alternating small/tail, the small ones at the bound", func(i, _ int) fr.Element {
			if i%2 == 1 {
				return tail()
			}
			var e fr.Element
			e.SetUint64([4]uint64{2, 1<<smallBits - 1, 1 << smallBits, 1<<smallBits + 1}[i/2%4])
			return e
		}, none},
		{"small, one tail element, bases a fifth at infinity", func(i, n int) fr.Element {
			var e fr.Element
			if i == n/3 {
				return tail()
			}
			e.SetUint64(2 + rng.Uint64N(1<<smallBits-2))
			return e
		}, func(i int) bool { return i%5 == 2 }},
	}
	sizes := []int{1, 2, 1000, 9001}
	if testing.Short() {
		sizes = []int{1, 2, 1000}
	}
	for _, n := range sizes {
		for _, m := range mixes {
			s := make([]fr.Element, n)
			from, neg, inf := make([]int, n), make([]bool, n), make([]bool, n)
			for i := range n {
				s[i] = m.scalar(i, n)
				from[i] = i
				inf[i] = m.inf(i)
			}
			p1 := g1Bases(rng, from, neg, inf)
			var want1 curve.G1Jac
			if _, err := want1.MultiExp(p1, s, ecc.MultiExpConfig{}); err != nil {
				t.Fatal(err)
			}
			var p2 []curve.G2Affine
			var want2 curve.G2Jac
			if n <= 1000 {
				p2 = g2Bases(rng, from, neg, inf)
				if _, err := want2.MultiExp(p2, s, ecc.MultiExpConfig{}); err != nil {
					t.Fatal(err)
				}
			}
			for _, tasks := range []int{1, 3} {
				var got1 curve.G1Jac
				if err := multiExpG1(&got1, p1, s, tasks); err != nil {
					t.Fatal(err)
				}
				if !got1.Equal(&want1) {
					t.Errorf("n=%d %s tasks=%d: G1 differs from MultiExp (seed %d)", n, m.name, tasks, seed)
				}
				if p2 == nil {
					continue
				}
				var got2 curve.G2Jac
				if err := multiExpG2(&got2, p2, s, tasks); err != nil {
					t.Fatal(err)
				}
				if !got2.Equal(&want2) {
					t.Errorf("n=%d %s tasks=%d: G2 differs from MultiExp (seed %d)", n, m.name, tasks, seed)
				}
			}
		}
	}
}
