package bls12381

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"io"
	mrand "math/rand/v2"

	"github.com/g16prover/g16/internal/testvectors/internal/suite"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	"github.com/consensys/gnark/std/rangecheck"
)

// MaxConstraints bounds the proof circuits, so keys stay small and Setup
// fast.
const MaxConstraints = 1 << 10

// SquareChain proves knowledge of X with Y = f²⁰⁰(X), f(t) = t² + X: one
// private input, one public, no commitment.
type SquareChain struct {
	X frontend.Variable
	Y frontend.Variable `gnark:",public"`
}

const squareChainSteps = 200

func (c *SquareChain) Define(api frontend.API) error {
	t := c.X
	for range squareChainSteps {
		t = api.Add(api.Mul(t, t), c.X)
	}
	api.AssertIsEqual(t, c.Y)
	return nil
}

// ManyPublic has six public inputs, each tied to two private ones:
// Pᵢ = Sᵢ·Sᵢ₊₁ + Sᵢ + i (indices mod 6), and a seventh public input Q
// that appears in one constraint only, as the product of all of S.
type ManyPublic struct {
	P [6]frontend.Variable `gnark:",public"`
	Q frontend.Variable    `gnark:",public"`
	S [6]frontend.Variable
}

func (c *ManyPublic) Define(api frontend.API) error {
	prod := frontend.Variable(1)
	for i := range c.S {
		j := (i + 1) % len(c.S)
		api.AssertIsEqual(api.Add(api.Mul(c.S[i], c.S[j]), c.S[i], i), c.P[i])
		prod = api.Mul(prod, c.S[i])
	}
	api.AssertIsEqual(prod, c.Q)
	return nil
}

// RangeSum checks eight private values below 2^20 with gnark's range
// checker, which on R1CS commits to them with a BSB22 commitment (a
// log-derivative lookup), and exposes their sum.
type RangeSum struct {
	V   [8]frontend.Variable
	Sum frontend.Variable `gnark:",public"`
}

const rangeSumBits = 20

func (c *RangeSum) Define(api frontend.API) error {
	rc := rangecheck.New(api)
	sum := frontend.Variable(0)
	for _, v := range c.V {
		rc.Check(v, rangeSumBits)
		sum = api.Add(sum, v)
	}
	api.AssertIsEqual(sum, c.Sum)
	return nil
}

// proofCircuit is one whole-proof vector: a circuit and how to assign it.
type proofCircuit struct {
	name       string
	circuit    frontend.Circuit
	assign     func(rng *mrand.ChaCha8) frontend.Circuit
	commitment bool // expect a BSB22 commitment
}

func proofCircuits() []proofCircuit {
	return []proofCircuit{
		{name: "square-chain", circuit: &SquareChain{}, assign: func(rng *mrand.ChaCha8) frontend.Circuit {
			x := randomElement(rng)
			t := x
			for range squareChainSteps {
				t.Square(&t).Add(&t, &x)
			}
			return &SquareChain{X: x, Y: t}
		}},
		{name: "many-public", circuit: &ManyPublic{}, assign: func(rng *mrand.ChaCha8) frontend.Circuit {
			var a ManyPublic
			var s [6]fr.Element
			prod := fr.One()
			for i := range s {
				s[i] = randomElement(rng)
				prod.Mul(&prod, &s[i])
			}
			for i := range s {
				var p, k fr.Element
				k.SetUint64(uint64(i))
				p.Mul(&s[i], &s[(i+1)%6]).Add(&p, &s[i]).Add(&p, &k)
				a.P[i], a.S[i] = p, s[i]
			}
			a.Q = prod
			return &a
		}},
		{name: "range-sum", circuit: &RangeSum{}, commitment: true, assign: func(rng *mrand.ChaCha8) frontend.Circuit {
			var a RangeSum
			var sum uint64
			for i := range a.V {
				v := rng.Uint64() % (1 << rangeSumBits)
				a.V[i] = v
				sum += v
			}
			a.Sum = sum
			return &a
		}},
	}
}

