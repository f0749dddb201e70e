package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	gnarkplonk "github.com/consensys/gnark/backend/plonk"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/frontend"
	gnarkr1cs "github.com/consensys/gnark/frontend/cs/r1cs"
	"github.com/consensys/gnark/frontend/cs/scs"
	"github.com/consensys/gnark/test/unsafekzg"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/groth16"
	"github.com/g16prover/g16/service"
	"github.com/g16prover/g16/service/client"
)

// submitted is a job the test submitted, with what it needs to check it.
type submitted struct {
	f    *fixture
	w    witness.Witness
	seed []byte
}

// TestManyJobsThreeWorkers: 100 jobs over two circuits, three workers;
// every proof verifies and equals Prove's with the job's seed.
func TestManyJobsThreeWorkers(t *testing.T) {
	fs := testFixtures(t)
	rng := testRand(t)
	e := newEnv(t, service.QueueConfig{AckWait: 10 * time.Second})
	circuits := []client.Circuit{e.register(fs[0]), e.register(fs[1])}
	var workers []*worker
	metrics, err := service.NewWorkerMetrics(e.srv.Registry())
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		workers = append(workers, e.startWorkerMetrics(fmt.Sprintf("w%d", i), metrics))
	}
	n := 100
	if testing.Short() {
		n = 20
	}
	ctx := context.Background()
	jobs := make(map[string]submitted)
	var ids []string
	for i := range n {
		k := i % 2
		w, wb := witnessOf(t, fs[k], rng)
		seed := seedOf(rng)
		j, err := e.cli.Submit(ctx, client.SubmitRequest{Circuit: circuits[k].ID, Witness: wb, Seed: seed, Batch: "many"})
		if err != nil {
			t.Fatalf("submit %d: %v", i, err)
		}
		if j.State != client.Queued {
			t.Fatalf("new job is %s, want queued", j.State)
		}
		jobs[j.ID] = submitted{fs[k], w, seed}
		ids = append(ids, j.ID)
		// A list right after a submit holds every job submitted so far.
		if l, err := e.cli.List(ctx, client.ListOptions{Batch: "many"}); err != nil {
			t.Fatalf("list after submit %d: %v", i, err)
		} else if len(l.Jobs) != i+1 {
			t.Fatalf("list after submit %d: %d jobs, want %d", i, len(l.Jobs), i+1)
		}
	}
	start := time.Now()
	got := e.waitAll(ids, 3*time.Minute)
	t.Logf("%d jobs proved in %v", n, time.Since(start))
	start = time.Now()
	defer func() { t.Logf("checked in %v", time.Since(start)) }()
	byWorker := make(map[string]int)
	stored := make(map[string][]byte)
	for id, j := range got {
		if j.State != client.Done {
			t.Fatalf("job %s: %s (%s)", id, j.State, j.Error)
		}
		byWorker[j.Worker]++
		proof, err := e.cli.Proof(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		stored[id] = proof
	}
	checkProofs(t, jobs, stored)
	t.Logf("jobs per worker: %v", byWorker)
	var proved int64
	for _, w := range workers {
		proved += w.w.Proved()
	}
	if proved != int64(n) {
		t.Errorf("workers proved %d jobs, want %d (one result per job)", proved, n)
	}
	checkMetrics(t, e.http.URL+"/metrics", map[string]float64{
		`g16_jobs{state="done"}`:                      float64(n),
		`g16_jobs{state="queued"}`:                    0,
		`g16_jobs_submitted_total`:                    float64(n),
		`g16_job_latency_seconds_count`:               float64(n),
		`g16_worker_proof_seconds_count{worker="w0"}`: float64(byWorker["w0"]),
	}, []string{`g16_device_busy_seconds_total{device="cpu:0",worker="w1"}`, `g16_device_seconds_total`, `g16_solve_seconds_total`})
	l, err := e.cli.List(ctx, client.ListOptions{Batch: "many"})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Jobs) != n || l.Counts[client.Done] != n {
		t.Errorf("list: %d jobs, counts %v; want %d done", len(l.Jobs), l.Counts, n)
	}
}

