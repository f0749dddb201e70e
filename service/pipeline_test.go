package service_test

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/groth16"
	"github.com/g16prover/g16/service"
	"github.com/g16prover/g16/service/client"
)

// gatedProver is the default prover with gates: each ProveBatch announces
// its batch size on started, waits on before, proves, then waits on after
// before it returns.
type gatedProver struct {
	inner         service.Prover
	started       chan<- int
	before, after <-chan struct{}
}

func (p *gatedProver) ProveBatch(ctx context.Context, ws []witness.Witness, opts ...groth16.Option) ([]gnarkgroth16.Proof, error) {
	p.started <- len(ws)
	<-p.before
	proofs, err := p.inner.ProveBatch(ctx, ws, opts...)
	<-p.after
	return proofs, err
}

func (p *gatedProver) Close() error { return p.inner.Close() }

// waitState polls the job until it is in state want.
func (e *env) waitState(id string, want client.State) {
	e.t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		j, err := e.cli.Job(context.Background(), id)
		if err != nil {
			e.t.Fatal(err)
		}
		if j.State == want {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	e.t.Fatalf("job %s never became %s", id, want)
}

// TestPipelinedWorker: while a batch proves, the worker claims the jobs
// that arrive (they are running before the batch ends) and proves them
// together as the next batch; each job's result is stored as its proof is
// assembled, before its batch returns. Every proof equals Prove's.
func TestPipelinedWorker(t *testing.T) {
	fs := testFixtures(t)
	f := fs[1]
	rng := testRand(t)
	e := newEnv(t, service.QueueConfig{AckWait: 10 * time.Second})
	circ := e.register(f)
	started := make(chan int, 4)
	before, after := make(chan struct{}), make(chan struct{})
	openBefore := sync.OnceFunc(func() { close(before) })
	openAfter := sync.OnceFunc(func() { close(after) })
	defer openAfter()
	defer openBefore()
	e.startWorker("gated", func(ccs constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey, devs []backend.Backend, log *slog.Logger) (service.Prover, error) {
		inner, err := service.NewProver(ccs, pk, devs, log)
		if err != nil {
			return nil, err
		}
		return &gatedProver{inner: inner, started: started, before: before, after: after}, nil
	})
	ctx := context.Background()
	jobs := make(map[string]submitted)
	submit := func() string {
		w, wb := witnessOf(t, f, rng)
		seed := seedOf(rng)
		j, err := e.cli.Submit(ctx, client.SubmitRequest{Circuit: circ.ID, Witness: wb, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		jobs[j.ID] = submitted{f, w, seed}
		return j.ID
	}
	first := submit()
	if n := <-started; n != 1 {
		t.Fatalf("first batch of %d jobs, want 1", n)
	}
	// The first batch is held before it proves: the next jobs are claimed
	// meanwhile.
	const more = 5
	var next []string
	for range more {
		next = append(next, submit())
	}
	for _, id := range next {
		e.waitState(id, client.Running)
	}
	// The first batch proves and its proof is stored while ProveBatch
	// has not returned (after is still closed to it).
	openBefore()
	e.waitState(first, client.Done)
	select {
	case n := <-started:
		t.Fatalf("a second batch (%d jobs) started before the first returned", n)
	default:
	}
	openAfter()
	if n := <-started; n != more {
		t.Fatalf("second batch of %d jobs, want the %d claimed while the first proved", n, more)
	}
	got := e.waitAll(append([]string{first}, next...), time.Minute)
	for id, j := range got {
		if j.State != client.Done {
			t.Fatalf("job %s: %s (%s)", id, j.State, j.Error)
		}
		proof, err := e.cli.Proof(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		s := jobs[id]
		checkProof(t, s.f, s.w, s.seed, proof)
	}
}
