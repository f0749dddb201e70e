package cpu_test

import (
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr/fft"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	g16curve "github.com/g16prover/g16/curve"
)

// TestBN254 runs the Backend's compute calls on BN254 and checks each
// against gnark-crypto's bn254 packages called directly: the MSMs (scalars
// 0, 1, −1 and random, so that the split's three parts all run) against
// MultiExp, the NTTs against fft.Domain, the quotient step against its
// formula.
func TestBN254(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 254))
	b := cpu.MustNew(cpu.WithTasks(2))
	defer b.Close()
	if err := b.Supports(ecc.BN254); err != nil {
		t.Fatal(err)
	}
	const n = 1 << 9
	scalars := make([]fr.Element, n)
	for i := range scalars {
		switch rng.IntN(4) {
		case 0: // zero
		case 1:
			scalars[i].SetOne()
		case 2:
			scalars[i].SetOne()
			scalars[i].Neg(&scalars[i])
		default:
			scalars[i].SetUint64(rng.Uint64())
			scalars[i].Mul(&scalars[i], &scalars[i]).Mul(&scalars[i], &scalars[i])
		}
	}
	_, _, g1, g2 := bn254.Generators()
	p1 := make([]bn254.G1Affine, n)
	p2 := make([]bn254.G2Affine, n)
	for i := range p1 {
		k := new(big.Int).SetUint64(rng.Uint64() | 1)
		p1[i].ScalarMultiplication(&g1, k)
		p2[i].ScalarMultiplication(&g2, k)
	}
	upload := func(data []byte) backend.Buffer {
		buf, err := b.Alloc(nil, int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Upload(nil, buf, 0, data); err != nil {
			t.Fatal(err)
		}
		return buf
	}
	sb, b1, b2 := upload(backend.AsBytes(scalars)), upload(backend.AsBytes(p1)), upload(backend.AsBytes(p2))

	var got1, want1 bn254.G1Jac
	if err := b.MSMG1(nil, ecc.BN254, backend.ValueBytes(&got1), b1, 0, sb, n); err != nil {
		t.Fatal(err)
	}
	if _, err := want1.MultiExp(p1, scalars, ecc.MultiExpConfig{}); err != nil {
		t.Fatal(err)
	}
	if !got1.Equal(&want1) {
		t.Errorf("MSMG1 on BN254 differs from gnark-crypto's MultiExp")
	}
	var got2, want2 bn254.G2Jac
	if err := b.MSMG2(nil, ecc.BN254, backend.ValueBytes(&got2), b2, 0, sb, n); err != nil {
		t.Fatal(err)
	}
	if _, err := want2.MultiExp(p2, scalars, ecc.MultiExpConfig{}); err != nil {
		t.Fatal(err)
	}
	if !got2.Equal(&want2) {
		t.Errorf("MSMG2 on BN254 differs from gnark-crypto's MultiExp")
	}

	// The NTTs H uses: inverse DIF, then forward DIT on the coset.
	const logN = 9
	shift := fr.NewElement(5)
	if err := b.NTT(nil, sb, backend.NTTSpec{Curve: ecc.BN254, LogN: logN, Inverse: true, Order: backend.DIF}); err != nil {
		t.Fatal(err)
	}
	if err := b.NTT(nil, sb, backend.NTTSpec{Curve: ecc.BN254, LogN: logN, Order: backend.DIT, Coset: true, CosetShift: backend.ValueBytes(&shift)}); err != nil {
		t.Fatal(err)
	}
	got := make([]fr.Element, n)
	if err := b.Download(nil, backend.AsBytes(got), sb, 0); err != nil {
		t.Fatal(err)
	}
	want := append([]fr.Element(nil), scalars...)
	d := fft.NewDomain(n, fft.WithShift(shift))
	d.FFTInverse(want, fft.DIF)
	d.FFT(want, fft.DIT, fft.OnCoset())
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("NTT on BN254: element %d differs from gnark-crypto's fft", i)
		}
	}

	// The quotient step: a = (a·b − c)·zInv.
	a, bb, c := make([]fr.Element, n), make([]fr.Element, n), make([]fr.Element, n)
	for i := range a {
		a[i].SetRandom()
		bb[i].SetRandom()
		c[i].SetRandom()
	}
	var zInv fr.Element
	zInv.SetRandom()
	ab, bbuf, cb := upload(backend.AsBytes(a)), upload(backend.AsBytes(bb)), upload(backend.AsBytes(c))
	if err := b.QuotientStep(nil, ecc.BN254, ab, bbuf, cb, n, backend.ValueBytes(&zInv)); err != nil {
		t.Fatal(err)
	}
	if err := b.Download(nil, backend.AsBytes(got), ab, 0); err != nil {
		t.Fatal(err)
	}
	for i := range a {
		var w fr.Element
		w.Mul(&a[i], &bb[i]).Sub(&w, &c[i]).Mul(&w, &zInv)
		if got[i] != w {
			t.Fatalf("QuotientStep on BN254: element %d differs", i)
		}
	}

	// BN254's scalar field has 2-adicity 28: 2^29 is refused by name.
	if err := b.NTT(nil, sb, backend.NTTSpec{Curve: ecc.BN254, LogN: 29}); err == nil {
		t.Error("NTT of 2^29 on BN254: no error")
	}
}

// TestSupportsCurveTable: the backend computes on every curve of package
// curve's table and refuses another by name; an NTT past a curve's
// 2-adicity (the largest power of two dividing r − 1: 28 on BN254, 32 on
// BLS12-381, 47 on BLS12-377, 46 on BW6-761) is refused naming the curve.
func TestSupportsCurveTable(t *testing.T) {
	b := cpu.MustNew(cpu.WithTasks(2))
	defer b.Close()
	for _, id := range g16curve.Supported() {
		name := g16curve.Name(id)
		if err := b.Supports(id); err != nil {
			t.Errorf("Supports(%s): %v", name, err)
			continue
		}
		rm1 := new(big.Int).Sub(id.ScalarField(), big.NewInt(1))
		two := rm1.TrailingZeroBits()
		data, err := b.Alloc(nil, 8*g16curve.Must(id).FrBytes)
		if err != nil {
			t.Fatal(err)
		}
		err = b.NTT(nil, data, backend.NTTSpec{Curve: id, LogN: int(two) + 1})
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("[0, %d] (%s)", two, name)) {
			t.Errorf("%s: NTT of 2^%d: %v, want an error naming the bound %d and the curve", name, two+1, err, two)
		}
		if err := b.Free(nil, data); err != nil {
			t.Fatal(err)
		}
	}
	err := b.Supports(ecc.BLS24_315)
	if !errors.Is(err, backend.ErrUnsupportedCurve) || !strings.Contains(err.Error(), "bls24-315") || !strings.Contains(err.Error(), g16curve.SupportedNames()) {
		t.Errorf("Supports(BLS24-315): %v, want ErrUnsupportedCurve naming it and %s", err, g16curve.SupportedNames())
	}
}
