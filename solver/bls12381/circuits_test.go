package bls12381_test

import (
	"crypto/sha256"
	"errors"
	"math/big"
	"math/rand/v2"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark/constraint/solver"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/std/lookup/logderivlookup"
	"github.com/consensys/gnark/std/rangecheck"
)

// Each circuit below comes with a function that draws a satisfying
// assignment from a seeded stream.

// mulChain: X^(N+1) = Y, N multiplications (N+1 constraints).
type mulChain struct {
	N int               `gnark:"-"`
	X frontend.Variable `gnark:",secret"`
	Y frontend.Variable `gnark:",public"`
}

func (c *mulChain) Define(api frontend.API) error {
	acc := c.X
	for i := 0; i < c.N; i++ {
		acc = api.Mul(acc, c.X)
	}
	api.AssertIsEqual(acc, c.Y)
	return nil
}

func mulChainAssignment(n int, rng *rand.Rand) frontend.Circuit {
	x := randFr(rng)
	var y fr.Element
	y.Exp(x, big.NewInt(int64(n+1)))
	return &mulChain{N: n, X: x.String(), Y: y.String()}
}

// arith mixes divisions, inverses, boolean selects and bit decompositions:
// the R1C shapes whose unknown sits in L, R or O, and zero divisors.
type arith struct {
	X, Y []frontend.Variable `gnark:",secret"`
	Out  frontend.Variable   `gnark:",public"`
}

func (c *arith) Define(api frontend.API) error {
	acc := frontend.Variable(0)
	for i := range c.X {
		q := api.Div(c.X[i], c.Y[i])
		inv := api.Inverse(c.Y[i])
		z := api.IsZero(api.Sub(c.X[i], c.Y[i]))
		s := api.Select(api.ToBinary(c.X[i], fr.Bits)[0], q, inv)
		bits := api.ToBinary(api.Mul(c.X[i], 3), fr.Bits)
		acc = api.Add(acc, s, z, api.FromBinary(bits[:64]...), api.DivUnchecked(q, 7))
	}
	api.AssertIsEqual(acc, c.Out)
	return nil
}

func arithAssignment(n int, rng *rand.Rand) frontend.Circuit {
	w := &arith{X: make([]frontend.Variable, n), Y: make([]frontend.Variable, n)}
	var acc fr.Element
	for i := 0; i < n; i++ {
		x, y := randFr(rng), randFr(rng)
		if i%3 == 0 {
			y = x // the IsZero branch
		}
		w.X[i], w.Y[i] = x.String(), y.String()
		var q, inv, s, z, t, seven fr.Element
		q.Div(&x, &y)
		inv.Inverse(&y)
		if i%3 == 0 {
			z.SetOne()
		}
		xb := x.Bits()
		if xb[0]&1 == 1 {
			s = q
		} else {
			s = inv
		}
		t.SetUint64(3)
		t.Mul(&t, &x)
		low := t.Bits()[0]
		var lowE fr.Element
		lowE.SetUint64(low)
		seven.SetUint64(7)
		var d fr.Element
		d.Div(&q, &seven)
		acc.Add(&acc, &s).Add(&acc, &z).Add(&acc, &lowE).Add(&acc, &d)
	}
	w.Out = acc.String()
	return w
}

// rangeLookup range-checks values (std/rangecheck, with its BSB22
// commitment) and reads a table (std/lookup/logderivlookup).
type rangeLookup struct {
	V     []frontend.Variable `gnark:",secret"`
	Table []frontend.Variable `gnark:",secret"`
	Idx   []frontend.Variable `gnark:",secret"`
	Sum   frontend.Variable   `gnark:",public"`
}

func (c *rangeLookup) Define(api frontend.API) error {
	rc := rangecheck.New(api)
	t := logderivlookup.New(api)
	for _, e := range c.Table {
		t.Insert(e)
	}
	got := t.Lookup(c.Idx...)
	sum := frontend.Variable(0)
	for i, v := range c.V {
		rc.Check(v, 20)
		sum = api.Add(sum, api.Mul(v, got[i%len(got)]))
	}
	api.AssertIsEqual(sum, c.Sum)
	return nil
}

