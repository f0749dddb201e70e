package service

import (
	"sync"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/service/client"
)

// latencyBuckets spans a small proof on a GPU to a large one on a CPU.
var latencyBuckets = prometheus.ExponentialBuckets(0.01, 2, 16) // 10 ms … 5.5 min

// serverMetrics are the server's: jobs by state and their latency.
type serverMetrics struct {
	submitted prometheus.Counter
	latency   prometheus.Histogram // submission to stored proof
}

func newServerMetrics() *serverMetrics {
	return &serverMetrics{
		submitted: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "g16_jobs_submitted_total", Help: "Jobs submitted (new jobs; repeats of an idempotency key are not counted).",
		}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "g16_job_latency_seconds", Help: "Time from a job's submission to its stored proof.", Buckets: latencyBuckets,
		}),
	}
}

func (m *serverMetrics) register(reg prometheus.Registerer, idx *index) error {
	jobs := prometheus.NewDesc("g16_jobs", "Jobs by state.", []string{"state"}, nil)
	cs := []prometheus.Collector{m.submitted, m.latency, collectorFunc{jobs, func(ch chan<- prometheus.Metric) {
		for _, s := range []client.State{client.Queued, client.Running, client.Done, client.Failed} {
			ch <- prometheus.MustNewConstMetric(jobs, prometheus.GaugeValue, float64(idx.count(s)), string(s))
		}
	}}}
	for _, c := range cs {
		if err := reg.Register(c); err != nil {
			return err
		}
	}
	return nil
}

// finished observes a job that has just reached done or failed.
func (m *serverMetrics) finished(j client.Job) {
	if j.State == client.Done && !j.Finished.IsZero() {
		m.latency.Observe(j.Finished.Sub(j.Submitted).Seconds())
	}
}

// collectorFunc is a collector of one family, collected by a function.
type collectorFunc struct {
	desc    *prometheus.Desc
	collect func(ch chan<- prometheus.Metric)
}

func (c collectorFunc) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }
func (c collectorFunc) Collect(ch chan<- prometheus.Metric) { c.collect(ch) }

// WorkerMetrics are the metrics of the workers of one process, registered
// once and shared by them.
type WorkerMetrics struct {
	proofs      *prometheus.CounterVec   // by worker and result
	batchSize   prometheus.Histogram     // jobs per ProveBatch
	proofTime   *prometheus.HistogramVec // delivery to stored result, per job
	solveTime   prometheus.Counter
	deviceTime  prometheus.Counter
	busyDesc    *prometheus.Desc
	ratioDesc   *prometheus.Desc
	memDesc     *prometheus.Desc
	mu          sync.Mutex
	devices     []workerDevice
	lastCollect time.Time
	lastBusy    map[*busyDevice]time.Duration
}

// NewWorkerMetrics registers the worker metrics with reg.
func NewWorkerMetrics(reg prometheus.Registerer) (*WorkerMetrics, error) {
	m := &WorkerMetrics{
		proofs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "g16_worker_jobs_total", Help: "Jobs a worker finished, by result: done, failed, retried (given back for another delivery), duplicate (already done elsewhere).",
		}, []string{"worker", "result"}),
		batchSize: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "g16_worker_batch_size", Help: "Jobs proved together in one batch.", Buckets: prometheus.ExponentialBuckets(1, 2, 10),
		}),
		proofTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "g16_worker_proof_seconds", Help: "Time from a job's delivery to a worker to its stored proof.", Buckets: latencyBuckets,
		}, []string{"worker"}),
		solveTime: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "g16_solve_seconds_total", Help: "Host time solving circuits and filtering wires, summed over proofs.",
		}),
		deviceTime: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "g16_device_seconds_total", Help: "Device time (upload, NTTs and quotient, MSMs) summed over proofs.",
		}),
		busyDesc:    prometheus.NewDesc("g16_device_busy_seconds_total", "Time the device had at least one backend call in flight.", []string{"worker", "device"}, nil),
		ratioDesc:   prometheus.NewDesc("g16_device_busy_ratio", "Fraction of the time since the previous scrape the device was busy.", []string{"worker", "device"}, nil),
		memDesc:     prometheus.NewDesc("g16_device_memory_bytes", "Device memory: capacity, in use by live buffers, cached in the pool.", []string{"worker", "device", "kind"}, nil),
		lastCollect: time.Now(),
		lastBusy:    make(map[*busyDevice]time.Duration),
	}
	for _, c := range []prometheus.Collector{m.proofs, m.batchSize, m.proofTime, m.solveTime, m.deviceTime, m} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// workerDevice is a device of a worker, as the metrics label it.
