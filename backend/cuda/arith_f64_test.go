//go:build cuda

package cuda

import (
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
)

// The FP64-pipe Fp product (kernels/field_f64.cuh) against gnark-crypto, on
// the host (std::fma is IEEE's fused multiply-add, as the GPU's DFMA) and on
// the GPU; and its throughput beside fp_t's product.

// f64Inputs returns edgeFp's n elements and, as the second operands,
// another edgeFp set (the same edge values, random elements drawn afresh)
// shuffled, so that edge values meet edge values and random ones.
func f64Inputs(t *testing.T, n int) (a, b []fp.Element) {
	rng := testRand(t)
	a = edgeFp(n)
	b = edgeFp(n)
	rng.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
	return a, b
}

func checkF64(t *testing.T, dev *Backend) {
	n := 4096
	if testing.Short() {
		n = 512
	}
	a, b := f64Inputs(t, n)
	got, err := f64Op(dev, opF64Mul, a, b)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		var want fp.Element
		want.Mul(&a[i], &b[i])
		if got[i] != want {
			t.Fatalf("fp64_t product %d: %v · %v = %v, want %v", i, a[i].String(), b[i].String(), got[i].String(), want.String())
		}
	}
	got, err = f64Op(dev, opF64Chain, a, b)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		want := a[i]
		for k := 0; k < 8; k++ {
			want.Mul(&want, &b[i])
		}
		if got[i] != want {
			t.Fatalf("fp64_t chain %d: %v · %v⁸ = %v, want %v", i, a[i].String(), b[i].String(), got[i].String(), want.String())
		}
	}
	got, err = f64Op(dev, opF64RoundTrip, a, a)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		if got[i] != a[i] {
			t.Fatalf("fp64_t round trip %d: %v came back as %v", i, a[i].String(), got[i].String())
		}
	}
}

func TestFieldF64Host(t *testing.T) { checkF64(t, nil) }

func TestFieldF64Device(t *testing.T) { checkF64(t, newTestBackend(t)) }

func TestF64OpRejectsBadArguments(t *testing.T) {
	a := edgeFp(4)
	if _, err := f64Op(nil, 3, a, a); err == nil {
		t.Error("op 3: no error")
	}
	if _, err := f64Op(nil, -1, a, a); err == nil {
		t.Error("op -1: no error")
	}
}

// TestMulRate runs a full wave of threads, each multiplying ni fp_t chains
// and nf fp64_t chains, and logs the products a second of each mix against
// two fp_t chains alone. With both kinds in a thread the first of each
// start from the same element, so their results must agree (a check of
// the FP64 product over long chains). -short runs short chains.
func TestMulRate(t *testing.T) {
	dev := newTestBackend(t)
	iters := 4000
	if testing.Short() {
		iters = 20
	}
	x, y := f64Inputs(t, 1<<12)
	mixes := [][2]int{{2, 0}, {1, 0}, {0, 1}, {0, 2}, {1, 1}, {2, 1}, {1, 2}, {2, 2}}
	var base float64
	for _, m := range mixes {
		r, err := mulRateOn(dev, m[0], m[1], iters, x, y)
		if err != nil {
			t.Fatalf("fp_t %d, fp64_t %d: %v", m[0], m[1], err)
		}
		if r.mismatch != 0 {
			t.Errorf("fp_t %d, fp64_t %d: %d of %d threads' fp_t and fp64_t chains differ", m[0], m[1], r.mismatch, r.threads)
		}
		rate := r.products() / (r.ms * 1e-3)
		if base == 0 {
			base = rate
		}
		t.Logf("mul rate: fp_t chains %d, fp64_t chains %d: %3d registers, %6d threads, %d products a chain, %8.3f ms, %7.2f G products/s, %.3f× two fp_t chains",
			m[0], m[1], r.regs, r.threads, iters, r.ms, rate/1e9, rate/base)
	}
}
