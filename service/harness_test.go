package service_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"
	"github.com/nats-io/nats.go"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/groth16"
	"github.com/g16prover/g16/internal/synth"
	"github.com/g16prover/g16/service"
	"github.com/g16prover/g16/service/client"
)

// fixture is a small circuit with gnark's real setup, made once.
type fixture struct {
	name        string
	ccs         constraint.ConstraintSystem
	shape       synth.Shape
	pk          gnarkgroth16.ProvingKey
	vk          gnarkgroth16.VerifyingKey
	r1cs, pkRaw []byte
	vkBytes     []byte

	// prover makes the reference proofs: groth16.Prover's Prove, which
	// gives groth16.Prove's bytes with a key kept resident.
	proverOnce sync.Once
	prover     *groth16.Prover
	proverErr  error
}

var (
	fixturesOnce sync.Once
	fixtures     []*fixture
	fixturesErr  error
)

// testFixtures are two circuits: a 2^9 mix with a BSB22 commitment and a
// 2^8 multiplication chain.
func testFixtures(t testing.TB) []*fixture {
	t.Helper()
	fixturesOnce.Do(func() {
		for _, c := range []struct {
			mix  string
			size int
		}{{synth.Mix, 1 << 8}, {synth.Chain, 1 << 8}} {
			ccs, shape, err := synth.Compile(c.mix, c.size)
			if err != nil {
				fixturesErr = err
				return
			}
			pk, vk, err := gnarkgroth16.Setup(ccs)
			if err != nil {
				fixturesErr = err
				return
			}
			f := &fixture{name: c.mix, ccs: ccs, shape: shape, pk: pk, vk: vk}
			var b bytes.Buffer
			ccs.WriteTo(&b)
			f.r1cs = bytes.Clone(b.Bytes())
			b.Reset()
			pk.WriteRawTo(&b)
			f.pkRaw = bytes.Clone(b.Bytes())
			b.Reset()
			vk.WriteTo(&b)
			f.vkBytes = bytes.Clone(b.Bytes())
			fixtures = append(fixtures, f)
		}
	})
	if fixturesErr != nil {
		t.Fatalf("fixtures: %v", fixturesErr)
	}
	return fixtures
}

