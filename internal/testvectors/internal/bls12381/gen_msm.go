package bls12381

import (
	"fmt"
	"io"
	"math/big"

	"github.com/g16prover/g16/internal/testvectors/internal/suite"

	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// msmCase is one MSM before its bases are computed: every base is known by
// its discrete logarithm to the group generator (0 for the point at
// infinity), so the expected sum has a closed form, (Σ sᵢ·kᵢ)·G, that
// does not depend on MultiExp.
type msmCase struct {
	name    string
	logs    []fr.Element // kᵢ: base i is kᵢ·G
	table   bool         // logs are the first len(logs) of the table's
	scalars []fr.Element
}

// edgeScalar is a named scalar that MSM implementations get wrong.
type edgeScalar struct {
	name string
	v    fr.Element
}

func edgeScalars() []edgeScalar {
	r := fr.Modulus()
	one := big.NewInt(1)
	rm1 := new(big.Int).Sub(r, one)
	half := new(big.Int).Rsh(rm1, 1)
	halfUp := new(big.Int).Add(half, one)
	return []edgeScalar{
		{"0", elementOf(big.NewInt(0))},
		{"1", elementOf(big.NewInt(1))},
		{"2", elementOf(big.NewInt(2))},
		{"r-1", elementOf(rm1)},
		{"half(r-1)", elementOf(half)},
		{"half(r+1)", elementOf(halfUp)},
	}
}

// windowMaxScalars are scalars whose window digits sit at the extremes that
// Pippenger implementations special-case, for every window width w from 2
// to 20 (digits taken over the low ⌊t/w⌋·w bits, t = fr.Bits − 1, so every
// value is below r, which has fr.Bits bits):
//
//	ones(w):   every unsigned digit 2^w − 1 (all bits set)
//	half(w):   every digit 2^(w−1), where a signed (Booth) digit wraps
//	below(w):  every digit 2^(w−1) − 1, the largest that does not wrap
//
// plus 2^b − 1 for a few bit lengths b. With neg, each is replaced by
// r − s, whose negation (what signed-digit MSMs work on above r/2) has the
// pattern.
func windowMaxScalars(neg bool) []fr.Element {
	top := fr.Bits - 1
	var vals []*big.Int
	for _, b := range []int{8, 16, 32, 64, 128, top - 2, top - 1, top} {
		vals = append(vals, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(b)), big.NewInt(1)))
	}
	repeat := func(digit int64, w int) *big.Int {
		x := new(big.Int)
		for k := 0; (k+1)*w <= top; k++ {
			x.Add(x, new(big.Int).Lsh(big.NewInt(digit), uint(k*w)))
		}
		return x
	}
	for w := 2; w <= 20; w++ {
		vals = append(vals,
			repeat(1<<w-1, w),
			repeat(1<<(w-1), w),
			repeat(1<<(w-1)-1, w))
	}
	out := make([]fr.Element, len(vals))
	for i, v := range vals {
		if v.Cmp(fr.Modulus()) >= 0 {
			panic("generate: internal error: window pattern not below r")
		}
		out[i] = elementOf(v)
		if neg {
			out[i].Neg(&out[i])
		}
	}
	return out
}

