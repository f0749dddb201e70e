package bw6761_test

import (
	"context"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bw6-761/fr"
	gsolver "github.com/consensys/gnark/constraint/solver"
	"github.com/consensys/gnark/frontend"
	_ "github.com/consensys/gnark/std/algebra/native/fields_bls12377" // registers its hints
)

// e2Hints calls gnark's fields_bls12377 E2 hints on inputs that are each
// In[k] + 3·Z1 − (2⁶⁴−1)·Z2: expressions of small integer coefficients,
// read through the wide sum.
type e2Hints struct {
	Ins    []int               `gnark:"-"` // each call's input count: 4 divE2Hint, 2 inverseE2Hint
	In     []frontend.Variable `gnark:",secret"`
	Z1, Z2 frontend.Variable   `gnark:",secret"`
	fns    []gsolver.Hint
}

var e2HintMinusK = new(big.Int).Neg(new(big.Int).SetUint64(^uint64(0)))

func (c *e2Hints) Define(api frontend.API) error {
	k := 0
	for i, n := range c.Ins {
		ins := make([]frontend.Variable, n)
		for j := range ins {
			ins[j] = api.Add(c.In[k+j], api.Mul(c.Z1, 3), api.Mul(c.Z2, e2HintMinusK))
		}
		k += n
		outs, err := api.Compiler().NewHint(c.fns[i], 2, ins...)
		if err != nil {
			return err
		}
		for _, o := range outs {
			api.AssertIsEqual(api.Mul(o, c.Z1), api.Mul(c.Z1, o))
		}
	}
	return nil
}

// TestNativeE2Hints: divE2Hint and inverseE2Hint solved natively give
// gnark's W, A, B and C on random E2 elements, elements with a zero
// coordinate, small ones, and zero dividends, divisors and inverses (gnark
// gives 0 for those, no error).
func TestNativeE2Hints(t *testing.T) {
	const (
		div = "github.com/consensys/gnark/std/algebra/native/fields_bls12377.divE2Hint"
		inv = "github.com/consensys/gnark/std/algebra/native/fields_bls12377.inverseE2Hint"
	)
	rng := rand.New(rand.NewPCG(newSeed(t), 61))
	var zero, one fr.Element
	one.SetOne()
	e2 := func(kind int) [2]fr.Element {
		switch kind {
		case 0:
			return [2]fr.Element{zero, zero}
		case 1:
			return [2]fr.Element{randFr(rng), zero}
		case 2:
			return [2]fr.Element{zero, randFr(rng)}
		case 3:
			var s fr.Element
			s.SetUint64(rng.Uint64N(1 << 20))
			return [2]fr.Element{s, one}
		}
		return [2]fr.Element{randFr(rng), randFr(rng)}
	}
	shape := &e2Hints{}
	var targets []fr.Element
	for a := range 5 {
		for b := range 5 {
			x, y := e2(a), e2(b)
			shape.Ins = append(shape.Ins, 4)
			shape.fns = append(shape.fns, registeredHint(t, div))
			targets = append(targets, x[0], x[1], y[0], y[1])
		}
		x := e2(a)
		shape.Ins = append(shape.Ins, 2)
		shape.fns = append(shape.fns, registeredHint(t, inv))
		targets = append(targets, x[0], x[1])
	}
	shape.In = make([]frontend.Variable, len(targets))
	cc := compile(t, testCircuit{name: "e2-hints", shape: shape})
	if reason := cc.s.Fallback(); reason != "" {
		t.Fatalf("falls back to gnark: %s", reason)
	}
	// In[k] = target − 3·Z1 + (2⁶⁴−1)·Z2
	z1, z2 := randFr(rng), randFr(rng)
	var mk, t1, t2 fr.Element
	mk.SetUint64(^uint64(0))
	t1.SetUint64(3)
	t1.Mul(&t1, &z1)
	t2.Mul(&mk, &z2)
	a := &e2Hints{In: make([]frontend.Variable, len(targets)), Z1: z1.String(), Z2: z2.String()}
	for k, v := range targets {
		v.Sub(&v, &t1).Add(&v, &t2)
		a.In[k] = v.String()
	}
	w := fullWitness(t, a)
	want, err := gnarkSolve(t, cc.r1cs, w)
	if err != nil {
		t.Fatalf("gnark's solver: %v", err)
	}
	got, err := cc.s.Solve(context.Background(), w)
	if err != nil {
		t.Fatal(err)
	}
	sameSolution(t, got, want)
}
