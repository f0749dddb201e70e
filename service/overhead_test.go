//go:build unix

package service_test

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"syscall"
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

// instantProver answers every witness at once with one fixed proof: with
// it, a job's time through the service is the service's own.
type instantProver struct{ proof gnarkgroth16.Proof }

func (p instantProver) ProveBatch(_ context.Context, ws []witness.Witness, _ ...groth16.Option) ([]gnarkgroth16.Proof, error) {
	out := make([]gnarkgroth16.Proof, len(ws))
	for i := range out {
		out[i] = p.proof
	}
	return out, nil
}

func (instantProver) Close() error { return nil }

// BenchmarkJobOverhead is the service's cost of one job (submit over
// HTTP, queue, claim, store the result, wait), with a prover that takes
// no time: b.N jobs submitted at once, one worker, one device. Run it with
// -cpuprofile to see where a job's time goes.
func BenchmarkJobOverhead(b *testing.B) {
	fs := testFixtures(b)
	f := fs[1]
	rng := testRand(b)
	w, wb := witnessOf(b, f, rng)
	proof, err := groth16.Prove(f.ccs, f.pk, w)
	if err != nil {
		b.Fatal(err)
	}
	e := newEnv(b, service.QueueConfig{AckWait: 10 * time.Second})
	circ := e.register(f)
	e.startWorker("instant", func(constraint.ConstraintSystem, gnarkgroth16.ProvingKey, []backend.Backend, *slog.Logger) (service.Prover, error) {
		return instantProver{proof: proof}, nil
	})
	ctx := context.Background()
	run := func(n int, batch string) {
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				j, err := e.cli.Submit(ctx, client.SubmitRequest{Circuit: circ.ID, Witness: wb, Batch: batch})
				if err == nil {
					j, err = e.cli.Wait(ctx, j.ID)
				}
				if err == nil && j.State != client.Done {
					err = fmt.Errorf("job %s: %s (%s)", j.ID, j.State, j.Error)
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	run(4, "warm")
	b.ResetTimer()
	start, cpu0 := time.Now(), processCPU()
	run(b.N, "bench")
	b.ReportMetric(float64(time.Since(start).Microseconds())/float64(b.N), "µs/job")
	b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/float64(b.N), "CPU-µs/job")
}

// processCPU is the CPU time (user and system) the process has used: the
// embedded NATS server's, the API's, the worker's and the client's.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
