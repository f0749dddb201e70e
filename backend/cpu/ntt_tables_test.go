package cpu

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
)

// TestNTTWithoutTables: the transforms of a domain that keeps no tables
// (sizes above maxTablesLogN) equal those of one that does, in every
// variant the prover uses, on random inputs.
func TestNTTWithoutTables(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 3))
	const logN = 10
	n := 1 << logN
	in := make([]fr.Element, n)
	for i := range in {
		in[i] = fr.Element{rng.Uint64(), rng.Uint64(), rng.Uint64(), rng.Uint64() >> 4}
	}
	var shift fr.Element
	shift.SetUint64(7)
	specs := []backend.NTTSpec{
		{LogN: logN, Inverse: true, Order: backend.DIF},
		{LogN: logN, Order: backend.DIT},
		{LogN: logN, Order: backend.DIT, Coset: true, CosetShift: shift},
		{LogN: logN, Order: backend.DIF, Coset: true, CosetShift: shift},
		{LogN: logN, Inverse: true, Order: backend.DIF, Coset: true, CosetShift: shift},
		{LogN: logN, Inverse: true, Order: backend.DIT, Coset: true, CosetShift: shift},
	}
	run := func(spec backend.NTTSpec) []fr.Element {
		b := MustNew()
		buf, err := b.Alloc(nil, int64(n)*backend.ScalarBytes)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Upload(nil, buf, 0, backend.AsBytes(in)); err != nil {
			t.Fatal(err)
		}
		if err := b.NTT(nil, buf, spec); err != nil {
			t.Fatal(err)
		}
		out := make([]fr.Element, n)
		if err := b.Download(nil, backend.AsBytes(out), buf, 0); err != nil {
			t.Fatal(err)
		}
		return out
	}
	saved := maxTablesLogN
	defer func() { maxTablesLogN = saved }()
	for _, spec := range specs {
		maxTablesLogN = logN
		with := run(spec)
		maxTablesLogN = logN - 1
		without := run(spec)
		if slices.Equal(with, in) {
			t.Fatalf("%+v: the transform left its input unchanged", spec)
		}
		if !slices.Equal(with, without) {
			t.Fatalf("%+v: the transform without tables differs from the one with them", spec)
		}
	}
}
