package solver_test

import (
	"crypto/sha256"
	"crypto/sha3"
	"errors"
	"math/big"
	"math/rand/v2"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/twistededwards/eddsa"
	secp "github.com/consensys/gnark-crypto/ecc/secp256k1/ecdsa"
	tedwards "github.com/consensys/gnark-crypto/ecc/twistededwards"
	"github.com/consensys/gnark-crypto/hash"
	"github.com/consensys/gnark/constraint/solver"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/std/algebra/emulated/sw_emulated"
	"github.com/consensys/gnark/std/algebra/native/twistededwards"
	"github.com/consensys/gnark/std/hash/mimc"
	"github.com/consensys/gnark/std/hash/sha2"
	stdsha3 "github.com/consensys/gnark/std/hash/sha3"
	"github.com/consensys/gnark/std/lookup/logderivlookup"
	"github.com/consensys/gnark/std/math/emulated"
	"github.com/consensys/gnark/std/math/uints"
	"github.com/consensys/gnark/std/rangecheck"
	stdecdsa "github.com/consensys/gnark/std/signature/ecdsa"
	stdeddsa "github.com/consensys/gnark/std/signature/eddsa"
)

// Each circuit below comes with a function that draws a satisfying
// assignment from a seeded stream.

// mulChain: X^(N+1) = Y, N multiplications (N+1 constraints).
type mulChain struct {
	N int               `gnark:"-"`
	X frontend.Variable `gnark:",secret"`
	Y frontend.Variable `gnark:",public"`
}

func (c *mulChain) Define(api frontend.API) error {
	acc := c.X
	for i := 0; i < c.N; i++ {
		acc = api.Mul(acc, c.X)
	}
	api.AssertIsEqual(acc, c.Y)
	return nil
}

func mulChainAssignment(n int, rng *rand.Rand) frontend.Circuit {
	x := randFr(rng)
	var y fr.Element
	y.Exp(x, big.NewInt(int64(n+1)))
	return &mulChain{N: n, X: x.String(), Y: y.String()}
}

// arith mixes divisions, inverses, boolean selects and bit decompositions:
// the R1C shapes whose unknown sits in L, R or O, and zero divisors.
type arith struct {
	X, Y []frontend.Variable `gnark:",secret"`
	Out  frontend.Variable   `gnark:",public"`
}

func (c *arith) Define(api frontend.API) error {
	acc := frontend.Variable(0)
	for i := range c.X {
		q := api.Div(c.X[i], c.Y[i])
		inv := api.Inverse(c.Y[i])
		z := api.IsZero(api.Sub(c.X[i], c.Y[i]))
		s := api.Select(api.ToBinary(c.X[i], 255)[0], q, inv)
		bits := api.ToBinary(api.Mul(c.X[i], 3), 255)
		acc = api.Add(acc, s, z, api.FromBinary(bits[:64]...), api.DivUnchecked(q, 7))
	}
	api.AssertIsEqual(acc, c.Out)
	return nil
}

func arithAssignment(n int, rng *rand.Rand) frontend.Circuit {
	w := &arith{X: make([]frontend.Variable, n), Y: make([]frontend.Variable, n)}
	var acc fr.Element
	for i := 0; i < n; i++ {
		x, y := randFr(rng), randFr(rng)
		if i%3 == 0 {
			y = x // the IsZero branch
		}
		w.X[i], w.Y[i] = x.String(), y.String()
		var q, inv, s, z, t, seven fr.Element
		q.Div(&x, &y)
		inv.Inverse(&y)
		if i%3 == 0 {
			z.SetOne()
		}
		xb := x.Bits()
		if xb[0]&1 == 1 {
			s = q
		} else {
			s = inv
		}
		t.SetUint64(3)
		t.Mul(&t, &x)
		low := t.Bits()[0]
		var lowE fr.Element
		lowE.SetUint64(low)
		seven.SetUint64(7)
		var d fr.Element
		d.Div(&q, &seven)
		acc.Add(&acc, &s).Add(&acc, &z).Add(&acc, &lowE).Add(&acc, &d)
	}
	w.Out = acc.String()
	return w
}

// sha2Circuit: SHA-256 of a message of fixed length.
type sha2Circuit struct {
	In       []uints.U8
	Expected [32]uints.U8 `gnark:",public"`
}

func (c *sha2Circuit) Define(api frontend.API) error {
	h, err := sha2.New(api)
	if err != nil {
		return err
	}
	u, err := uints.NewBytes(api)
	if err != nil {
		return err
	}
	h.Write(c.In)
	for i, b := range h.Sum() {
		u.AssertIsEqual(c.Expected[i], b)
	}
	return nil
}

