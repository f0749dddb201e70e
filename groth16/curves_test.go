package groth16_test

import (
	"bytes"
	"errors"
	"math/big"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/backend"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/constraint/solver"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	stdgroth16 "github.com/consensys/gnark/std/recursion/groth16"

	"github.com/g16prover/g16/backend/cpu"
	g16curve "github.com/g16prover/g16/curve"
	"github.com/g16prover/g16/groth16"
	"github.com/g16prover/g16/internal/stdcircuits"
)

// otherCurves are the curves of package curve's table other than
// BLS12-381, whose prover (internal/bls12381, the reference) the rest of
// this package's tests check; each of these is a copy internal/generator
// writes, checked here against gnark on its curve.
func otherCurves() []ecc.ID {
	var ids []ecc.ID
	for _, id := range g16curve.Supported() {
		if id != ecc.BLS12_381 {
			ids = append(ids, id)
		}
	}
	return ids
}

// forOtherCurves runs f as a subtest named by each of otherCurves.
func forOtherCurves(t *testing.T, f func(t *testing.T, id ecc.ID)) {
	for _, id := range otherCurves() {
		t.Run(g16curve.Name(id), func(t *testing.T) { f(t, id) })
	}
}

// TestCurvesMatchGnark proves the test circuits on every curve but
// BLS12-381 (a constraint count that is not a power of two, a BSB22
// commitment, many public inputs, zeros and ones) with Prove and
// ProveBatch on the CPU backend: byte-identical to gnark's Prove with the
// same randomness, and accepted by gnark's verifier.
func TestCurvesMatchGnark(t *testing.T) {
	forOtherCurves(t, testMatchesGnark)
}

func testMatchesGnark(t *testing.T, id ecc.ID) {
	for _, f := range fixturesOn(t, id) {
		t.Run(f.name, func(t *testing.T) {
			seed := rand.Uint64()
			t.Logf("seed %d", seed)
			want := gnarkProof(t, f, seed)
			proof, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithBackend(cpu.MustNew()), groth16.WithRandomness(seeded(seed)))
			if err != nil {
				t.Fatalf("Prove: %v", err)
			}
			if got := proofBytes(t, proof); !bytes.Equal(got, want) {
				t.Fatalf("proof differs from gnark's\n got %x\nwant %x", got, want)
			}
			if err := gnarkgroth16.Verify(proof, f.vk, f.public); err != nil {
				t.Fatalf("gnark rejects our proof: %v", err)
			}

			proofs, err := groth16.ProveBatch(t.Context(), f.ccs, f.pk, []witness.Witness{f.witness, f.witness},
				groth16.WithBackend(cpu.MustNew()), groth16.WithBatchRandomness(seedsFrom(seed)), groth16.WithVerify(f.vk))
			if err != nil {
				t.Fatalf("ProveBatch: %v", err)
			}
			for i, p := range proofs {
				if !bytes.Equal(proofBytes(t, p), gnarkProof(t, f, seed+uint64(i))) {
					t.Fatalf("ProveBatch: proof %d differs from gnark's", i)
				}
			}
		})
	}
}

// squareRootHint gives a square root of its input (a user hint: the
// circuit checks it).
func squareRootHint(mod *big.Int, in, out []*big.Int) error {
	if out[0].ModSqrt(in[0], mod) == nil {
		return errors.New("no square root")
	}
	return nil
}

// userHint proves knowledge of a square root of Y, found by a hint.
type userHint struct {
	Y frontend.Variable `gnark:",public"`
}

func (c *userHint) Define(api frontend.API) error {
	r, err := api.Compiler().NewHint(squareRootHint, 1, c.Y)
	if err != nil {
		return err
	}
	api.AssertIsEqual(api.Mul(r[0], r[0]), c.Y)
	return nil
}

