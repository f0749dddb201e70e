package pool_test

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/pool"
)

// sumJob adds up its numbers on the device: it uploads them, and reads
// them back in Compute (a stand-in for NTTs and MSMs).
type sumJob struct {
	numbers []uint64
	sum     uint64
}

func (j *sumJob) Prepare(context.Context) error { return nil }
func (j *sumJob) Buffers(struct{}) []int64      { return []int64{8 * int64(len(j.numbers))} }

func (j *sumJob) Upload(dev backend.Backend, q backend.Queue, _ struct{}, bufs []backend.Buffer) error {
	return dev.Upload(q, bufs[0], 0, backend.AsBytes(j.numbers))
}

func (j *sumJob) Compute(dev backend.Backend, q backend.Queue, _ struct{}, bufs []backend.Buffer) error {
	raw := make([]byte, bufs[0].Bytes())
	if err := dev.Download(q, raw, bufs[0], 0); err != nil {
		return err
	}
	j.sum = 0
	for i := 0; i < len(raw); i += 8 {
		j.sum += binary.LittleEndian.Uint64(raw[i:])
	}
	return nil
}

func (j *sumJob) Finish(context.Context) error { return nil }

func ExampleRun() {
	jobs := make([]pool.Job[struct{}], 4)
	for i := range jobs {
		jobs[i] = &sumJob{numbers: []uint64{uint64(i), 10, 100}}
	}
	devices := []backend.Backend{cpu.MustNew(cpu.WithID(0))}
	trace := pool.NewTrace()
	err := pool.Run(context.Background(), devices, jobs, pool.Resident[struct{}]{}, pool.WithTrace(trace))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, j := range jobs {
		fmt.Println(j.(*sumJob).sum)
	}
	s := trace.Summary()
	fmt.Printf("partitions %d, staged %d, fallbacks %d\n", s.Partitions, s.Staged, s.Fallbacks)
	// Output:
	// 110
	// 111
	// 112
	// 113
	// partitions 4, staged 4, fallbacks 0
}