func sha2Assignment(n int, rng *rand.Rand) frontend.Circuit {
	msg := randBytes(rng, n)
	d := sha256.Sum256(msg)
	w := &sha2Circuit{In: uints.NewU8Array(msg)}
	copy(w.Expected[:], uints.NewU8Array(d[:]))
	return w
}

// sha3Circuit: SHA3-256 of a message of fixed length.
type sha3Circuit struct {
	In       []uints.U8
	Expected [32]uints.U8 `gnark:",public"`
}

func (c *sha3Circuit) Define(api frontend.API) error {
	h, err := stdsha3.New256(api)
	if err != nil {
		return err
	}
	u, err := uints.NewBytes(api)
	if err != nil {
		return err
	}
	h.Write(c.In)
	for i, b := range h.Sum() {
		u.AssertIsEqual(c.Expected[i], b)
	}
	return nil
}

func sha3Assignment(n int, rng *rand.Rand) frontend.Circuit {
	msg := randBytes(rng, n)
	d := sha3.Sum256(msg)
	w := &sha3Circuit{In: uints.NewU8Array(msg)}
	copy(w.Expected[:], uints.NewU8Array(d[:]))
	return w
}

// ecdsaCircuit: one secp256k1 ECDSA verification in emulated arithmetic.
type ecdsaCircuit struct {
	Sig stdecdsa.Signature[emulated.Secp256k1Fr]
	Msg emulated.Element[emulated.Secp256k1Fr]
	Pub stdecdsa.PublicKey[emulated.Secp256k1Fp, emulated.Secp256k1Fr] `gnark:",public"`
}

func (c *ecdsaCircuit) Define(api frontend.API) error {
	c.Pub.Verify(api, sw_emulated.GetCurveParams[emulated.Secp256k1Fp](), &c.Msg, &c.Sig)
	return nil
}

func ecdsaAssignment(rng *rand.Rand) frontend.Circuit {
	key, err := secp.GenerateKey(seededReader{rng})
	if err != nil {
		panic(err)
	}
	msg := randBytes(rng, 32)
	sigBin, err := key.Sign(msg, nil)
	if err != nil {
		panic(err)
	}
	var sig secp.Signature
	if _, err := sig.SetBytes(sigBin); err != nil {
		panic(err)
	}
	r, s := new(big.Int).SetBytes(sig.R[:32]), new(big.Int).SetBytes(sig.S[:32])
	return &ecdsaCircuit{
		Sig: stdecdsa.Signature[emulated.Secp256k1Fr]{
			R: emulated.ValueOf[emulated.Secp256k1Fr](r),
			S: emulated.ValueOf[emulated.Secp256k1Fr](s),
		},
		Msg: emulated.ValueOf[emulated.Secp256k1Fr](secp.HashToInt(msg)),
		Pub: stdecdsa.PublicKey[emulated.Secp256k1Fp, emulated.Secp256k1Fr]{
			X: emulated.ValueOf[emulated.Secp256k1Fp](key.PublicKey.A.X),
			Y: emulated.ValueOf[emulated.Secp256k1Fp](key.PublicKey.A.Y),
		},
	}
}

// eddsaCircuit: one EdDSA verification on Jubjub (the twisted Edwards
// curve over BLS12-381's scalar field) with MiMC.
type eddsaCircuit struct {
	PublicKey stdeddsa.PublicKey `gnark:",public"`
	Signature stdeddsa.Signature `gnark:",public"`
	Message   frontend.Variable  `gnark:",public"`
}

func (c *eddsaCircuit) Define(api frontend.API) error {
	curve, err := twistededwards.NewEdCurve(api, tedwards.BLS12_381)
	if err != nil {
		return err
	}
	h, err := mimc.NewMiMC(api)
	if err != nil {
		return err
	}
	return stdeddsa.Verify(curve, c.Signature, c.Message, c.PublicKey, &h)
}

func eddsaAssignment(rng *rand.Rand) frontend.Circuit {
	key, err := eddsa.GenerateKey(seededReader{rng})
	if err != nil {
		panic(err)
	}
	m := randFr(rng)
	msg := m.Marshal()
	sig, err := key.Sign(msg, hash.MIMC_BLS12_381.New())
	if err != nil {
		panic(err)
	}
	w := &eddsaCircuit{Message: m.String()}
	w.PublicKey.Assign(tedwards.BLS12_381, key.Public().Bytes())
	w.Signature.Assign(tedwards.BLS12_381, sig)
	return w
}

// rangeLookup range-checks values (std/rangecheck, with its BSB22
// commitment) and reads a table (std/lookup/logderivlookup).
type rangeLookup struct {
	V     []frontend.Variable `gnark:",secret"`
	Table []frontend.Variable `gnark:",secret"`
	Idx   []frontend.Variable `gnark:",secret"`
	Sum   frontend.Variable   `gnark:",public"`
}

