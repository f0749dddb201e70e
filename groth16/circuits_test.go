package groth16_test

import (
	"bytes"
	cryptorand "crypto/rand"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/backend"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	"github.com/consensys/gnark/std/rangecheck"

	g16curve "github.com/g16prover/g16/curve"
)

// mulChain proves knowledge of X with X^(N+1) = Y: N multiplications.
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

// rangeChecked range-checks secret values through gnark's std/rangecheck,
// which commits to them with a BSB22 commitment.
type rangeChecked struct {
	V   []frontend.Variable `gnark:",secret"`
	Sum frontend.Variable   `gnark:",public"`
}

func (c *rangeChecked) Define(api frontend.API) error {
	rc := rangecheck.New(api)
	sum := frontend.Variable(0)
	for _, v := range c.V {
		rc.Check(v, 16)
		sum = api.Add(sum, api.Mul(v, v))
	}
	api.AssertIsEqual(sum, c.Sum)
	return nil
}

// manyPublic has several public inputs: Out[i] = In[i]·S + i.
type manyPublic struct {
	In  []frontend.Variable `gnark:",public"`
	Out []frontend.Variable `gnark:",public"`
	S   frontend.Variable   `gnark:",secret"`
}

func (c *manyPublic) Define(api frontend.API) error {
	for i := range c.In {
		api.AssertIsEqual(api.Add(api.Mul(c.In[i], c.S), i), c.Out[i])
	}
	return nil
}

// bits decomposes secrets into bits: most wires are 0 or 1.
type bitsCircuit struct {
	V []frontend.Variable `gnark:",secret"`
	P frontend.Variable   `gnark:",public"`
}

func (c *bitsCircuit) Define(api frontend.API) error {
	acc := frontend.Variable(1)
	for _, v := range c.V {
		b := api.ToBinary(v, 64)
		for _, bit := range b {
			acc = api.Add(acc, bit)
		}
	}
	api.AssertIsEqual(acc, c.P)
	return nil
}

// fixture is a compiled circuit, its keys and a satisfying witness.
type fixture struct {
	name    string
	ccs     constraint.ConstraintSystem
	pk      gnarkgroth16.ProvingKey
	vk      gnarkgroth16.VerifyingKey
	witness witness.Witness
	public  witness.Witness
}

// fixtureSet is the test circuits on one curve, made once per test binary.
type fixtureSet struct {
	once     sync.Once
	fixtures []*fixture
	err      error
}

// fixtureSets holds a set for every curve of package curve's table.
var fixtureSets = func() map[ecc.ID]*fixtureSet {
	m := map[ecc.ID]*fixtureSet{}
	for _, id := range g16curve.Supported() {
		m[id] = &fixtureSet{}
	}
	return m
}()

func newFixture(id ecc.ID, name string, circuit, assignment frontend.Circuit) (*fixture, error) {
	ccs, err := frontend.Compile(id.ScalarField(), r1cs.NewBuilder, circuit)
	if err != nil {
		return nil, err
	}
	pk, vk, err := gnarkgroth16.Setup(ccs)
	if err != nil {
		return nil, err
	}
	w, err := frontend.NewWitness(assignment, id.ScalarField())
	if err != nil {
		return nil, err
	}
	pub, err := w.Public()
	if err != nil {
		return nil, err
	}
	return &fixture{name: name, ccs: ccs, pk: pk, vk: vk, witness: w, public: pub}, nil
}

// testFixtures compiles and sets up the test circuits on BLS12-381 once
// per test binary.
func testFixtures(t testing.TB) []*fixture { return fixturesOn(t, ecc.BLS12_381) }

// fixturesOn compiles and sets up the test circuits on the curve id once
// per test binary.
func fixturesOn(t testing.TB, id ecc.ID) []*fixture {
	t.Helper()
	set := fixtureSets[id]
	set.once.Do(func() {
		add := func(name string, c, a frontend.Circuit) {
			if set.err != nil {
				return
			}
			f, err := newFixture(id, name, c, a)
			if err != nil {
				set.err = fmt.Errorf("%s on %s: %w", name, id, err)
				return
			}
			set.fixtures = append(set.fixtures, f)
		}
		// 2^9+37 constraints: not a power of two.
		const chain = mulChainLen
		add("mulchain", &mulChain{N: chain}, &mulChain{N: chain, X: 3, Y: powMod(3, chain+1)})

		vals := []int{1, 65535, 12345, 0, 7, 40000, 2, 999}
		rcAssign := &rangeChecked{V: make([]frontend.Variable, len(vals))}
		sum := 0
		for i, v := range vals {
			rcAssign.V[i] = v
			sum += v * v
		}
		rcAssign.Sum = sum
		add("rangecheck-bsb22", &rangeChecked{V: make([]frontend.Variable, len(vals))}, rcAssign)

		const nbPub = 9
		mp := &manyPublic{In: make([]frontend.Variable, nbPub), Out: make([]frontend.Variable, nbPub), S: 5}
		for i := range mp.In {
			mp.In[i] = i * 11
			mp.Out[i] = i*11*5 + i
		}
		add("manypublic", &manyPublic{In: make([]frontend.Variable, nbPub), Out: make([]frontend.Variable, nbPub)}, mp)

		bv := []uint64{0xffffffff00000000, 1, 0, 0x8000000000000001}
		bc := &bitsCircuit{V: make([]frontend.Variable, len(bv))}
		p := 1
		for i, v := range bv {
			bc.V[i] = v
			for ; v != 0; v &= v - 1 {
				p++
			}
		}
		bc.P = p
		add("zeros-and-ones", &bitsCircuit{V: make([]frontend.Variable, len(bv))}, bc)
	})
	if set.err != nil {
		t.Fatalf("test circuits: %v", set.err)
	}
	return set.fixtures
}

// powMod returns x^e as an int (small values only; the field does the rest).
func powMod(x, e int) frontend.Variable {
	r := bigPow(x, e)
	return r
}

// seeded returns a deterministic reader for the given seed.
func seeded(seed uint64) io.Reader {
	var s [32]byte
	for i := 0; i < 8; i++ {
		s[i] = byte(seed >> (8 * i))
	}
	return rand.NewChaCha8(s)
}

// gnarkProof runs gnark's own prover with crypto/rand.Reader replaced by a
// reader seeded with seed, and returns the proof's bytes.
var randMu sync.Mutex

func gnarkProof(t testing.TB, f *fixture, seed uint64, opts ...backend.ProverOption) []byte {
	t.Helper()
	randMu.Lock()
	saved := cryptorand.Reader
	cryptorand.Reader = seeded(seed)
	proof, err := gnarkgroth16.Prove(f.ccs, f.pk, f.witness, opts...)
	cryptorand.Reader = saved
	randMu.Unlock()
	if err != nil {
		t.Fatalf("%s: gnark prover: %v", f.name, err)
	}
	return proofBytes(t, proof)
}

func proofBytes(t testing.TB, p gnarkgroth16.Proof) []byte {
	t.Helper()
	var buf bytes.Buffer
	if _, err := p.WriteTo(&buf); err != nil {
		t.Fatalf("serialising proof: %v", err)
	}
	return buf.Bytes()
}

// mulChainLen makes the mulchain fixture 2^9+37 constraints: not a power of two.
const mulChainLen = 549
