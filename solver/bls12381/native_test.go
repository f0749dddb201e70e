package bls12381_test

import (
	"context"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	gsolver "github.com/consensys/gnark/constraint/solver"
	"github.com/consensys/gnark/frontend"
	_ "github.com/consensys/gnark/std/math/bitslice" // registers its hints
	_ "github.com/consensys/gnark/std/math/uints"    // registers its hints
)

// registeredHint returns gnark's registered hint function of that name.
func registeredHint(t *testing.T, name string) gsolver.Hint {
	t.Helper()
	for _, h := range gsolver.GetRegisteredHints() {
		if gsolver.GetHintName(h) == name {
			return h
		}
	}
	t.Fatalf("no registered hint %s", name)
	return nil
}

// hintCall is one call of a registered hint in stdHints: its inputs are
// witness values, its output count fixed by the circuit.
type hintCall struct {
	hint  string
	ins   int
	nbOut int
}

// stdHints calls registered std hints on witness values.
type stdHints struct {
	Calls []hintCall          `gnark:"-"`
	In    []frontend.Variable `gnark:",secret"`
	fns   []gsolver.Hint
}

func (c *stdHints) Define(api frontend.API) error {
	k := 0
	for i, call := range c.Calls {
		outs, err := api.Compiler().NewHint(c.fns[i], call.nbOut, c.In[k:k+call.ins]...)
		if err != nil {
			return err
		}
		k += call.ins
		for _, o := range outs {
			api.AssertIsEqual(api.Mul(o, c.In[0]), api.Mul(c.In[0], o))
		}
	}
	return nil
}

// TestNativeStdHints: the std hints solved on field elements give what the
// hint functions give, for inputs of one word and beyond (where the hint
// function is called), and the hint functions' errors.
func TestNativeStdHints(t *testing.T) {
	const (
		xor  = "github.com/consensys/gnark/std/math/uints.xorHint"
		and  = "github.com/consensys/gnark/std/math/uints.andHint"
		or   = "github.com/consensys/gnark/std/math/uints.orHint"
		toB  = "github.com/consensys/gnark/std/math/uints.toBytes"
		part = "github.com/consensys/gnark/std/math/bitslice.partitionHint"
		inv  = "github.com/consensys/gnark/constraint/solver.InvZeroHint"
	)
	rng := rand.New(rand.NewPCG(newSeed(t), 60))
	big64 := new(big.Int).Lsh(big.NewInt(1), 64)
	word := func() *big.Int { return new(big.Int).SetUint64(rng.Uint64()) }
	wide := func() *big.Int { f := randFr(rng); return f.BigInt(new(big.Int)) }
	small := func(v uint64) *big.Int { return new(big.Int).SetUint64(v) }
	maxWord := new(big.Int).Sub(big64, big.NewInt(1))

	type call struct {
		hint  string
		nbOut int
		in    []*big.Int
	}
	calls := []call{
		{inv, 1, []*big.Int{small(1)}}, // In[0] is 1: the circuit's multiplier
		{xor, 1, []*big.Int{word(), word()}},
		{xor, 1, []*big.Int{maxWord, small(1)}},
		{xor, 1, []*big.Int{big64, small(3)}},
		{xor, 1, []*big.Int{wide(), wide()}},
		{and, 1, []*big.Int{word(), word()}},
		{and, 1, []*big.Int{wide(), word()}},
		{or, 1, []*big.Int{word(), word()}},
		{or, 1, []*big.Int{wide(), wide()}},
		{toB, 4, []*big.Int{small(4), small(rng.Uint64() >> 32)}},
		{toB, 8, []*big.Int{small(8), maxWord}},
		{toB, 10, []*big.Int{small(10), word()}},
		{part, 2, []*big.Int{small(0), word()}},
		{part, 2, []*big.Int{small(8), word()}},
		{part, 2, []*big.Int{small(63), word()}},
		{part, 2, []*big.Int{small(64), word()}},
		{part, 2, []*big.Int{small(200), word()}},
		{part, 2, []*big.Int{small(8), wide()}},
		{part, 2, []*big.Int{small(100), wide()}},
		{inv, 1, []*big.Int{small(0)}},
		{inv, 1, []*big.Int{wide()}},
	}
	shape := &stdHints{}
	var values []*big.Int
	for _, c := range calls {
		shape.Calls = append(shape.Calls, hintCall{hint: c.hint, ins: len(c.in), nbOut: c.nbOut})
		shape.fns = append(shape.fns, registeredHint(t, c.hint))
		values = append(values, c.in...)
	}
	shape.In = make([]frontend.Variable, len(values))
	cc := compile(t, testCircuit{name: "std-hints", shape: shape})
	if reason := cc.s.Fallback(); reason != "" {
		t.Fatalf("falls back to gnark: %s", reason)
	}
	assign := func(vals []*big.Int) *stdHints {
		a := &stdHints{In: make([]frontend.Variable, len(vals))}
		for i, v := range vals {
			var e fr.Element
			e.SetBigInt(v)
			a.In[i] = e.String()
		}
		return a
	}
	w := fullWitness(t, assign(values))
	want, err := gnarkSolve(t, cc.r1cs, w)
	if err != nil {
		t.Fatalf("gnark's solver: %v", err)
	}
	got, err := cc.s.Solve(context.Background(), w)
	if err != nil {
		t.Fatal(err)
	}
	sameSolution(t, got, want)

	// inputs the hint functions refuse: the same errors.
	k := 0
	for i, c := range calls {
		var changes [][2]int // input, value: 0 for 2^64, else the value − 1
		switch c.hint {
		case toB:
			changes = [][2]int{{k + 1, 0}, {k, c.nbOut + 2}} // a value not a word; a count not the outputs'
		case part:
			changes = [][2]int{{k, 0}} // a split not a word
		}
		for _, ch := range changes {
			bad := append([]*big.Int(nil), values...)
			bad[ch[0]] = big64
			if ch[1] != 0 {
				bad[ch[0]] = small(uint64(ch[1] - 1))
			}
			_, werr := gnarkSolve(t, cc.r1cs, fullWitness(t, assign(bad)))
			_, gerr := cc.s.Solve(context.Background(), fullWitness(t, assign(bad)))
			if werr == nil || gerr == nil || werr.Error() != gerr.Error() {
				t.Fatalf("call %d (%s): error %v, gnark's %v", i, c.hint, gerr, werr)
			}
		}
		k += len(c.in)
	}
}