func (c *rangeLookup) Define(api frontend.API) error {
	rc := rangecheck.New(api)
	t := logderivlookup.New(api)
	for _, e := range c.Table {
		t.Insert(e)
	}
	got := t.Lookup(c.Idx...)
	sum := frontend.Variable(0)
	for i, v := range c.V {
		rc.Check(v, 20)
		sum = api.Add(sum, api.Mul(v, got[i%len(got)]))
	}
	api.AssertIsEqual(sum, c.Sum)
	return nil
}

func rangeLookupAssignment(n, table int, rng *rand.Rand) frontend.Circuit {
	w := &rangeLookup{V: make([]frontend.Variable, n), Table: make([]frontend.Variable, table), Idx: make([]frontend.Variable, n)}
	tab := make([]fr.Element, table)
	for i := range tab {
		tab[i] = randFr(rng)
		w.Table[i] = tab[i].String()
	}
	var sum fr.Element
	for i := 0; i < n; i++ {
		var v fr.Element
		v.SetUint64(rng.Uint64N(1 << 20))
		idx := rng.IntN(table)
		w.V[i], w.Idx[i] = v.String(), idx
		var p fr.Element
		p.Mul(&v, &tab[idx])
		sum.Add(&sum, &p)
	}
	w.Sum = sum.String()
	return w
}

// withHint computes square roots with a hint the caller passes through the
// solver options (it is not registered).
type withHint struct {
	X []frontend.Variable `gnark:",secret"`
	S frontend.Variable   `gnark:",public"`
}

// sqrtHint returns a square root of its input (the smaller of the two).
func sqrtHint(_ *big.Int, in, out []*big.Int) error {
	var x fr.Element
	x.SetBigInt(in[0])
	if x.Sqrt(&x) == nil {
		return errors.New("sqrtHint: not a square")
	}
	var neg fr.Element
	neg.Neg(&x)
	if neg.Cmp(&x) < 0 {
		x = neg
	}
	x.BigInt(out[0])
	return nil
}

func (c *withHint) Define(api frontend.API) error {
	sum := frontend.Variable(0)
	for _, x := range c.X {
		r, err := api.Compiler().NewHint(sqrtHint, 1, x)
		if err != nil {
			return err
		}
		api.AssertIsEqual(api.Mul(r[0], r[0]), x)
		sum = api.Add(sum, r[0])
	}
	api.AssertIsEqual(sum, c.S)
	return nil
}

func withHintAssignment(n int, rng *rand.Rand) frontend.Circuit {
	w := &withHint{X: make([]frontend.Variable, n)}
	var sum fr.Element
	for i := range w.X {
		r := randFr(rng)
		var x, b fr.Element
		x.Square(&r)
		w.X[i] = x.String()
		if err := sqrtHint(nil, []*big.Int{x.BigInt(new(big.Int))}, []*big.Int{new(big.Int)}); err != nil {
			panic(err)
		}
		out := new(big.Int)
		_ = sqrtHint(nil, []*big.Int{x.BigInt(new(big.Int))}, []*big.Int{out})
		b.SetBigInt(out)
		sum.Add(&sum, &b)
	}
	w.S = sum.String()
	return w
}

func randFr(rng *rand.Rand) fr.Element {
	var b [fr.Bytes]byte
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	var e fr.Element
	e.SetBytes(b[:])
	return e
}

func randBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// seededReader reads a seeded stream, for key generation.
type seededReader struct{ rng *rand.Rand }

func (r seededReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r.rng.Uint32())
	}
	return len(p), nil
}

// testHints are the solver options both solvers get: the user hint, and
// deterministic stand-ins for gnark's commitment placeholder and its
// commitment mask (which read crypto/rand), so that the two solves can be
// compared.
func testHints(seed uint64) []solver.Option {
	return []solver.Option{
		solver.WithHints(sqrtHint),
		solver.OverrideHint(solver.GetHintID(fcsPlaceholder), func(mod *big.Int, in, out []*big.Int) error {
			h := sha256.New()
			for _, v := range in {
				h.Write(v.Bytes())
			}
			out[0].SetBytes(h.Sum(nil))
			out[0].Mod(out[0], mod)
			return nil
		}),
		solver.OverrideHint(randomizeID, func(mod *big.Int, in, out []*big.Int) error {
			rng := rand.New(rand.NewPCG(seed, uint64(len(out))))
			for i := range out {
				e := randFr(rng)
				e.BigInt(out[i])
			}
			return nil
		}),
	}
}