func fill(n int, v fr.Element) []fr.Element {
	s := make([]fr.Element, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// msmCases lists the vectors of one group. tableLogs are the discrete logs
// of the file's table; repeatLen is the length of the repeated-base vectors.
func msmCases(group string, tableLogs []fr.Element, lengths []int, repeatLen int) []msmCase {
	var cases []msmCase
	prefix := func(n int) []fr.Element { return tableLogs[:n] }
	add := func(c msmCase) { cases = append(cases, c) }

	for _, n := range lengths {
		name := fmt.Sprintf("len=%d/random", n)
		add(msmCase{name: name, logs: prefix(n), table: true, scalars: randomElements(suite.Stream(group+"/"+name), n)})
	}
	for _, e := range edgeScalars() {
		add(msmCase{name: "len=1/edge=" + e.name, logs: prefix(1), table: true, scalars: []fr.Element{e.v}})
		add(msmCase{name: "len=64/edge=" + e.name, logs: prefix(64), table: true, scalars: fill(64, e.v)})
		// The edge scalar among random ones.
		name := "len=7/edge=" + e.name
		s := randomElements(suite.Stream(group+"/"+name), 7)
		s[3] = e.v
		add(msmCase{name: name, logs: prefix(7), table: true, scalars: s})
	}
	for _, neg := range []bool{false, true} {
		s := windowMaxScalars(neg)
		name := fmt.Sprintf("len=%d/edge=window-max", len(s))
		if neg {
			name += "-neg"
		}
		add(msmCase{name: name, logs: prefix(len(s)), table: true, scalars: s})
	}
	// Every single-bit scalar 2^0 … 2^(fr.Bits−1) (all below r): each
	// window, and each bit within it, holds the only nonzero digit once.
	{
		s := make([]fr.Element, fr.Bits)
		for k := range s {
			s[k] = elementOf(new(big.Int).Lsh(big.NewInt(1), uint(k)))
		}
		add(msmCase{name: fmt.Sprintf("len=%d/edge=powers-of-two", fr.Bits), logs: prefix(fr.Bits), table: true, scalars: s})
	}
	one := elementOf(big.NewInt(1))
	var zero, minusOne fr.Element
	minusOne.Neg(&one)

	// The point at infinity as a base.
	{
		name := "len=1/edge=infinity-base"
		add(msmCase{name: name, logs: []fr.Element{zero}, scalars: randomElements(suite.Stream(group+"/"+name), 1)})
		name = "len=7/edge=infinity-base"
		logs := append([]fr.Element(nil), prefix(7)...)
		logs[3].SetZero()
		add(msmCase{name: name, logs: logs, scalars: randomElements(suite.Stream(group+"/"+name), 7)})
		name = "len=64/edge=all-infinity"
		add(msmCase{name: name, logs: make([]fr.Element, 64), scalars: randomElements(suite.Stream(group+"/"+name), 64)})
	}
	// P beside −P: with equal scalars the pair cancels; with random ones it
	// does not.
	{
		name := "len=2/edge=P-negP-cancel"
		rng := suite.Stream(group + "/" + name)
		k, s := tableLogs[0], randomElement(rng)
		var nk fr.Element
		nk.Neg(&k)
		add(msmCase{name: name, logs: []fr.Element{k, nk}, scalars: []fr.Element{s, s}})

		name = "len=64/edge=P-negP"
		rng = suite.Stream(group + "/" + name)
		logs := make([]fr.Element, 64)
		for i := 0; i < 64; i += 2 {
			logs[i] = tableLogs[i]
			logs[i+1].Neg(&tableLogs[i])
		}
		scalars := randomElements(rng, 64)
		for i := 0; i < 64; i += 8 { // some pairs cancel
			scalars[i+1] = scalars[i]
		}
		add(msmCase{name: name, logs: logs, scalars: scalars})
	}
	// One base repeated: random scalars, and all ones (bucket sums then add
	// a point to itself).
	{
		name := fmt.Sprintf("len=%d/edge=repeated-base", repeatLen)
		add(msmCase{name: name, logs: fill(repeatLen, tableLogs[0]), scalars: randomElements(suite.Stream(group+"/"+name), repeatLen)})
		name = fmt.Sprintf("len=%d/edge=repeated-base-ones", repeatLen)
		add(msmCase{name: name, logs: fill(repeatLen, tableLogs[0]), scalars: fill(repeatLen, one)})
	}
	// Witness-like scalars.
	w := sizes.WitnessLen
	for _, n := range []int{64, w, 4096} {
		if n > len(tableLogs) {
			continue
		}
		add(msmCase{name: fmt.Sprintf("len=%d/edge=all-ones", n), logs: prefix(n), table: true, scalars: fill(n, one)})
	}
	add(msmCase{name: fmt.Sprintf("len=%d/edge=all-minus-ones", w), logs: prefix(w), table: true, scalars: fill(w, minusOne)})
	{
		name := fmt.Sprintf("len=%d/edge=plus-minus-ones", w)
		rng := suite.Stream(group + "/" + name)
		s := make([]fr.Element, w)
		var pick [1]byte
		for i := range s {
			rng.Read(pick[:])
			switch pick[0] % 3 {
			case 1:
				s[i] = one
			case 2:
				s[i] = minusOne
			}
		}
		add(msmCase{name: name, logs: prefix(w), table: true, scalars: s})
	}
	add(msmCase{name: "len=64/edge=all-zero", logs: prefix(64), table: true, scalars: make([]fr.Element, 64)})
	{
		n := min(4096, len(tableLogs))
		name := fmt.Sprintf("len=%d/edge=mostly-zero", n)
		rng := suite.Stream(group + "/" + name)
		s := make([]fr.Element, n)
		var pick [8]byte
		for i := range s {
			rng.Read(pick[:])
			switch pick[0] % 100 {
			case 0:
				s[i] = randomElement(rng)
			case 1:
				s[i] = one
			}
		}
		add(msmCase{name: name, logs: prefix(n), table: true, scalars: s})

		name = fmt.Sprintf("len=%d/edge=small", w)
		rng = suite.Stream(group + "/" + name)
		s = make([]fr.Element, w)
		for i := range s {
			rng.Read(pick[:])
			s[i].SetUint64(uint64(pick[0] % 16))
		}
		add(msmCase{name: name, logs: prefix(w), table: true, scalars: s})
	}
	return cases
}

// closedForm returns Σ sᵢ·kᵢ as a big integer.
func closedForm(c *msmCase) *big.Int {
	var acc, t fr.Element
	for i := range c.scalars {
		t.Mul(&c.scalars[i], &c.logs[i])
		acc.Add(&acc, &t)
	}
	return acc.BigInt(new(big.Int))
}

// genGroup holds what writing one group's MSM file needs to know about
// the group: its affine points A, with pointer type PA.
type genGroup[A Point, PA groupPoint[A]] struct {
	name      string // "G1" or "G2", in messages
	stream    string // the streams' prefix: "msm-g1" or "msm-g2"
	lengths   []int  // sizes.G1Lengths or sizes.G2Lengths
	repeatLen int    // see msmCases
	generator A
	batchMul  func(base *A, scalars []fr.Element) []A // bls12381.BatchScalarMultiplicationG1 or G2
	multiExp  func(bases []A, scalars []fr.Element) (A, error)
	write     func(w io.Writer, table []A, recs []MSM[A]) error
	// spotCheck checks the table's subgroup membership every subgroupEvery
	// points and its logs every logEvery points.
	subgroupEvery, logEvery int
}

// groupPoint is the pointer type *A of an affine point.
type groupPoint[A any] interface {
	*A
	ScalarMultiplication(a *A, s *big.Int) *A
	ScalarMultiplicationBase(s *big.Int) *A
	Equal(a *A) bool
	IsInfinity() bool
	IsInSubGroup() bool
}

func writeMSMG1(w io.Writer) error {
	_, _, g, _ := bls12381.Generators()
	return generateMSM(w, &genGroup[bls12381.G1Affine, *bls12381.G1Affine]{
		name:          "G1",
		stream:        "msm-g1",
		lengths:       sizes.G1Lengths,
		repeatLen:     sizes.RepeatG1,
		generator:     g,
		batchMul:      bls12381.BatchScalarMultiplicationG1,
		multiExp:      multiExp[bls12381.G1Affine, bls12381.G1Jac],
		write:         WriteMSMG1,
		subgroupEvery: 1024,
		logEvery:      997,
	})
}

func writeMSMG2(w io.Writer) error {
	_, _, _, g := bls12381.Generators()
	return generateMSM(w, &genGroup[bls12381.G2Affine, *bls12381.G2Affine]{
		name:          "G2",
		stream:        "msm-g2",
		lengths:       sizes.G2Lengths,
		repeatLen:     sizes.RepeatG2,
		generator:     g,
		batchMul:      bls12381.BatchScalarMultiplicationG2,
		multiExp:      multiExp[bls12381.G2Affine, bls12381.G2Jac],
		write:         WriteMSMG2,
		subgroupEvery: 512,
		logEvery:      251,
	})
}

// multiExp is gnark-crypto's MultiExp, Σ scalars[i]·bases[i], in
// Jacobian coordinates J, returned in affine ones.
func multiExp[A, J any, PA interface {
	*A
	FromJacobian(p *J) *A
}, PJ interface {
	*J
	MultiExp(points []A, scalars []fr.Element, config ecc.MultiExpConfig) (*J, error)
}](bases []A, scalars []fr.Element) (res A, err error) {
	var sum J
	_, err = PJ(&sum).MultiExp(bases, scalars, ecc.MultiExpConfig{})
	PA(&res).FromJacobian(&sum)
	return res, err
}

// generateMSM writes g's MSM file: a table of random bases and the vectors
// of msmCases, each checked against its closed form.
func generateMSM[A Point, PA groupPoint[A]](w io.Writer, g *genGroup[A, PA]) error {
	tableLogs := randomElements(suite.Stream(g.stream+"/table"), g.lengths[len(g.lengths)-1])
	table := g.batchMul(&g.generator, tableLogs)
	if err := g.spotCheck(table, tableLogs); err != nil {
		return err
	}
	var recs []MSM[A]
	for _, c := range msmCases(g.stream, tableLogs, g.lengths, g.repeatLen) {
		rec := MSM[A]{Name: c.name, Scalars: c.scalars}
		if c.table {
			rec.Bases = table[:len(c.logs)]
		} else {
			rec.Bases = g.points(c.logs)
		}
		var err error
		if rec.Result, err = g.multiExp(rec.Bases, rec.Scalars); err != nil {
			return fmt.Errorf("MSM %s %s: %w", g.name, c.name, err)
		}
		var want A
		PA(&want).ScalarMultiplicationBase(closedForm(&c))
		if !PA(&want).Equal(&rec.Result) {
			return fmt.Errorf("MSM %s %s: MultiExp disagrees with the closed form", g.name, c.name)
		}
		recs = append(recs, rec)
	}
	return g.write(w, table, recs)
}

// points returns kᵢ·G for each log, one scalar multiplication each (the
// inline bases are few).
func (g *genGroup[A, PA]) points(logs []fr.Element) []A {
	p := make([]A, len(logs))
	for i := range logs {
		if i > 0 && logs[i] == logs[i-1] {
			p[i] = p[i-1]
			continue
		}
		PA(&p[i]).ScalarMultiplication(&g.generator, logs[i].BigInt(new(big.Int)))
	}
	return p
}

// spotCheck checks some table points against plain scalar
// multiplication, and that the table's points are distinct.
func (g *genGroup[A, PA]) spotCheck(table []A, logs []fr.Element) error {
	seen := make(map[A]bool, len(table))
	for i := range table {
		if seen[table[i]] || PA(&table[i]).IsInfinity() || i%g.subgroupEvery == 0 && !PA(&table[i]).IsInSubGroup() {
			return fmt.Errorf("MSM %s table: point %d repeated, at infinity or not in %s", g.name, i, g.name)
		}
		seen[table[i]] = true
	}
	for i := 0; i < len(table); i += g.logEvery {
		var p A
		PA(&p).ScalarMultiplicationBase(logs[i].BigInt(new(big.Int)))
		if !PA(&p).Equal(&table[i]) {
			return fmt.Errorf("MSM %s table: point %d is not its log times the generator", g.name, i)
		}
	}
	return nil
}
