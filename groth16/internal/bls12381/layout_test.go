// Reference only: internal/generator does not copy this file.

package bls12381

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	groth16bls "github.com/consensys/gnark/backend/groth16/bls12-381"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"
	cs "github.com/consensys/gnark/constraint/bls12-381"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/internal/synth"
)

// committedProduct commits to X and Y and proves X·Y·cm + X = Z, Z public:
// Z has no A or B term (points at infinity in both), and X and Y are
// committed (left out of K).
type committedProduct struct {
	X, Y frontend.Variable
	Z    frontend.Variable `gnark:",public"`
}

func (c *committedProduct) Define(api frontend.API) error {
	cm, err := api.(frontend.Committer).Commit(c.X, c.Y)
	if err != nil {
		return err
	}
	api.AssertIsEqual(api.Add(api.Mul(c.X, c.Y, cm), c.X), c.Z)
	return nil
}

// TestLayoutHoldsSolution: the layout of a partition (its buffer sizes, as
// the plan counts them before any solve) holds what the solve then gives,
// and upload puts each vector where the MSMs read it: every buffer
// downloaded equals the host vector it stands for (K's wire values
// gathered on the device or filtered on the host, the B MSMs' buffer when
// A and B share one). With the key resident or streamed, on a device that
// gathers K's wire values (the CPU backend) and one that does not; on a
// key without points at infinity (A and B share W) and one with them and a
// commitment. Fresh random witnesses.
func TestLayoutHoldsSolution(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))

	chainCCS, shape, chainPK := randomKeyed(t, synth.Chain, 1<<10)
	chainW, err := synth.Witness(shape, rng.Uint64())
	if err != nil {
		t.Fatal(err)
	}

	ccs, err := frontend.Compile(ecc.BLS12_381.ScalarField(), r1cs.NewBuilder, &committedProduct{})
	if err != nil {
		t.Fatal(err)
	}
	gpk, _, err := gnarkgroth16.Setup(ccs)
	if err != nil {
		t.Fatal(err)
	}
	commitPK := gpk.(*groth16bls.ProvingKey)
	if commitPK.NbInfinityA == 0 || commitPK.NbInfinityB == 0 || len(commitPK.CommitmentKeys) != 1 {
		t.Fatalf("the committed circuit's key has %d A and %d B points at infinity and %d commitment keys; the test wants some of each",
			commitPK.NbInfinityA, commitPK.NbInfinityB, len(commitPK.CommitmentKeys))
	}
	// X·Y·cm + X = Z holds for any cm only with Y = 0: X is random.
	x := rng.Int64N(1<<62) + 1
	commitW, err := frontend.NewWitness(&committedProduct{X: x, Y: 0, Z: x}, ecc.BLS12_381.ScalarField())
	if err != nil {
		t.Fatal(err)
	}

	for _, k := range []struct {
		name     string
		ccs      constraint.ConstraintSystem
		pk       *groth16bls.ProvingKey
		w        witness.Witness
		sharedAB bool
	}{
		{"no infinity", chainCCS, chainPK, chainW, true},
		{"infinity and a commitment", ccs, commitPK, commitW, false},
	} {
		t.Run(k.name, func(t *testing.T) {
			gathering := cpu.MustNew()
			plain := struct{ backend.Backend }{cpu.MustNew()}
			p, err := newProver(k.ccs.(*cs.R1CS), k.pk, nil, false)
			if err != nil {
				t.Fatal(err)
			}
			part := p.newPartition(k.w, seededReader(rng.Uint64()))
			ck, err := uploadCommitKey(gathering, k.pk)
			if err != nil {
				t.Fatal(err)
			}
			defer ck.close()
			part.commitKeys = []*commitKey{ck}
			sol, err := part.solve(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				name     string
				dev      backend.Backend
				streamed bool
				gathers  bool
			}{
				{"gathers, resident", gathering, false, len(k.pk.G1.K) > 0},
				{"gathers, streamed", gathering, true, false},
				{"no gather, resident", plain, false, false},
				{"no gather, streamed", plain, true, false},
			} {
				key := &deviceKey{dev: c.dev}
				if c.streamed {
					key.plan.chunk = minStreamChunk
				}
				q, err := c.dev.NewQueue()
				if err != nil {
					t.Fatal(err)
				}
				if err := key.loadIndex(p, c.dev, q); err != nil {
					t.Fatalf("%s: the wire index lists: %v", c.name, err)
				}
				lay := layOut(k.pk, key)
				if got := lay.gather != nil; got != c.gathers {
					t.Errorf("%s: gathers %v, want %v", c.name, got, c.gathers)
				}
				if lay.sharedAB != k.sharedAB {
					t.Errorf("%s: A and B share a buffer: %v, want %v", c.name, lay.sharedAB, k.sharedAB)
				}
				if got, want := lay.bytes(), setBytes(c.dev, k.pk, c.streamed); got != want {
					t.Errorf("%s: the buffers take %d bytes, the plan counts %d", c.name, got, want)
				}
				if got, want := key.wireIndexes().bytes(), indexBytes(c.dev, k.pk); !c.streamed && got != want {
					t.Errorf("%s: the index lists take %d bytes, the plan counts %d", c.name, got, want)
				}
				checkUpload(t, c.name, c.dev, part, lay, sol)
				if ix := key.wireIndexes(); ix != nil {
					if err := ix.free(c.dev, q); err != nil {
						t.Fatal(err)
					}
				}
				if err := q.Close(); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// checkUpload allocates lay's buffers on dev, uploads sol into them and
// compares each buffer the device reads with its host vector.
func checkUpload(t *testing.T, name string, dev backend.Backend, part *partition, lay layout, sol *solution) {
	t.Helper()
	q, err := dev.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	bufs := make([]backend.Buffer, nbBuffers)
	for i, size := range lay.sizes {
		if bufs[i], err = dev.Alloc(q, size); err != nil {
			t.Fatal(err)
		}
		defer dev.Free(q, bufs[i])
	}
	if err := part.upload(dev, q, bufs, lay, sol, lay.uploads(), nil); err != nil {
		t.Fatalf("%s: upload: %v", name, err)
	}
	if lay.gatherW && sol.vectors(part.p, true).solver.W != nil {
		t.Errorf("%s: W went up for the device to gather from, and is handed back for another solve to write", name)
	}
	want := map[int][]fr.Element{bufA: sol.a, bufB: sol.b, bufC: sol.c}
	if !lay.streamed {
		want[bufWA] = sol.wiresA(part.p)
		want[lay.wiresB()] = sol.wiresB(part.p)
		want[bufWK] = sol.kWires(part.p)
	}
	for i, v := range want {
		src := backend.AsBytes(v)
		if int64(len(src)) > lay.sizes[i] {
			t.Errorf("%s: %s holds %d bytes, the solution has %d", name, bufferNames[i], lay.sizes[i], len(src))
			continue
		}
		got := make([]byte, len(src))
		if err := dev.Download(q, got, bufs[i], 0); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, src) {
			t.Errorf("%s: %s on the device differs from the host's %d values", name, bufferNames[i], len(v))
		}
	}
}
