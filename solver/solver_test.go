package solver_test

import (
	"bytes"
	"context"
	"errors"
	"math/big"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"
	csbls12377 "github.com/consensys/gnark/constraint/bls12-377"
	csbls12381 "github.com/consensys/gnark/constraint/bls12-381"
	csbn254 "github.com/consensys/gnark/constraint/bn254"
	csbw6761 "github.com/consensys/gnark/constraint/bw6-761"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	"github.com/consensys/gnark/frontend/cs/scs"

	"github.com/g16prover/g16/curve"
	"github.com/g16prover/g16/solver"
)

// divChain: acc ← (acc/X_i)·acc from acc = X_0, and Y = acc + X_0.
type divChain struct {
	X []frontend.Variable `gnark:",secret"`
	Y frontend.Variable   `gnark:",public"`
}

func (c *divChain) Define(api frontend.API) error {
	acc := c.X[0]
	for _, x := range c.X[1:] {
		acc = api.Mul(api.Div(acc, x), acc)
	}
	api.AssertIsDifferent(acc, 0)
	api.AssertIsEqual(api.Add(acc, c.X[0]), c.Y)
	return nil
}

func compile(t *testing.T, id ecc.ID, n int, builder frontend.NewBuilder) constraint.ConstraintSystem {
	t.Helper()
	ccs, err := frontend.Compile(id.ScalarField(), builder, &divChain{X: make([]frontend.Variable, n)})
	if err != nil {
		t.Fatal(err)
	}
	return ccs
}

// witnessFor draws non-zero inputs mod the curve's r and computes Y with
// big.Ints.
func witnessFor(t *testing.T, id ecc.ID, n int, rng *rand.Rand) witness.Witness {
	t.Helper()
	r := id.ScalarField()
	c := &divChain{X: make([]frontend.Variable, n)}
	var acc, x0 *big.Int
	for i := range c.X {
		x := new(big.Int)
		for x.Sign() == 0 {
			x.SetUint64(rng.Uint64())
			for range 6 { // 448 bits, above every curve's r
				x.Lsh(x, 64).Or(x, new(big.Int).SetUint64(rng.Uint64()))
			}
			x.Mod(x, r)
		}
		c.X[i] = x
		if i == 0 {
			acc, x0 = new(big.Int).Set(x), x
			continue
		}
		q := new(big.Int).ModInverse(x, r)
		q.Mul(q, acc)
		acc.Mul(acc, q).Mod(acc, r) // (acc/x)·acc
	}
	c.Y = new(big.Int).Add(acc, x0)
	w, err := frontend.NewWitness(c, r)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestNew solves a circuit over each supported curve through New and
// requires gnark's W, A, B and C in the byte views.
func TestNew(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	for _, id := range curve.Supported() {
		t.Run(curve.Name(id), func(t *testing.T) {
			const n = 40
			ccs := compile(t, id, n, r1cs.NewBuilder)
			s, err := solver.New(ccs)
			if err != nil {
				t.Fatal(err)
			}
			if s.Curve() != id {
				t.Fatalf("Curve() = %s, want %s", s.Curve(), id)
			}
			if reason := s.Fallback(); reason != "" {
				t.Fatalf("falls back to gnark: %s", reason)
			}
			w := witnessFor(t, id, n, rng)
			got, err := s.Solve(context.Background(), w)
			if err != nil {
				t.Fatal(err)
			}
			want, err := ccs.Solve(w)
			if err != nil {
				t.Fatal(err)
			}
			if reflect.TypeOf(got.R1CS) != reflect.TypeOf(want) {
				t.Fatalf("solution is a %T, gnark's a %T", got.R1CS, want)
			}
			vw, va, vb, vc := vectors(t, want)
			for _, v := range []struct {
				name      string
				got, want []byte
			}{{"W", got.W, vw}, {"A", got.A, va}, {"B", got.B, vb}, {"C", got.C, vc}} {
				if len(v.got) != len(v.want) || len(v.got) == 0 || len(v.got)%int(curve.Must(id).FrBytes) != 0 {
					t.Fatalf("%s: %d bytes, gnark's %d", v.name, len(v.got), len(v.want))
				}
				if !bytes.Equal(v.got, v.want) {
					t.Fatalf("%s differs from gnark's", v.name)
				}
			}
		})
	}
}

// vectors is gnark's solution's W, A, B and C as bytes.
func vectors(t *testing.T, sol any) (w, a, b, c []byte) {
	t.Helper()
	switch x := sol.(type) {
	case *csbls12381.R1CSSolution:
		return raw(x.W), raw(x.A), raw(x.B), raw(x.C)
	case *csbn254.R1CSSolution:
		return raw(x.W), raw(x.A), raw(x.B), raw(x.C)
	case *csbls12377.R1CSSolution:
		return raw(x.W), raw(x.A), raw(x.B), raw(x.C)
	case *csbw6761.R1CSSolution:
		return raw(x.W), raw(x.A), raw(x.B), raw(x.C)
	}
	t.Fatalf("solution is a %T", sol)
	return
}

func raw[E any](v []E) []byte {
	var e E
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), len(v)*int(unsafe.Sizeof(e)))
}

// TestNewRefuses requires an error matching ErrUnsupported, naming what is
// wrong, for an R1CS over a field g16 has no solver for (Grumpkin's scalar
// field, BN254's base field) and for a PLONK system.
func TestNewRefuses(t *testing.T) {
	cases := []struct {
		name string
		ccs  constraint.ConstraintSystem
		want string
	}{
		{"grumpkin", compile(t, ecc.GRUMPKIN, 3, r1cs.NewBuilder), "over grumpkin; g16 solves R1CS over bn254, bls12-381, bls12-377, bw6-761"},
		{"plonk", compile(t, ecc.BN254, 3, scs.NewBuilder), "PLONK"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := solver.New(c.ccs)
			if !errors.Is(err, solver.ErrUnsupported) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want ErrUnsupported naming %q", err, c.want)
			}
		})
	}
	if _, err := solver.New(nil); err == nil {
		t.Fatal("nil constraint system: no error")
	}
}