type workerDevice struct {
	worker string
	dev    *busyDevice
}

func (m *WorkerMetrics) addDevice(worker string, d *busyDevice) {
	m.mu.Lock()
	m.devices = append(m.devices, workerDevice{worker, d})
	m.mu.Unlock()
}

// Describe and Collect report the devices' busy time and memory.
func (m *WorkerMetrics) Describe(ch chan<- *prometheus.Desc) {
	ch <- m.busyDesc
	ch <- m.ratioDesc
	ch <- m.memDesc
}

func (m *WorkerMetrics) Collect(ch chan<- prometheus.Metric) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	wall := now.Sub(m.lastCollect)
	m.lastCollect = now
	for _, wd := range m.devices {
		d, name := wd.dev, wd.dev.String()
		busy := d.busy()
		ch <- prometheus.MustNewConstMetric(m.busyDesc, prometheus.CounterValue, busy.Seconds(), wd.worker, name)
		if wall > 0 {
			ch <- prometheus.MustNewConstMetric(m.ratioDesc, prometheus.GaugeValue, min(1, float64(busy-m.lastBusy[d])/float64(wall)), wd.worker, name)
		}
		m.lastBusy[d] = busy
		mem := d.Memory()
		for _, v := range []struct {
			kind string
			n    int64
		}{{"capacity", mem.Capacity}, {"in_use", mem.InUse}, {"cached", mem.Cached}} {
			ch <- prometheus.MustNewConstMetric(m.memDesc, prometheus.GaugeValue, float64(v.n), wd.worker, name, v.kind)
		}
	}
}

// busyDevice is a Backend that keeps the time it has had at least one
// call in flight (an asynchronous device's calls count from the call to
// its return, the queue waits included).
type busyDevice struct {
	backend.Backend
	mu       sync.Mutex
	inFlight int
	since    time.Time
	total    time.Duration
}

func newBusyDevice(b backend.Backend) *busyDevice { return &busyDevice{Backend: b} }

func (d *busyDevice) enter() {
	d.mu.Lock()
	if d.inFlight == 0 {
		d.since = time.Now()
	}
	d.inFlight++
	d.mu.Unlock()
}

func (d *busyDevice) leave() {
	d.mu.Lock()
	d.inFlight--
	if d.inFlight == 0 {
		d.total += time.Since(d.since)
	}
	d.mu.Unlock()
}

func (d *busyDevice) busy() time.Duration {
	d.mu.Lock()
	defer d.mu.Unlock()
	t := d.total
	if d.inFlight > 0 {
		t += time.Since(d.since)
	}
	return t
}

// HostBound passes the wrapped backend's answer on.
func (d *busyDevice) HostBound() bool { return backend.IsHostBound(d.Backend) }

func (d *busyDevice) Upload(q backend.Queue, dst backend.Buffer, off int64, src []byte) error {
	d.enter()
	defer d.leave()
	return d.Backend.Upload(q, dst, off, src)
}

func (d *busyDevice) Download(q backend.Queue, dst []byte, src backend.Buffer, off int64) error {
	d.enter()
	defer d.leave()
	return d.Backend.Download(q, dst, src, off)
}

func (d *busyDevice) NTT(q backend.Queue, data backend.Buffer, spec backend.NTTSpec) error {
	d.enter()
	defer d.leave()
	return d.Backend.NTT(q, data, spec)
}

func (d *busyDevice) QuotientStep(q backend.Queue, cv ecc.ID, a, b, c backend.Buffer, n int, zInv []byte) error {
	d.enter()
	defer d.leave()
	return d.Backend.QuotientStep(q, cv, a, b, c, n, zInv)
}

func (d *busyDevice) MSMG1(q backend.Queue, c ecc.ID, out []byte, bases backend.Buffer, basesOff int64, scalars backend.Buffer, n int) error {
	d.enter()
	defer d.leave()
	return d.Backend.MSMG1(q, c, out, bases, basesOff, scalars, n)
}

func (d *busyDevice) MSMG2(q backend.Queue, c ecc.ID, out []byte, bases backend.Buffer, basesOff int64, scalars backend.Buffer, n int) error {
	d.enter()
	defer d.leave()
	return d.Backend.MSMG2(q, c, out, bases, basesOff, scalars, n)
}