// blockingProver is a Prover that announces each batch and blocks until
// its context ends: a worker stuck (or dying) mid-proof.
type blockingProver struct{ started chan<- int }

func (p blockingProver) ProveBatch(ctx context.Context, ws []witness.Witness, _ ...groth16.Option) ([]gnarkgroth16.Proof, error) {
	p.started <- len(ws)
	<-ctx.Done()
	return nil, ctx.Err()
}

func (blockingProver) Close() error { return nil }

// TestWorkerDiesMidProof: a worker that dies mid-proof (its connection
// closes without an ack) has its job redelivered after the ack wait and
// proved by another worker, with exactly one stored result.
func TestWorkerDiesMidProof(t *testing.T) {
	fs := testFixtures(t)
	rng := testRand(t)
	ackWait := 2 * time.Second
	e := newEnv(t, service.QueueConfig{AckWait: ackWait})
	circ := e.register(fs[1])
	started := make(chan int, 4)
	dying := e.startWorker("dying", func(constraint.ConstraintSystem, gnarkgroth16.ProvingKey, []backend.Backend, *slog.Logger) (service.Prover, error) {
		return blockingProver{started: started}, nil
	})
	w, wb := witnessOf(t, fs[1], rng)
	seed := seedOf(rng)
	ctx := context.Background()
	j, err := e.cli.Submit(ctx, client.SubmitRequest{Circuit: circ.ID, Witness: wb, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("the dying worker never started the proof")
	}
	if cur, _ := e.cli.Job(ctx, j.ID); cur.State != client.Running || cur.Worker != "dying" {
		t.Fatalf("job is %s on %q, want running on the dying worker", cur.State, cur.Worker)
	}
	other := e.startWorker("survivor", nil)
	// The worker dies: its connection closes with the proof running, so
	// it neither acks nor gives the job back, and its progress reports
	// stop. (Its goroutines stay blocked until the test's cleanup.)
	died := time.Now()
	dying.nc.Close()
	final := e.waitAll([]string{j.ID}, time.Minute)[j.ID]
	if final.State != client.Done {
		t.Fatalf("job %s: %s (%s)", j.ID, final.State, final.Error)
	}
	if final.Worker != "survivor" || final.Attempts != 2 {
		t.Errorf("job done by %q on delivery %d, want survivor on delivery 2", final.Worker, final.Attempts)
	}
	if took := final.Finished.Sub(died); took < ackWait/2 {
		t.Errorf("redelivered %v after the worker died, before the ack wait %v", took, ackWait)
	}
	proof, err := e.cli.Proof(ctx, j.ID)
	if err != nil {
		t.Fatal(err)
	}
	checkProof(t, fs[1], w, seed, proof)
	if got := other.w.Proved(); got != 1 {
		t.Errorf("survivor proved %d jobs, want 1", got)
	}
	// Nothing is left to deliver: the job was proved once.
	time.Sleep(ackWait + time.Second)
	if got := other.w.Proved(); got != 1 {
		t.Errorf("survivor proved %d jobs after another ack wait, want 1", got)
	}
}

// TestServerRestart: the server restarted between submission and
// completion loses no queued job, and a second restart loses no result.
func TestServerRestart(t *testing.T) {
	fs := testFixtures(t)
	rng := testRand(t)
	e := newEnv(t, service.QueueConfig{AckWait: 10 * time.Second})
	circ := e.register(fs[1])
	ctx := context.Background()
	jobs := make(map[string]submitted)
	var ids []string
	for range 10 {
		w, wb := witnessOf(t, fs[1], rng)
		seed := seedOf(rng)
		j, err := e.cli.Submit(ctx, client.SubmitRequest{Circuit: circ.ID, Witness: wb, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		jobs[j.ID] = submitted{fs[1], w, seed}
		ids = append(ids, j.ID)
	}
	// A wait that times out reports the job as it stands.
	resp, err := http.Get(e.http.URL + "/v1/jobs/" + ids[0] + "/wait?timeout=100ms")
	if err != nil {
		t.Fatal(err)
	}
	var waited client.Job
	decodeJSON(t, resp.Body, &waited)
	if waited.ID != ids[0] || waited.State != client.Queued {
		t.Fatalf("wait with no worker: %+v, want the queued job", waited)
	}
	e.restart()
	l, err := e.cli.List(ctx, client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if l.Counts[client.Queued] != len(ids) {
		t.Fatalf("after a restart: counts %v, want %d queued", l.Counts, len(ids))
	}
	wk := e.startWorker("w", nil)
	e.waitAll(ids, 2*time.Minute)
	wk.stop()
	e.restart()
	for _, id := range ids {
		j, err := e.cli.Job(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if j.State != client.Done {
			t.Fatalf("after a second restart job %s is %s (%s)", id, j.State, j.Error)
		}
		proof, err := e.cli.Proof(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		s := jobs[id]
		checkProof(t, s.f, s.w, s.seed, proof)
	}
}

// TestIdempotencyKey: submissions with one key make one job, proved once;
// the key with another witness is refused.
func TestIdempotencyKey(t *testing.T) {
	fs := testFixtures(t)
	rng := testRand(t)
	e := newEnv(t, service.QueueConfig{AckWait: 10 * time.Second})
	circ := e.register(fs[1])
	ctx := context.Background()
	w, wb := witnessOf(t, fs[1], rng)
	seed := seedOf(rng)
	key := fmt.Sprintf("sector-%d", rng.Uint64())
	var wg sync.WaitGroup
	got := make([]client.Job, 5)
	errs := make([]error, 5)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], errs[i] = e.cli.Submit(ctx, client.SubmitRequest{Circuit: circ.ID, Witness: wb, Seed: seed, IdempotencyKey: key})
		}()
	}
	wg.Wait()
	for i := range got {
		if errs[i] != nil {
			t.Fatalf("submission %d: %v", i, errs[i])
		}
		if got[i].ID != got[0].ID {
			t.Fatalf("submissions with one key made jobs %s and %s", got[0].ID, got[i].ID)
		}
	}
	_, wb2 := witnessOf(t, fs[1], rng)
	_, err := e.cli.Submit(ctx, client.SubmitRequest{Circuit: circ.ID, Witness: wb2, IdempotencyKey: key})
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusConflict {
		t.Fatalf("the key with another witness: %v, want a 409 conflict", err)
	}
	wk := e.startWorker("w", nil)
	j := e.waitAll([]string{got[0].ID}, time.Minute)[got[0].ID]
	if j.State != client.Done {
		t.Fatalf("job: %s (%s)", j.State, j.Error)
	}
	// A submission after completion returns the finished job.
	again, err := e.cli.Submit(ctx, client.SubmitRequest{Circuit: circ.ID, Witness: wb, Seed: seed, IdempotencyKey: key})
	if err != nil || again.ID != j.ID || again.State != client.Done {
		t.Fatalf("resubmission after completion: %+v, %v", again, err)
	}
	// A duplicate delivery of the finished job (at-least-once: a message
	// published again past the stream's duplicate window) is acked
	// without a second proof or result.
	js, err := jetstream.New(e.nc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.Publish(ctx, "g16.jobs."+circ.ID, []byte(j.ID)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		info, err := js.Stream(ctx, "G16_JOBS")
		if err != nil {
			t.Fatal(err)
		}
		if info.CachedInfo().State.Msgs == 0 {
			break // the work queue holds nothing: the duplicate was acked
		}
		if time.Now().After(deadline) {
			t.Fatal("the duplicate delivery was never acked")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if after, _ := e.cli.Job(ctx, j.ID); !after.Finished.Equal(j.Finished) || after.State != client.Done {
		t.Errorf("the duplicate delivery changed the job: %+v, was %+v", after, j)
	}
	l, err := e.cli.List(ctx, client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Jobs) != 1 || wk.w.Proved() != 1 {
		t.Fatalf("%d jobs listed, %d proved; want 1 and 1", len(l.Jobs), wk.w.Proved())
	}
	proof, err := e.cli.Proof(ctx, j.ID)
	if err != nil {
		t.Fatal(err)
	}
	checkProof(t, fs[1], w, seed, proof)
}

// TestBadWitness: a witness that does not satisfy the circuit fails its
// job on its first delivery, with the solver's error naming the
// constraint; a witness of the wrong shape is refused at submission.
func TestBadWitness(t *testing.T) {
	fs := testFixtures(t)
	rng := testRand(t)
	e := newEnv(t, service.QueueConfig{AckWait: 5 * time.Second, MaxDeliver: 3})
	circ := e.register(fs[1])
	e.startWorker("w", nil)
	ctx := context.Background()
	w, _ := witnessOf(t, fs[1], rng)
	vec := w.Vector().(fr.Vector)
	var one fr.Element
	one.SetOne()
	i := rng.IntN(len(vec))
	vec[i].Add(&vec[i], &one) // the witness shares vec: one value no longer fits
	wb, err := w.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	j, err := e.cli.Submit(ctx, client.SubmitRequest{Circuit: circ.ID, Witness: wb})
	if err != nil {
		t.Fatal(err)
	}
	final := e.waitAll([]string{j.ID}, time.Minute)[j.ID]
	if final.State != client.Failed {
		t.Fatalf("job with a bad witness: %s, want failed", final.State)
	}
	if !strings.Contains(final.Error, "constraint") {
		t.Errorf("error %q does not name the constraint", final.Error)
	}
	if final.Attempts != 1 {
		t.Errorf("bad witness delivered %d times, want 1", final.Attempts)
	}
	t.Logf("failed job: %s", final.Error)
	if _, err := e.cli.Proof(ctx, j.ID); err == nil {
		t.Error("a failed job gave a proof")
	}
	// The other circuit's witness does not fit this one: refused at once.
	_, other := witnessOf(t, fs[0], rng)
	_, err = e.cli.Submit(ctx, client.SubmitRequest{Circuit: circ.ID, Witness: other})
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusBadRequest || !strings.Contains(err.Error(), "public") {
		t.Errorf("another circuit's witness: %v, want a 400 naming the counts", err)
	}
	_, err = e.cli.Submit(ctx, client.SubmitRequest{Circuit: "nosuchcircuit", Witness: wb})
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusNotFound {
		t.Errorf("unknown circuit: %v, want a 404", err)
	}
}

// TestCorruptCircuitRefused: an upload damaged on the way, a corrupt key,
// a key of another circuit and a verifying key of another setup are all
// refused at registration with an error saying what is wrong.
func TestCorruptCircuitRefused(t *testing.T) {
	fs := testFixtures(t)
	rng := testRand(t)
	e := newEnv(t, service.QueueConfig{})
	ctx := context.Background()
	upload := func(b []byte) string {
		blob, err := e.cli.Upload(ctx, bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		return blob.SHA256
	}
	if cs, err := e.cli.Circuits(ctx); err != nil || len(cs) != 0 {
		t.Fatalf("circuits of a new service: %v, %v; want none", cs, err)
	}
	r1cs, pk, vk := upload(fs[0].r1cs), upload(fs[0].pkRaw), upload(fs[0].vkBytes)

	// Bytes damaged between client and server: the hash the client
	// computed does not match.
	start, err := http.Post(e.http.URL+"/v1/uploads", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var up struct{ Upload string }
	decodeJSON(t, start.Body, &up)
	damaged := bytes.Clone(fs[0].pkRaw)
	damaged[rng.IntN(len(damaged))] ^= 1 << rng.IntN(8)
	req, _ := http.NewRequest(http.MethodPut, e.http.URL+"/v1/uploads/"+up.Upload+"?offset=0", bytes.NewReader(damaged))
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("chunk: %v", err)
	}
	_, err = e.cli.Commit(ctx, up.Upload, pk)
	if err == nil || !strings.Contains(err.Error(), "corrupt") {
		t.Errorf("damaged upload: %v, want it refused as corrupt", err)
	}

	// An upload in three chunks; a chunk at a stale offset (a retry after a
	// lost reply) is refused with the size the server holds.
	start, err = http.Post(e.http.URL+"/v1/uploads", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	decodeJSON(t, start.Body, &up)
	data := fs[0].pkRaw
	cuts := []int{0, len(data) / 3, 2 * len(data) / 3, len(data)}
	put := func(off, end int) int {
		req, _ := http.NewRequest(http.MethodPut, fmt.Sprintf("%s/v1/uploads/%s?offset=%d", e.http.URL, up.Upload, off), bytes.NewReader(data[off:end]))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for i := range 3 {
		if code := put(cuts[i], cuts[i+1]); code != http.StatusOK {
			t.Fatalf("chunk %d: HTTP %d", i, code)
		}
		if i == 1 {
			if code := put(cuts[0], cuts[1]); code != http.StatusConflict {
				t.Fatalf("chunk at a stale offset: HTTP %d, want 409", code)
			}
		}
	}
	if b, err := e.cli.Commit(ctx, up.Upload, pk); err != nil || b.SHA256 != pk || b.Size != int64(len(data)) {
		t.Fatalf("three-chunk upload: %+v, %v", b, err)
	}

	// A key file damaged before the upload: it hashes consistently, but
	// does not decode or has points off the curve.
	corrupt := bytes.Clone(fs[0].pkRaw)
	off := len(corrupt) / 2
	for i := range 48 {
		corrupt[off+i] ^= byte(rng.Uint32() | 1)
	}
	// Well-formed files g16 does not prove with together: a BN254 or a
	// BW6-761 key beside a BLS12-381 system; an R1CS over Grumpkin's
	// scalar field (gnark compiles one; g16 proves on no such curve); and
	// a PLONK system.
	bnCCS, err := frontend.Compile(ecc.BN254.ScalarField(), gnarkr1cs.NewBuilder, &squareCircuit{})
	if err != nil {
		t.Fatal(err)
	}
	bnPK, bnVK, err := gnarkgroth16.Setup(bnCCS)
	if err != nil {
		t.Fatal(err)
	}
	bwCCS, err := frontend.Compile(ecc.BW6_761.ScalarField(), gnarkr1cs.NewBuilder, &squareCircuit{})
	if err != nil {
		t.Fatal(err)
	}
	bwPK, err := gnarkgroth16.DummySetup(bwCCS)
	if err != nil {
		t.Fatal(err)
	}
	grumpkinCCS, err := frontend.Compile(ecc.GRUMPKIN.ScalarField(), gnarkr1cs.NewBuilder, &squareCircuit{})
	if err != nil {
		t.Fatal(err)
	}
	plonk, err := frontend.Compile(ecc.BLS12_381.ScalarField(), scs.NewBuilder, &squareCircuit{})
	if err != nil {
		t.Fatal(err)
	}
	srs, srsLagrange, err := unsafekzg.NewSRS(plonk)
	if err != nil {
		t.Fatal(err)
	}
	plonkPK, _, err := gnarkplonk.Setup(plonk, srs, srsLagrange)
	if err != nil {
		t.Fatal(err)
	}
	encoded := func(w io.WriterTo) []byte {
		var b bytes.Buffer
		if _, err := w.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	var bnRaw bytes.Buffer
	if _, err := bnPK.WriteRawTo(&bnRaw); err != nil {
		t.Fatal(err)
	}
	bnKey := upload(bnRaw.Bytes())
	var bwRaw bytes.Buffer
	if _, err := bwPK.WriteRawTo(&bwRaw); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		req  client.RegisterRequest
		want string
	}{
		{"bw6-761 key", client.RegisterRequest{R1CS: r1cs, PK: upload(bwRaw.Bytes())}, "proving key is over bw6-761, the R1CS over bls12-381"},
		{"bn254 key", client.RegisterRequest{R1CS: r1cs, PK: bnKey}, "proving key is over bn254, the R1CS over bls12-381"},
		{"bn254 circuit, bls12-381 key", client.RegisterRequest{R1CS: upload(encoded(bnCCS)), PK: pk}, "proving key is over bls12-381, the R1CS over bn254"},
		{"grumpkin circuit", client.RegisterRequest{R1CS: upload(encoded(grumpkinCCS)), PK: pk}, "no scalar field of a curve gnark proves on"},
		{"plonk system", client.RegisterRequest{R1CS: upload(encoded(plonk)), PK: pk}, "PLONK"},
		{"corrupt key", client.RegisterRequest{R1CS: r1cs, PK: upload(corrupt)}, "corrupt"},
		{"truncated key", client.RegisterRequest{R1CS: r1cs, PK: upload(fs[0].pkRaw[:len(fs[0].pkRaw)/3])}, "corrupt"},
		{"corrupt R1CS", client.RegisterRequest{R1CS: upload(fs[0].r1cs[:len(fs[0].r1cs)/2]), PK: pk}, "R1CS"},
		{"key of another circuit", client.RegisterRequest{R1CS: upload(fs[1].r1cs), PK: pk}, "do not fit"},
		{"verifying key of another setup", client.RegisterRequest{R1CS: r1cs, PK: pk, VK: upload(fs[1].vkBytes)}, "verifying key"},
		{"bn254 verifying key", client.RegisterRequest{R1CS: r1cs, PK: pk, VK: upload(encoded(bnVK))}, "verifying key is over bn254, the R1CS over bls12-381"},
		{"plonk proving key", client.RegisterRequest{R1CS: r1cs, PK: upload(encoded(plonkPK))}, "not a Groth16 proving key"},
		{"blob never uploaded", client.RegisterRequest{R1CS: r1cs, PK: strings.Repeat("ab", 32)}, "not uploaded"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := e.cli.Register(ctx, c.req)
			var apiErr *client.APIError
			if !errors.As(err, &apiErr) || apiErr.Status != http.StatusBadRequest {
				t.Fatalf("got %v, want a 400", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not say %q", err, c.want)
			}
			t.Log(err)
		})
	}
	good, err := e.cli.Register(ctx, client.RegisterRequest{R1CS: r1cs, PK: pk, VK: vk})
	if err != nil {
		t.Fatalf("the intact files: %v", err)
	}
	if again, err := e.cli.Register(ctx, client.RegisterRequest{R1CS: r1cs, PK: pk, VK: vk}); err != nil || again.ID != good.ID || !again.AlreadyExists {
		t.Errorf("registering again: %+v, %v; want the same circuit", again, err)
	}
	cs, err := e.cli.Circuits(ctx)
	if err != nil || len(cs) != 1 {
		t.Errorf("circuits: %d, %v; want the one intact circuit", len(cs), err)
	}
}

func decodeJSON(t *testing.T, r io.ReadCloser, v any) {
	t.Helper()
	defer r.Close()
	if err := json.NewDecoder(r).Decode(v); err != nil {
		t.Fatal(err)
	}
}

// TestGracefulStopGivesBack: a worker stopped while its proof runs past
// the drain time gives the job back at once: another worker proves it
// without waiting for the ack wait.
func TestGracefulStopGivesBack(t *testing.T) {
	fs := testFixtures(t)
	rng := testRand(t)
	ackWait := 30 * time.Second
	e := newEnv(t, service.QueueConfig{AckWait: ackWait})
	circ := e.register(fs[1])
	started := make(chan int, 4)
	stuck := e.startWorkerWith("stuck", func(constraint.ConstraintSystem, gnarkgroth16.ProvingKey, []backend.Backend, *slog.Logger) (service.Prover, error) {
		return blockingProver{started: started}, nil
	}, 100*time.Millisecond)
	w, wb := witnessOf(t, fs[1], rng)
	seed := seedOf(rng)
	ctx := context.Background()
	j, err := e.cli.Submit(ctx, client.SubmitRequest{Circuit: circ.ID, Witness: wb, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("the worker never started the proof")
	}
	stopped := time.Now()
	stuck.stop() // graceful: the drain time runs out, the job goes back
	if cur, _ := e.cli.Job(ctx, j.ID); cur.State != client.Queued {
		t.Fatalf("after a graceful stop the job is %s, want queued", cur.State)
	}
	e.startWorker("next", nil)
	final := e.waitAll([]string{j.ID}, time.Minute)[j.ID]
	if final.State != client.Done || final.Worker != "next" {
		t.Fatalf("job %s by %q (%s), want done by next", final.State, final.Worker, final.Error)
	}
	if took := final.Finished.Sub(stopped); took >= ackWait {
		t.Errorf("proved %v after the stop: it waited for the ack wait", took)
	}
	proof, err := e.cli.Proof(ctx, j.ID)
	if err != nil {
		t.Fatal(err)
	}
	checkProof(t, fs[1], w, seed, proof)
}

// failingProver fails every witness as a device would: an error worth
// another delivery.
type failingProver struct{}

func (failingProver) ProveBatch(_ context.Context, ws []witness.Witness, _ ...groth16.Option) ([]gnarkgroth16.Proof, error) {
	return nil, errors.New("injected device fault")
}

func (failingProver) Close() error { return nil }

// TestBoundedDeliveries: a job that keeps failing on devices is retried
// up to the delivery bound, then fails; a job whose workers all die on it
// fails once JetStream gives up on it.
func TestBoundedDeliveries(t *testing.T) {
	fs := testFixtures(t)
	rng := testRand(t)
	e := newEnv(t, service.QueueConfig{AckWait: time.Second, MaxDeliver: 2})
	circ := e.register(fs[1])
	ctx := context.Background()

	flaky := e.startWorker("flaky", func(constraint.ConstraintSystem, gnarkgroth16.ProvingKey, []backend.Backend, *slog.Logger) (service.Prover, error) {
		return failingProver{}, nil
	})
	_, wb := witnessOf(t, fs[1], rng)
	j, err := e.cli.Submit(ctx, client.SubmitRequest{Circuit: circ.ID, Witness: wb})
	if err != nil {
		t.Fatal(err)
	}
	final := e.waitAll([]string{j.ID}, time.Minute)[j.ID]
	if final.State != client.Failed || final.Attempts != 2 || !strings.Contains(final.Error, "delivery 2 of 2") || !strings.Contains(final.Error, "injected device fault") {
		t.Fatalf("always-failing job: %s after %d deliveries (%q), want failed after 2 naming the fault", final.State, final.Attempts, final.Error)
	}
	flaky.stop()

	started := make(chan int, 4)
	blocking := func(constraint.ConstraintSystem, gnarkgroth16.ProvingKey, []backend.Backend, *slog.Logger) (service.Prover, error) {
		return blockingProver{started: started}, nil
	}
	_, wb = witnessOf(t, fs[1], rng)
	j, err = e.cli.Submit(ctx, client.SubmitRequest{Circuit: circ.ID, Witness: wb})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 { // a worker dies on each delivery
		dying := e.startWorker(fmt.Sprintf("dying%d", i), blocking)
		select {
		case <-started:
		case <-time.After(30 * time.Second):
			t.Fatalf("delivery %d never came", i+1)
		}
		dying.nc.Close()
	}
	// JetStream notices the exhausted job when a worker next pulls.
	healthy := e.startWorker("healthy", nil)
	final = e.waitAll([]string{j.ID}, time.Minute)[j.ID]
	if final.State != client.Failed || !strings.Contains(final.Error, "without a result") {
		t.Fatalf("job whose workers died: %s (%q), want failed after the last delivery", final.State, final.Error)
	}
	if healthy.w.Proved() != 0 {
		t.Errorf("the exhausted job was delivered again and proved")
	}
	t.Logf("failed: %s", final.Error)
}

// checkMetrics reads a /metrics page: each of want must have its value,
// each of positive a value above zero.
func checkMetrics(t *testing.T, url string, want map[string]float64, positive []string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	values := make(map[string]float64)
	for _, line := range strings.Split(string(body), "\n") {
		var name string
		var v float64
		if strings.HasPrefix(line, "#") {
			continue
		}
		if i := strings.LastIndexByte(line, ' '); i > 0 {
			name = line[:i]
			if _, err := fmt.Sscan(line[i+1:], &v); err == nil {
				values[name] += v
			}
		}
	}
	for name, w := range want {
		if got, ok := values[name]; !ok || got != w {
			t.Errorf("metric %s = %v (present %v), want %v", name, got, ok, w)
		}
	}
	for _, name := range positive {
		if values[name] <= 0 {
			t.Errorf("metric %s = %v, want > 0", name, values[name])
		}
	}
}

// squareCircuit is X² = Y.
type squareCircuit struct {
	X frontend.Variable
	Y frontend.Variable `gnark:",public"`
}

func (c *squareCircuit) Define(api frontend.API) error {
	api.AssertIsEqual(api.Mul(c.X, c.X), c.Y)
	return nil
}
