package cpu

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
)

// TestNTTWithoutTables: above maxTablesLogN, a domain keeps its tables
// when the host memory budget has room for them (WithHostMemory) and not
// otherwise, and the transforms of a domain without tables equal those of
// one with them, in every variant the prover uses, on random inputs.
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
		{LogN: logN, Order: backend.DIT, Coset: true, CosetShift: backend.ValueBytes(&shift)},
		{LogN: logN, Order: backend.DIF, Coset: true, CosetShift: backend.ValueBytes(&shift)},
		{LogN: logN, Inverse: true, Order: backend.DIF, Coset: true, CosetShift: backend.ValueBytes(&shift)},
		{LogN: logN, Inverse: true, Order: backend.DIT, Coset: true, CosetShift: backend.ValueBytes(&shift)},
	}
	for i := range specs {
		specs[i].Curve = ecc.BLS12_381
	}
	frBytes := curve.Must(ecc.BLS12_381).FrBytes
	run := func(spec backend.NTTSpec, host int64, wantTables bool) []fr.Element {
		b := MustNew(WithHostMemory(host))
		buf, err := b.Alloc(nil, int64(n)*curve.Must(ecc.BLS12_381).FrBytes)
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
		if got := b.kernels[ecc.BLS12_381].HasTables(logN, func(l int) bool { return b.keepTables(frBytes, l) }); got != wantTables {
			t.Fatalf("%+v, host memory %d, maxTablesLogN %d: domain keeps tables %v, want %v", spec, host, maxTablesLogN, got, wantTables)
		}
		_, note := b.HostSchedule(ecc.BLS12_381, logN, []int{n}, n)
		if want := map[bool]string{true: "NTT tables kept", false: "NTT tables built as needed"}[wantTables]; !strings.Contains(note, want) {
			t.Fatalf("HostSchedule's note %q does not say %q", note, want)
		}
		return out
	}
	saved := maxTablesLogN
	defer func() { maxTablesLogN = saved }()
	for _, spec := range specs {
		maxTablesLogN = logN
		with := run(spec, 1, true) // always kept up to maxTablesLogN
		maxTablesLogN = logN - 1
		roomy := run(spec, tableBytes(frBytes, logN)*tablesShare, true)
		without := run(spec, tableBytes(frBytes, logN)*tablesShare-1, false)
		if !slices.Equal(with, roomy) {
			t.Fatalf("%+v: the transform with tables kept for room differs", spec)
		}
		if slices.Equal(with, in) {
			t.Fatalf("%+v: the transform left its input unchanged", spec)
		}
		if !slices.Equal(with, without) {
			t.Fatalf("%+v: the transform without tables differs from the one with them", spec)
		}
	}
}