func proofVectors() ([]suite.File, error) {
	var files []suite.File
	for _, pc := range proofCircuits() {
		fs, err := proofVector(pc)
		if err != nil {
			return nil, fmt.Errorf("proof %s: %w", pc.name, err)
		}
		files = append(files, fs...)
	}
	return files, nil
}

func proofVector(pc proofCircuit) ([]suite.File, error) {
	field := ecc.BLS12_381.ScalarField()
	ccs, err := frontend.Compile(field, r1cs.NewBuilder, pc.circuit)
	if err != nil {
		return nil, err
	}
	if n := ccs.GetNbConstraints(); n > MaxConstraints {
		return nil, fmt.Errorf("%d constraints, more than %d", n, MaxConstraints)
	}
	commitments := ccs.GetCommitments().(constraint.Groth16Commitments)
	if pc.commitment != (len(commitments) > 0) {
		return nil, fmt.Errorf("%d commitments, want some: %v", len(commitments), pc.commitment)
	}

	var pk groth16.ProvingKey
	var vk groth16.VerifyingKey
	err = suite.WithRandReader(suite.Stream("proof/"+pc.name+"/setup"), func() error {
		var err error
		pk, vk, err = groth16.Setup(ccs)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("setup: %w", err)
	}

	wit, err := frontend.NewWitness(pc.assign(suite.Stream("proof/"+pc.name+"/witness")), field)
	if err != nil {
		return nil, err
	}
	pub, err := wit.Public()
	if err != nil {
		return nil, err
	}

	seed := suite.ProveSeed(pc.name)
	prove := func(pk groth16.ProvingKey) ([]byte, error) {
		var proof groth16.Proof
		err := suite.WithRandReader(mrand.NewChaCha8(seed), func() error {
			var err error
			proof, err = groth16.Prove(ccs, pk, wit)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("prove: %w", err)
		}
		if err := groth16.Verify(proof, vk, pub); err != nil {
			return nil, fmt.Errorf("verify: %w", err)
		}
		return serialize(proof)
	}
	proofBytes, err := prove(pk)
	if err != nil {
		return nil, err
	}

	r1csBytes, err := serialize(ccs)
	if err != nil {
		return nil, err
	}
	var pkBuf bytes.Buffer
	if _, err := pk.WriteRawTo(&pkBuf); err != nil {
		return nil, err
	}
	vkBytes, err := serialize(vk)
	if err != nil {
		return nil, err
	}
	witBytes, err := wit.MarshalBinary()
	if err != nil {
		return nil, err
	}

	// The files must be all a prover needs: prove again from the reloaded
	// key and system, and get the same bytes.
	pk2 := groth16.NewProvingKey(ecc.BLS12_381)
	if _, err := pk2.UnsafeReadFrom(bytes.NewReader(pkBuf.Bytes())); err != nil {
		return nil, fmt.Errorf("reloading the proving key: %w", err)
	}
	again, err := prove(pk2)
	if err != nil {
		return nil, fmt.Errorf("from the reloaded key: %w", err)
	}
	if !bytes.Equal(again, proofBytes) {
		return nil, fmt.Errorf("proving twice with the same randomness gave different proofs")
	}

	dir := "proof/" + pc.name + "/"
	return []suite.File{
		{Path: dir + suite.FileR1CS, Data: r1csBytes},
		{Path: dir + suite.FilePK, Data: pkBuf.Bytes()},
		{Path: dir + suite.FileVK, Data: vkBytes},
		{Path: dir + suite.FileWitness, Data: witBytes},
		{Path: dir + suite.FileSeed, Data: []byte(hex.EncodeToString(seed[:]) + "\n")},
		{Path: dir + suite.FileProof, Data: proofBytes},
	}, nil
}

func serialize(w io.WriterTo) ([]byte, error) {
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
