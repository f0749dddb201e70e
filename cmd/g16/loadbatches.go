package main

import (
	"github.com/prometheus/client_golang/prometheus"
)

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