func rangeLookupAssignment(n, table int, rng *rand.Rand) frontend.Circuit {
	w := &rangeLookup{V: make([]frontend.Variable, n), Table: make([]frontend.Variable, table), Idx: make([]frontend.Variable, n)}
	tab := make([]fr.Element, table)
	for i := range tab {
		tab[i] = randFr(rng)
		w.Table[i] = tab[i].String()
	}
	var sum fr.Element
	for i := 0; i < n; i++ {
		var v fr.Element
		v.SetUint64(rng.Uint64N(1 << 20))
		idx := rng.IntN(table)
		w.V[i], w.Idx[i] = v.String(), idx
		var p fr.Element
		p.Mul(&v, &tab[idx])
		sum.Add(&sum, &p)
	}
	w.Sum = sum.String()
	return w
}

// withHint computes square roots with a hint the caller passes through the
// solver options (it is not registered).
type withHint struct {
	X []frontend.Variable `gnark:",secret"`
	S frontend.Variable   `gnark:",public"`
}

// sqrtHint returns a square root of its input (the smaller of the two).
func sqrtHint(_ *big.Int, in, out []*big.Int) error {
	var x fr.Element
	x.SetBigInt(in[0])
	if x.Sqrt(&x) == nil {
		return errors.New("sqrtHint: not a square")
	}
	var neg fr.Element
	neg.Neg(&x)
	if neg.Cmp(&x) < 0 {
		x = neg
	}
	x.BigInt(out[0])
	return nil
}

func (c *withHint) Define(api frontend.API) error {
	sum := frontend.Variable(0)
	for _, x := range c.X {
		r, err := api.Compiler().NewHint(sqrtHint, 1, x)
		if err != nil {
			return err
		}
		api.AssertIsEqual(api.Mul(r[0], r[0]), x)
		sum = api.Add(sum, r[0])
	}
	api.AssertIsEqual(sum, c.S)
	return nil
}

func withHintAssignment(n int, rng *rand.Rand) frontend.Circuit {
	w := &withHint{X: make([]frontend.Variable, n)}
	var sum fr.Element
	for i := range w.X {
		r := randFr(rng)
		var x, b fr.Element
		x.Square(&r)
		w.X[i] = x.String()
		if err := sqrtHint(nil, []*big.Int{x.BigInt(new(big.Int))}, []*big.Int{new(big.Int)}); err != nil {
			panic(err)
		}
		out := new(big.Int)
		_ = sqrtHint(nil, []*big.Int{x.BigInt(new(big.Int))}, []*big.Int{out})
		b.SetBigInt(out)
		sum.Add(&sum, &b)
	}
	w.S = sum.String()
	return w
}

func randFr(rng *rand.Rand) fr.Element {
	var b [fr.Bytes]byte
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	var e fr.Element
	e.SetBytes(b[:])
	return e
}

// testHints are the solver options both solvers get: the user hint, and
// deterministic stand-ins for gnark's commitment placeholder and its
// commitment mask (which read crypto/rand), so that the two solves can be
// compared.
func testHints(seed uint64) []solver.Option {
	return []solver.Option{
		solver.WithHints(sqrtHint),
		solver.OverrideHint(solver.GetHintID(fcsPlaceholder), func(mod *big.Int, in, out []*big.Int) error {
			h := sha256.New()
			var buf [fr.Bytes]byte
			for _, v := range in {
				b := v.FillBytes(buf[:]) // v.Bytes(), without allocating
				for len(b) > 0 && b[0] == 0 {
					b = b[1:]
				}
				h.Write(b)
			}
			out[0].SetBytes(h.Sum(nil))
			out[0].Mod(out[0], mod)
			return nil
		}),
		solver.OverrideHint(randomizeID, func(mod *big.Int, in, out []*big.Int) error {
			rng := rand.New(rand.NewPCG(seed, uint64(len(out))))
			for i := range out {
				e := randFr(rng)
				e.BigInt(out[i])
			}
			return nil
		}),
	}
}