// TestCurvesUserHint proves a circuit with a user hint, given through
// gnark's solver options, on each curve: byte-identical to gnark's.
func TestCurvesUserHint(t *testing.T) {
	hint := backend.WithSolverOptions(solver.WithHints(squareRootHint))
	for _, id := range g16curve.Supported() {
		t.Run(g16curve.Name(id), func(t *testing.T) {
			x := rand.Int64()
			f, err := newFixture(id, "user-hint", &userHint{}, &userHint{Y: new(big.Int).Mul(big.NewInt(x), big.NewInt(x))})
			if err != nil {
				t.Fatal(err)
			}
			seed := rand.Uint64()
			t.Logf("x %d, seed %d", x, seed)
			want := gnarkProof(t, f, seed, hint)
			proof, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithBackend(cpu.MustNew()),
				groth16.WithRandomness(seeded(seed)), groth16.WithProverOptions(hint), groth16.WithVerify(f.vk))
			if err != nil {
				t.Fatalf("Prove: %v", err)
			}
			if !bytes.Equal(proofBytes(t, proof), want) {
				t.Fatal("proof differs from gnark's")
			}
		})
	}
}

// TestCurvesStdCircuits proves gnark's std circuits on every curve but
// BLS12-381, SHA-256 from std/hash and ECDSA over secp256k1 in emulated
// arithmetic, against gnark's Prove on fresh random inputs. Their keys come
// from DummySetup (gnark's setup of these takes minutes on 2 cores):
// byte-identity is the point; TestCurvesMatchGnark's proofs are verified.
func TestCurvesStdCircuits(t *testing.T) {
	if testing.Short() {
		t.Skip("gnark's setup and proofs of std circuits take tens of seconds on 2 cores; run without -short")
	}
	forOtherCurves(t, testStdCircuits)
}

func testStdCircuits(t *testing.T, id ecc.ID) {
	for _, c := range []struct {
		kind string
		size int
	}{{"sha256", 32}, {"ecdsa", 1}} {
		t.Run(c.kind, func(t *testing.T) {
			if id == ecc.BW6_761 && c.kind == "sha256" {
				t.Skip("on bw6-761 ECDSA and the recursion example's outer circuit (examples/recursion's TestRecursion, byte-identical) are the std circuits checked: SHA-256's 166k constraints would add 2 minutes on 2 cores")
			}
			sc, err := stdcircuits.New(c.kind, c.size)
			if err != nil {
				t.Fatal(err)
			}
			ccs, err := sc.CompileOn(id)
			if err != nil {
				t.Fatal(err)
			}
			pk, err := gnarkgroth16.DummySetup(ccs)
			if err != nil {
				t.Fatal(err)
			}
			inputSeed := rand.Uint64()
			a, err := sc.Assign(rand.New(rand.NewPCG(inputSeed, 1)))
			if err != nil {
				t.Fatal(err)
			}
			w, err := frontend.NewWitness(a, id.ScalarField())
			if err != nil {
				t.Fatal(err)
			}
			f := &fixture{name: sc.Name, ccs: ccs, pk: pk, witness: w}
			seed := rand.Uint64()
			t.Logf("%s: %d constraints, input seed %d, proof seed %d", sc.Name, ccs.GetNbConstraints(), inputSeed, seed)
			want := gnarkProof(t, f, seed)
			proof, err := groth16.Prove(ccs, pk, w, groth16.WithBackend(cpu.MustNew()), groth16.WithRandomness(seeded(seed)))
			if err != nil {
				t.Fatalf("Prove: %v", err)
			}
			if !bytes.Equal(proofBytes(t, proof), want) {
				t.Fatal("proof differs from gnark's")
			}
		})
	}
}

