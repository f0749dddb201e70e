package pool

import (
	"context"
	"fmt"
	"testing"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
)

// emptyJob does no work: it measures what the scheduler itself costs per
// job (regions, admission, buffer reuse, trace).
type emptyJob struct{}

func (emptyJob) Prepare(context.Context) error { return nil }
func (emptyJob) Buffers(struct{}) []int64      { return []int64{1 << 10, 1 << 10} }
func (emptyJob) Upload(dev backend.Backend, q backend.Queue, _ struct{}, bufs []backend.Buffer) error {
	return nil
}
func (emptyJob) Compute(dev backend.Backend, q backend.Queue, _ struct{}, bufs []backend.Buffer) error {
	return nil
}
func (emptyJob) Finish(context.Context) error { return nil }

// BenchmarkRun reports the scheduler's cost per job, with and without a
// trace.
func BenchmarkRun(b *testing.B) {
	const perRun = 100
	jobs := make([]Job[struct{}], perRun)
	for i := range jobs {
		jobs[i] = emptyJob{}
	}
	for _, devs := range []int{1, 2} {
		for _, traced := range []bool{false, true} {
			b.Run(fmt.Sprintf("devices=%d/trace=%v", devs, traced), func(b *testing.B) {
				ds := make([]backend.Backend, devs)
				for i := range ds {
					ds[i] = cpu.MustNew(cpu.WithID(i))
				}
				b.ReportAllocs()
				b.ResetTimer()
				for range b.N {
					var opts []Option
					if traced {
						opts = append(opts, WithTrace(NewTrace()))
					}
					if err := Run(context.Background(), ds, jobs, Resident[struct{}]{}, opts...); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*perRun), "ns/job")
			})
		}
	}
}
