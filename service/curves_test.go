package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/frontend"
	gnarkr1cs "github.com/consensys/gnark/frontend/cs/r1cs"

	g16curve "github.com/g16prover/g16/curve"
	"github.com/g16prover/g16/service"
	"github.com/g16prover/g16/service/client"
)

// committedSquares is Σ Xᵢ² = Y with the Xᵢ committed (a BSB22
// commitment, which the proof's extra points carry).
type committedSquares struct {
	X [8]frontend.Variable
	Y frontend.Variable `gnark:",public"`
}

func (c *committedSquares) Define(api frontend.API) error {
	cm, err := api.(frontend.Committer).Commit(c.X[:]...)
	if err != nil {
		return err
	}
	api.AssertIsDifferent(cm, 0)
	var sum frontend.Variable = 0
	for _, x := range c.X {
		sum = api.Add(sum, api.Mul(x, x))
	}
	api.AssertIsEqual(sum, c.Y)
	return nil
}

// curveFixture is committedSquares over curve id with gnark's setup.
func curveFixture(t *testing.T, id ecc.ID) *fixture {
	ccs, err := frontend.Compile(id.ScalarField(), gnarkr1cs.NewBuilder, &committedSquares{})
	if err != nil {
		t.Fatal(err)
	}
	pk, vk, err := gnarkgroth16.Setup(ccs)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{name: g16curve.Name(id) + "-squares", ccs: ccs, pk: pk, vk: vk}
	var b bytes.Buffer
	for _, w := range []struct {
		dst   *[]byte
		write func() error
	}{
		{&f.r1cs, func() error { _, err := ccs.WriteTo(&b); return err }},
		{&f.pkRaw, func() error { _, err := pk.WriteRawTo(&b); return err }},
		{&f.vkBytes, func() error { _, err := vk.WriteTo(&b); return err }},
	} {
		b.Reset()
		if err := w.write(); err != nil {
			t.Fatal(err)
		}
		*w.dst = bytes.Clone(b.Bytes())
	}
	return f
}

// curveWitness draws a fresh full witness of committedSquares over curve
// id.
func curveWitness(t *testing.T, id ecc.ID, rng *rand.Rand) (witness.Witness, []byte) {
	r := id.ScalarField()
	var a committedSquares
	sum := new(big.Int)
	for i := range a.X {
		x := new(big.Int).SetUint64(rng.Uint64())
		x.Lsh(x, 64).Or(x, new(big.Int).SetUint64(rng.Uint64()))
		x.Lsh(x, 120).Mod(x, r) // 248 bits and more, reduced
		a.X[i] = x
		sum.Add(sum, new(big.Int).Mul(x, x))
	}
	a.Y = sum.Mod(sum, r)
	w, err := frontend.NewWitness(&a, r)
	if err != nil {
		t.Fatal(err)
	}
	b, err := w.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return w, b
}

// TestCurvesCircuit: on every curve but BLS12-381, a circuit registers,
// its record (the API's GET /v1/circuits/{id}) says "curve": the curve's
// name, and jobs with fresh random witnesses are proved by a worker: each
// stored proof verifies with gnark and equals groth16.Prove's with the
// job's seed. A BLS12-381 circuit's record says bls12-381; a witness of the
// BLS12-381 circuit submitted to the other curve's is a 400.
func TestCurvesCircuit(t *testing.T) {
	for _, id := range g16curve.Supported() {
		if id != ecc.BLS12_381 {
			t.Run(g16curve.Name(id), func(t *testing.T) { testCurveCircuit(t, id) })
		}
	}
}

func testCurveCircuit(t *testing.T, id ecc.ID) {
	rng := testRand(t)
	name := g16curve.Name(id)
	f := curveFixture(t, id)
	e := newEnv(t, service.QueueConfig{AckWait: 10 * time.Second})
	circ := e.register(f)
	if circ.Curve != name {
		t.Errorf("registered circuit's curve %q, want %s", circ.Curve, name)
	}
	resp, err := http.Get(e.http.URL + "/v1/circuits/" + circ.ID)
	if err != nil {
		t.Fatal(err)
	}
	var rec map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&rec); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if rec["curve"] != name {
		t.Errorf("GET /v1/circuits/%s: curve %v, want %q (record %v)", circ.ID, rec["curve"], name, rec)
	}
	bls := e.register(testFixtures(t)[1])
	if bls.Curve != "bls12-381" {
		t.Errorf("BLS12-381 circuit's curve %q", bls.Curve)
	}

	e.startWorker("w0", nil)
	ctx := context.Background()
	jobs := map[string]submitted{}
	var ids []string
	for range 3 {
		w, wb := curveWitness(t, id, rng)
		seed := seedOf(rng)
		j, err := e.cli.Submit(ctx, client.SubmitRequest{Circuit: circ.ID, Witness: wb, Seed: seed})
		if err != nil {
			t.Fatalf("submit: %v", err)
		}
		jobs[j.ID] = submitted{f, w, seed}
		ids = append(ids, j.ID)
	}
	stored := map[string][]byte{}
	for id, j := range e.waitAll(ids, time.Minute) {
		if j.State != client.Done {
			t.Fatalf("job %s: %s (%s)", id, j.State, j.Error)
		}
		if stored[id], err = e.cli.Proof(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	checkProofs(t, jobs, stored)

	_, blsW := witnessOf(t, testFixtures(t)[1], rng)
	_, err = e.cli.Submit(ctx, client.SubmitRequest{Circuit: circ.ID, Witness: blsW})
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusBadRequest {
		t.Errorf("a BLS12-381 circuit's witness for the %s circuit: %v, want a 400", name, err)
	}
}