// TestCurveErrors checks the errors for systems, keys and witnesses of
// curves that do not fit together, and for an R1CS over a field g16 does
// not prove on (gnark compiles R1CS over Grumpkin's scalar field, BN254's
// base field, but makes no Groth16 keys there).
func TestCurveErrors(t *testing.T) {
	bls := fixturesOn(t, ecc.BLS12_381)[0]
	bn := fixturesOn(t, ecc.BN254)[0]
	b377 := fixturesOn(t, ecc.BLS12_377)[0]
	bw := fixturesOn(t, ecc.BW6_761)[0]
	grumpkin, err := frontend.Compile(ecc.GRUMPKIN.ScalarField(), r1cs.NewBuilder, &mulChain{N: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		ccs  constraint.ConstraintSystem
		pk   gnarkgroth16.ProvingKey
		w    witness.Witness
		want string
	}{
		{"bn254-system/bls12-381-key", bn.ccs, bls.pk, bn.witness, "proving key is for bls12-381, the constraint system is over bn254"},
		{"bls12-381-system/bn254-key", bls.ccs, bn.pk, bls.witness, "proving key is for bn254, the constraint system is over bls12-381"},
		{"bn254/bls12-381-witness", bn.ccs, bn.pk, bls.witness, "witness holds bls12-381 scalars, not bn254 ones"},
		{"bls12-377-system/bn254-key", b377.ccs, bn.pk, b377.witness, "proving key is for bn254, the constraint system is over bls12-377"},
		{"bls12-381-system/bls12-377-key", bls.ccs, b377.pk, bls.witness, "proving key is for bls12-377, the constraint system is over bls12-381"},
		{"bls12-377/bls12-381-witness", b377.ccs, b377.pk, bls.witness, "witness holds bls12-381 scalars, not bls12-377 ones"},
		{"bls12-381/bls12-377-witness", bls.ccs, bls.pk, b377.witness, "witness holds bls12-377 scalars, not bls12-381 ones"},
		{"bw6-761-system/bls12-377-key", bw.ccs, b377.pk, bw.witness, "proving key is for bls12-377, the constraint system is over bw6-761"},
		{"bls12-377-system/bw6-761-key", b377.ccs, bw.pk, b377.witness, "proving key is for bw6-761, the constraint system is over bls12-377"},
		{"bw6-761/bls12-377-witness", bw.ccs, bw.pk, b377.witness, "witness holds bls12-377 scalars, not bw6-761 ones"},
		{"bls12-381/bw6-761-witness", bls.ccs, bls.pk, bw.witness, "witness holds bw6-761 scalars, not bls12-381 ones"},
		{"grumpkin-system", grumpkin, bn.pk, bn.witness, "over grumpkin; g16 proves gnark's R1CS over bn254, bls12-381, bls12-377 and bw6-761"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := groth16.Prove(c.ccs, c.pk, c.w, groth16.WithBackend(cpu.MustNew()))
			if err == nil || !errors.Is(err, groth16.ErrInput) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want ErrInput saying %q", err, c.want)
			}
		})
	}
}

// TestCurvesStreamedAndDeviceKey proves on every curve but BLS12-381 with
// the key streamed from the host (a device smaller than the key) and with a
// caller's DeviceKey: the same bytes as gnark's; a DeviceKey of another
// curve is refused by name.
func TestCurvesStreamedAndDeviceKey(t *testing.T) {
	forOtherCurves(t, testStreamedAndDeviceKey)
}

// keyBasesBytes is what the bases of pk, gnark's proving key of any curve
// (its G1.A, G1.B, G1.K, G1.Z and G2.B), take in affine form.
func keyBasesBytes(t *testing.T, id ecc.ID, pk gnarkgroth16.ProvingKey) int64 {
	c := g16curve.Must(id)
	v := reflect.ValueOf(pk).Elem()
	g1, g2 := v.FieldByName("G1"), v.FieldByName("G2")
	if !g1.IsValid() || !g2.IsValid() {
		t.Fatalf("a %T has no G1 and G2 bases", pk)
	}
	var n1 int
	for _, name := range []string{"A", "B", "K", "Z"} {
		n1 += g1.FieldByName(name).Len()
	}
	return int64(n1)*c.G1AffineBytes + int64(g2.FieldByName("B").Len())*c.G2AffineBytes
}