// testRand is the test's random source; its seed is logged.
func testRand(t testing.TB) *rand.Rand {
	seed := uint64(time.Now().UnixNano())
	t.Logf("random seed %d", seed)
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// witnessOf draws a fresh full witness of f.
func witnessOf(t testing.TB, f *fixture, rng *rand.Rand) (witness.Witness, []byte) {
	t.Helper()
	w, err := synth.Witness(f.shape, rng.Uint64())
	if err != nil {
		t.Fatal(err)
	}
	b, err := w.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return w, b
}

// env is one service: an embedded NATS server on dir, the API server and
// its HTTP front, and a client.
type env struct {
	t     testing.TB
	dir   string
	queue service.QueueConfig
	emb   *service.Embedded
	nc    *nats.Conn
	srv   *service.Server
	http  *httptest.Server
	cli   *client.Client
}

func testLogger(t testing.TB) *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(tWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

type tWriter struct{ t testing.TB }

func (w tWriter) Write(p []byte) (int, error) {
	w.t.Log(string(bytes.TrimRight(p, "\n")))
	return len(p), nil
}

func newEnv(t testing.TB, queue service.QueueConfig) *env {
	e := &env{t: t, dir: t.TempDir(), queue: queue}
	e.start()
	t.Cleanup(e.stop)
	return e
}

func (e *env) start() {
	t := e.t
	t.Helper()
	var err error
	if e.emb, err = service.StartEmbedded(service.EmbeddedConfig{Dir: e.dir + "/nats"}); err != nil {
		t.Fatal(err)
	}
	if e.nc, err = nats.Connect(e.emb.URL()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if e.srv, err = service.NewServer(ctx, service.ServerConfig{NATS: e.nc, Queue: e.queue, UploadDir: e.dir + "/uploads", Logger: testLogger(t)}); err != nil {
		t.Fatal(err)
	}
	e.http = httptest.NewServer(e.srv.Handler())
	e.cli = client.New(e.http.URL)
}

func (e *env) stop() {
	if e.emb == nil {
		return
	}
	e.http.Close()
	e.srv.Close()
	e.nc.Close()
	e.emb.Shutdown()
	e.emb = nil
}

// restart stops everything and starts it again on the same storage.
func (e *env) restart() {
	e.stop()
	e.start()
}

// register uploads and registers f, with its verifying key.
func (e *env) register(f *fixture) client.Circuit {
	e.t.Helper()
	c, err := e.cli.RegisterCircuit(context.Background(), bytes.NewReader(f.r1cs), bytes.NewReader(f.pkRaw), bytes.NewReader(f.vkBytes))
	if err != nil {
		e.t.Fatalf("registering %s: %v", f.name, err)
	}
	return c
}

// worker is an in-process worker with its own NATS connection.
type worker struct {
	w      *service.Worker
	nc     *nats.Conn
	cancel context.CancelFunc
	done   chan error
}

// startWorker starts a worker on one CPU backend; factory nil is the
// default prover.
func (e *env) startWorker(name string, factory service.ProverFactory) *worker {
	e.t.Helper()
	return e.startWorkerWith(name, factory, 0)
}

// startWorkerMetrics starts a worker that records its metrics in m.
func (e *env) startWorkerMetrics(name string, m *service.WorkerMetrics) *worker {
	e.t.Helper()
	return e.startWorkerFull(name, nil, 0, m)
}

// startWorkerWith starts a worker with a drain time (0: the default).
func (e *env) startWorkerWith(name string, factory service.ProverFactory, drain time.Duration) *worker {
	e.t.Helper()
	return e.startWorkerFull(name, factory, drain, nil)
}

func (e *env) startWorkerFull(name string, factory service.ProverFactory, drain time.Duration, m *service.WorkerMetrics) *worker {
	t := e.t
	t.Helper()
	nc, err := nats.Connect(e.emb.URL())
	if err != nil {
		t.Fatal(err)
	}
	dev := cpu.MustNew()
	ctx, cancel := context.WithCancel(context.Background())
	w, err := service.NewWorker(ctx, service.WorkerConfig{
		NATS: nc, Devices: []backend.Backend{dev}, Name: name, NewProver: factory,
		CacheDir: e.dir + "/cache-" + name, Logger: testLogger(t), Drain: drain, Metrics: m,
	})
	if err != nil {
		t.Fatal(err)
	}
	wk := &worker{w: w, nc: nc, cancel: cancel, done: make(chan error, 1)}
	go func() { wk.done <- w.Run(ctx) }()
	t.Cleanup(func() { wk.stop(); dev.Close() })
	return wk
}

// stop stops the worker gracefully and waits for it.
func (wk *worker) stop() {
	if wk.cancel == nil {
		return
	}
	wk.cancel()
	<-wk.done
	wk.nc.Close()
	wk.cancel = nil
}

// waitAll waits for every job to finish.
func (e *env) waitAll(ids []string, timeout time.Duration) map[string]client.Job {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	out := make(map[string]client.Job, len(ids))
	for _, id := range ids {
		j, err := e.cli.Wait(ctx, id)
		if err != nil {
			e.t.Fatalf("waiting for job %s: %v (state %s)", id, err, j.State)
		}
		out[id] = j
	}
	return out
}

// reference is groth16.Prove's proof of w with the job's seed (made by a
// groth16.Prover, whose proofs are Prove's).
func reference(t testing.TB, f *fixture, w witness.Witness, seed []byte) []byte {
	t.Helper()
	rd, err := service.JobRandomness(seed)
	if err != nil {
		t.Fatal(err)
	}
	f.proverOnce.Do(func() { f.prover, f.proverErr = groth16.NewProver(f.ccs, f.pk, groth16.WithBackend(cpu.MustNew())) })
	if f.proverErr != nil {
		t.Fatal(f.proverErr)
	}
	p, err := f.prover.Prove(context.Background(), w, groth16.WithRandomness(rd))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := p.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// checkProof checks that a stored proof verifies and equals Prove's.
func checkProof(t testing.TB, f *fixture, w witness.Witness, seed, got []byte) {
	t.Helper()
	verifyProof(t, f, w, got)
	if want := reference(t, f, w, seed); !bytes.Equal(got, want) {
		t.Fatalf("stored proof differs from groth16.Prove's with the job's seed")
	}
}

func seedOf(rng *rand.Rand) []byte {
	s := make([]byte, service.SeedBytes)
	for i := range s {
		s[i] = byte(rng.Uint32())
	}
	return s
}

// checkProofs checks that every stored proof verifies and equals
// groth16.Prove's with its job's seed. The references of each circuit come
// from one ProveBatch with each job's randomness (its proofs are Prove's,
// byte for byte); a few are made by Prove itself as well.
func checkProofs(t *testing.T, jobs map[string]submitted, stored map[string][]byte) {
	t.Helper()
	byCircuit := make(map[*fixture][]string)
	for id, s := range jobs {
		byCircuit[s.f] = append(byCircuit[s.f], id)
	}
	for f, ids := range byCircuit {
		ws := make([]witness.Witness, len(ids))
		for i, id := range ids {
			ws[i] = jobs[id].w
		}
		proofs, err := groth16.ProveBatch(context.Background(), f.ccs, f.pk, ws, groth16.WithBackend(cpu.MustNew()),
			groth16.WithBatchRandomness(func(i int) io.Reader {
				rd, _ := service.JobRandomness(jobs[ids[i]].seed)
				return rd
			}))
		if err != nil {
			t.Fatal(err)
		}
		for i, id := range ids {
			got := stored[id]
			verifyProof(t, f, ws[i], got)
			var want bytes.Buffer
			proofs[i].WriteTo(&want)
			if !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("job %s: stored proof differs from the reference with the job's seed", id)
			}
			if i < 3 && !bytes.Equal(got, reference(t, f, ws[i], jobs[id].seed)) {
				t.Fatalf("job %s: stored proof differs from groth16.Prove's with the job's seed", id)
			}
		}
	}
}

// verifyProof checks a stored proof decodes and gnark's verifier accepts it.
func verifyProof(t testing.TB, f *fixture, w witness.Witness, got []byte) {
	t.Helper()
	proof := gnarkgroth16.NewProof(f.vk.CurveID())
	if _, err := proof.ReadFrom(bytes.NewReader(got)); err != nil {
		t.Fatalf("stored proof does not decode: %v", err)
	}
	pub, err := w.Public()
	if err != nil {
		t.Fatal(err)
	}
	if err := gnarkgroth16.Verify(proof, f.vk, pub); err != nil {
		t.Fatalf("stored proof does not verify: %v", err)
	}
}
