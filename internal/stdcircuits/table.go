package stdcircuits

import (
	"fmt"
	"math/big"
	"math/rand/v2"

	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/std/lookup/logderivlookup"
	"github.com/consensys/gnark/std/rangecheck"
)

// rangeCircuit range-checks its secret values to Bits bits (std/rangecheck)
// and proves the public sum of their squares.
type rangeCircuit struct {
	V   []frontend.Variable `gnark:",secret"`
	Sum frontend.Variable   `gnark:",public"`

	bits int
}

func (c *rangeCircuit) Define(api frontend.API) error {
	rc := rangecheck.New(api)
	sum := frontend.Variable(0)
	for _, v := range c.V {
		rc.Check(v, c.bits)
		sum = api.Add(sum, api.Mul(v, v))
	}
	api.AssertIsEqual(sum, c.Sum)
	return nil
}

// RangeCheck range-checks n secret values to bits bits each (std/rangecheck).
func RangeCheck(n, bits int) (*Circuit, error) {
	if n < 1 || bits < 1 || bits > 62 {
		return nil, fmt.Errorf("stdcircuits: rangecheck: %d values of %d bits, need at least 1 value of 1 to 62 bits", n, bits)
	}
	return &Circuit{
		Name:  sized("rangecheck", "values", n),
		Shape: &rangeCircuit{V: make([]frontend.Variable, n), bits: bits},
		Assign: func(rng *rand.Rand) (frontend.Circuit, error) {
			a := &rangeCircuit{V: make([]frontend.Variable, n), bits: bits}
			sum, sq := new(big.Int), new(big.Int)
			for i := range n {
				v := rng.Uint64N(1 << bits)
				a.V[i] = v
				sq.SetUint64(v)
				sum.Add(sum, sq.Mul(sq, sq))
			}
			a.Sum = sum
			return a, nil
		},
	}, nil
}

// lookupCircuit looks up secret indices in a table of secret entries
// (std/lookup/logderivlookup) and proves the public sum of what it found.
type lookupCircuit struct {
	Table   []frontend.Variable `gnark:",secret"`
	Indices []frontend.Variable `gnark:",secret"`
	Sum     frontend.Variable   `gnark:",public"`
}

func (c *lookupCircuit) Define(api frontend.API) error {
	t := logderivlookup.New(api)
	for _, e := range c.Table {
		t.Insert(e)
	}
	sum := frontend.Variable(0)
	for _, v := range t.Lookup(c.Indices...) {
		sum = api.Add(sum, v)
	}
	api.AssertIsEqual(sum, c.Sum)
	return nil
}

// Lookup makes n lookups into a table of entries secret values
// (std/lookup/logderivlookup).
func Lookup(entries, n int) (*Circuit, error) {
	if entries < 1 || n < 1 {
		return nil, fmt.Errorf("stdcircuits: lookup: %d entries and %d lookups, need at least 1 of each", entries, n)
	}
	return &Circuit{
		Name:  sized("lookup", "lookups", n),
		Shape: &lookupCircuit{Table: make([]frontend.Variable, entries), Indices: make([]frontend.Variable, n)},
		Assign: func(rng *rand.Rand) (frontend.Circuit, error) {
			a := &lookupCircuit{Table: make([]frontend.Variable, entries), Indices: make([]frontend.Variable, n)}
			table := make([]uint64, entries)
			for i := range table {
				table[i] = rng.Uint64N(1 << 32)
				a.Table[i] = table[i]
			}
			sum, v := new(big.Int), new(big.Int)
			for i := range n {
				j := rng.IntN(entries)
				a.Indices[i] = j
				sum.Add(sum, v.SetUint64(table[j]))
			}
			a.Sum = sum
			return a, nil
		},
	}, nil
}
