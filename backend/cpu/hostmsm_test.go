package cpu

import (
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	curve "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
)

// TestHostMSM: HostMSM over G1 and G2 equals gnark-crypto's MultiExp on
// fresh random points (one at infinity) and scalars mixing 0, ±1 and
// random values, for 1 and 3 tasks; malformed arguments are errors that
// say what is wrong.
func TestHostMSM(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 26))
	n := 300
	if testing.Short() {
		n = 100
	}
	_, _, g1, g2 := curve.Generators()
	p1 := make([]curve.G1Affine, n)
	p2 := make([]curve.G2Affine, n)
	s := make([]fr.Element, n)
	var one fr.Element
	one.SetOne()
	for i := range n {
		var k fr.Element
		k.MustSetRandom()
		b := k.BigInt(new(big.Int))
		p1[i].ScalarMultiplication(&g1, b)
		p2[i].ScalarMultiplication(&g2, b)
		switch rng.IntN(4) {
		case 0:
		case 1:
			s[i] = one
		case 2:
			s[i].Neg(&one)
		default:
			s[i].MustSetRandom()
		}
	}
	p1[n/2].SetInfinity()
	p2[n/2].SetInfinity()
	var want1 curve.G1Jac
	var want2 curve.G2Jac
	if _, err := want1.MultiExp(p1, s, ecc.MultiExpConfig{}); err != nil {
		t.Fatal(err)
	}
	if _, err := want2.MultiExp(p2, s, ecc.MultiExpConfig{}); err != nil {
		t.Fatal(err)
	}
	for _, tasks := range []int{1, 3} {
		var got1 curve.G1Jac
		var got2 curve.G2Jac
		if err := HostMSM(ecc.BLS12_381, false, backend.ValueBytes(&got1), backend.AsBytes(p1), backend.AsBytes(s), tasks); err != nil {
			t.Fatal(err)
		}
		if err := HostMSM(ecc.BLS12_381, true, backend.ValueBytes(&got2), backend.AsBytes(p2), backend.AsBytes(s), tasks); err != nil {
			t.Fatal(err)
		}
		if !got1.Equal(&want1) || !got2.Equal(&want2) {
			t.Errorf("%d tasks: G1 equal %v, G2 equal %v", tasks, got1.Equal(&want1), got2.Equal(&want2))
		}
	}

	var out2 curve.G2Jac
	for _, c := range []struct {
		name  string
		err   error
		words string
	}{
		{"G1-sized out for G2", HostMSM(ecc.BLS12_381, true, backend.ValueBytes(&want1), backend.AsBytes(p2), backend.AsBytes(s), 1), "Jacobian point takes"},
		{"one scalar short", HostMSM(ecc.BLS12_381, true, backend.ValueBytes(&out2), backend.AsBytes(p2), backend.AsBytes(s[1:]), 1), "bases"},
		{"partial point", HostMSM(ecc.BLS12_381, true, backend.ValueBytes(&out2), backend.AsBytes(p2)[1:], backend.AsBytes(s), 1), "not whole points"},
		{"no tasks", HostMSM(ecc.BLS12_381, true, backend.ValueBytes(&out2), backend.AsBytes(p2), backend.AsBytes(s), 0), "tasks"},
		{"other curve", HostMSM(ecc.BLS24_315, true, backend.ValueBytes(&out2), backend.AsBytes(p2), backend.AsBytes(s), 1), "not supported"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.words) || !strings.HasPrefix(c.err.Error(), "cpu: HostMSM") {
			t.Errorf("%s: got %v, want an error saying %q", c.name, c.err, c.words)
		}
	}
}
