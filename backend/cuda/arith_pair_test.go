//go:build cuda

package cuda

import (
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"

	"github.com/g16prover/g16/backend"
)

// fp_pair's two products and two squares computed together (field_pair.cuh)
// against gnark-crypto: every (a, b, c, d) of the grid's values (the ends of
// [0, p), limbs all ones or zeros) and random ones, so that each of the two
// interleaved products meets every other operand.
func checkPairGrid(t *testing.T, b *Backend) {
	e := gridFp(testRand(t), 2)
	x, y := quads(e)
	n := len(x) / 2
	out := make([]fp.Element, n)
	for _, o := range []struct {
		name string
		op   int
		at   int // the operands' offset: 0 for a·b, n for c·d
	}{{"mul2 a·b", opFpMul2A, 0}, {"mul2 c·d", opFpMul2B, n}} {
		if err := fieldOp(b, o.op, backend.AsBytes(out), backend.AsBytes(x), backend.AsBytes(y), n); err != nil {
			t.Fatalf("fp %s: %v", o.name, err)
		}
		for i := range out {
			var want fp.Element
			want.Mul(&x[o.at+i], &y[o.at+i])
			if out[i] != want {
				t.Fatalf("fp %s with a=%v b=%v c=%v d=%v: got %v, want %v", o.name, x[i].String(), y[i].String(),
					x[n+i].String(), y[n+i].String(), out[i].String(), want.String())
			}
		}
	}
	// The squares: every pair (a, b) of the grid.
	var sa, sb []fp.Element
	for _, a := range e {
		for _, bb := range e {
			sa, sb = append(sa, a), append(sb, bb)
		}
	}
	out = out[:len(sa)]
	for _, o := range []struct {
		name string
		op   int
		of   []fp.Element
	}{{"sqr2 a²", opFpSqr2A, sa}, {"sqr2 b²", opFpSqr2B, sb}} {
		if err := fieldOp(b, o.op, backend.AsBytes(out), backend.AsBytes(sa), backend.AsBytes(sb), len(sa)); err != nil {
			t.Fatalf("fp %s: %v", o.name, err)
		}
		for i := range out {
			var want fp.Element
			want.Square(&o.of[i])
			if out[i] != want {
				t.Fatalf("fp %s with a=%v b=%v: got %v, want %v", o.name, sa[i].String(), sb[i].String(), out[i].String(), want.String())
			}
		}
	}
}

func TestFieldPairHost(t *testing.T) {
	checkPairGrid(t, nil)
}

func TestFieldPairDevice(t *testing.T) {
	checkPairGrid(t, newTestBackend(t))
}
