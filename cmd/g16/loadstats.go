package main

import (
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/prometheus/client_golang/prometheus"
)

// startCPUProfile starts a CPU profile into path; the function it returns
// stops it and closes the file.
func startCPUProfile(path string) (func() error, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return func() error {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		return nil
	}, nil
}

// batchCount reads the workers' batch-size histogram in reg: how many
// batches they have proved and how many jobs those held.
func batchCount(reg *prometheus.Registry) (batches uint64, jobs float64) {
	mfs, err := reg.Gather()
	if err != nil {
		return 0, 0
	}
	for _, mf := range mfs {
		if mf.GetName() != "g16_worker_batch_size" {
			continue
		}
		for _, m := range mf.GetMetric() {
			h := m.GetHistogram()
			batches += h.GetSampleCount()
			jobs += h.GetSampleSum()
		}
	}
	return batches, jobs
}