func testStreamedAndDeviceKey(t *testing.T, id ecc.ID) {
	const n = 1<<13 - 100 // large enough that a device smaller than the key holds a stream window
	// gnark's DummySetup key: the proofs are compared with gnark's bytes,
	// not verified, and its setup of 2^13 constraints takes seconds.
	ccs, err := frontend.Compile(id.ScalarField(), r1cs.NewBuilder, &mulChain{N: n})
	if err != nil {
		t.Fatal(err)
	}
	pk, err := gnarkgroth16.DummySetup(ccs)
	if err != nil {
		t.Fatal(err)
	}
	w, err := frontend.NewWitness(&mulChain{N: n, X: 3, Y: powMod(3, n+1)}, id.ScalarField())
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{name: "mulchain-8k", ccs: ccs, pk: pk, witness: w}
	key := keyBasesBytes(t, id, f.pk)
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	want := gnarkProof(t, f, seed)

	var plan string
	proof, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithBackend(cpuDevice(t, 0, key*9/10, nil)),
		groth16.WithRandomness(seeded(seed)), groth16.WithPhaseTimes(func(_ int, pt groth16.PhaseTimes) { plan = pt.Plan }))
	if err != nil {
		t.Fatalf("Prove on a device smaller than the key: %v", err)
	}
	if !strings.HasPrefix(plan, "key streamed") {
		t.Errorf("plan %q; want the key streamed", plan)
	}
	if !bytes.Equal(proofBytes(t, proof), want) {
		t.Fatal("streamed proof differs from gnark's")
	}

	dev := cpu.MustNew()
	dk, err := groth16.NewDeviceKey(dev, f.pk)
	if err != nil {
		t.Fatal(err)
	}
	defer dk.Close()
	proof, err = groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithDeviceKey(dk), groth16.WithRandomness(seeded(seed)))
	if err != nil {
		t.Fatalf("Prove with a DeviceKey: %v", err)
	}
	if !bytes.Equal(proofBytes(t, proof), want) {
		t.Fatal("proof with a DeviceKey differs from gnark's")
	}

	bls := testFixtures(t)[0]
	blsKey, err := groth16.NewDeviceKey(dev, bls.pk)
	if err != nil {
		t.Fatal(err)
	}
	defer blsKey.Close()
	wantErr := "device key is for bls12-381, the circuit is over " + g16curve.Name(id)
	if _, err := groth16.NewProver(f.ccs, f.pk, groth16.WithDeviceKey(blsKey)); !errors.Is(err, groth16.ErrInput) || !strings.Contains(err.Error(), wantErr) {
		t.Fatalf("a BLS12-381 device key for a %s prover: %v, want ErrInput saying %q", g16curve.Name(id), err, wantErr)
	}
}

// TestRecursionHashOption proves a BLS12-377 circuit with a BSB22
// commitment for verification inside a BW6-761 circuit: gnark's native
// recursion options hash the commitment to the field as the in-circuit
// verifier does (std/recursion/groth16), and g16 takes them through
// WithProverOptions. The proof is gnark's with the same options and
// randomness, and gnark's verifier with the matching options accepts it
// (and rejects it with the default hash).
func TestRecursionHashOption(t *testing.T) {
	var f *fixture
	for _, g := range fixturesOn(t, ecc.BLS12_377) {
		if g.name == "rangecheck-bsb22" {
			f = g
		}
	}
	if f == nil || len(f.ccs.GetCommitments().CommitmentIndexes()) == 0 {
		t.Fatal("no BLS12-377 fixture with a commitment")
	}
	outer, inner := ecc.BW6_761.ScalarField(), ecc.BLS12_377.ScalarField()
	popt := stdgroth16.GetNativeProverOptions(outer, inner)
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	want := gnarkProof(t, f, seed, popt)
	proof, err := groth16.Prove(f.ccs, f.pk, f.witness, groth16.WithBackend(cpu.MustNew()),
		groth16.WithRandomness(seeded(seed)), groth16.WithProverOptions(popt))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(proofBytes(t, proof), want) {
		t.Fatal("proof with the recursion hash differs from gnark's")
	}
	if err := gnarkgroth16.Verify(proof, f.vk, f.public, stdgroth16.GetNativeVerifierOptions(outer, inner)); err != nil {
		t.Fatalf("gnark rejects the proof with the recursion options: %v", err)
	}
	if err := gnarkgroth16.Verify(proof, f.vk, f.public); err == nil {
		t.Fatal("gnark accepts the proof with its default hash: the option changed nothing")
	}
}
