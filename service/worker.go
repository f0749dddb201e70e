package service

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/g16prover/g16/backend"
)

// WorkerConfig configures NewWorker.
type WorkerConfig struct {
	NATS    *nats.Conn        // the connection to NATS (required; the caller closes it)
	Devices []backend.Backend // the devices to prove on (required; the caller closes them)
	Name    string            // default: host name and process id
	// MaxBatch is the most jobs proved in one batch, and the most the
	// worker claims ahead while a batch proves (default 32 per device). A
	// batch takes what has been claimed, so batches are small when the
	// queue is short and full under a backlog, where fewer batch
	// boundaries keep the devices busier. A worker holds at most twice
	// MaxBatch jobs: one batch proving, one claimed ahead. It claims in
	// fetches of at most 8 jobs per device, so that workers fetching
	// from one burst take turns.
	MaxBatch int
	// CacheDir keeps circuits' R1CS and keys on local disk by hash
	// (default: none, read from the object store each time a circuit's
	// prover is made).
	CacheDir string
	// NewProver makes a circuit's prover (default NewProver).
	NewProver ProverFactory
	// Queue sets the consumer's redelivery if the worker is the first to
	// create it; an existing consumer is used as it is.
	Queue QueueConfig
	// Drain is how long a stopping worker lets its running batch finish
	// before it gives the unfinished jobs back (default: the ack wait).
	Drain time.Duration
	// SkipVerify stores proofs without verifying them even where the
	// circuit was registered with its verifying key.
	SkipVerify bool
	Logger     *slog.Logger   // default: slog.Default()
	Metrics    *WorkerMetrics // default: none
}

// defaultBatchPerDevice is MaxBatch's default per device. A batch
// boundary costs the devices about one proof's time (the first partition
// solves while the device waits; the last computes while the solvers
// wait), so batches of 32 keep that near 3% of a batch's time.
const defaultBatchPerDevice = 32

// Worker proves the service's jobs on a set of devices.
type Worker struct {
	cfg     WorkerConfig
	st      *store
	log     *slog.Logger
	devices []backend.Backend
	mu      sync.Mutex
	provers map[string]*circuitProver
	claims  *claimed
	proved  atomic.Int64
	// settling counts the jobs whose results are being stored.
	settling sync.WaitGroup
}

var workerSeq atomic.Int64

// NewWorker binds a worker to the service's JetStream state.
func NewWorker(ctx context.Context, cfg WorkerConfig) (*Worker, error) {
	if cfg.NATS == nil {
		return nil, errors.New("service: NewWorker: no NATS connection")
	}
	if len(cfg.Devices) == 0 {
		return nil, errors.New("service: NewWorker: no devices")
	}
	if cfg.Name == "" {
		host, _ := os.Hostname()
		cfg.Name = fmt.Sprintf("%s-%d-%d", host, os.Getpid(), workerSeq.Add(1))
	}
	if cfg.MaxBatch <= 0 {
		cfg.MaxBatch = defaultBatchPerDevice * len(cfg.Devices)
	}
	if cfg.NewProver == nil {
		cfg.NewProver = NewProver
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	st, err := openStore(ctx, cfg.NATS, cfg.Queue, false)
	if err != nil {
		return nil, err
	}
	if cfg.Drain <= 0 {
		cfg.Drain = st.queue.AckWait
	}
	w := &Worker{cfg: cfg, st: st, log: cfg.Logger.With("worker", cfg.Name), provers: make(map[string]*circuitProver), claims: newClaimed()}
	for _, d := range cfg.Devices {
		if cfg.Metrics != nil {
			bd := newBusyDevice(d)
			cfg.Metrics.addDevice(cfg.Name, bd)
			d = bd
		}
		w.devices = append(w.devices, d)
	}
	return w, nil
}

// Name is the worker's name, as job records report it.
func (w *Worker) Name() string { return w.cfg.Name }

// Proved is how many jobs the worker has proved and stored.
func (w *Worker) Proved() int64 { return w.proved.Load() }

// Run takes jobs until ctx ends. While a batch proves, the worker fetches
// and claims the next jobs (up to MaxBatch), so that the devices do not
// wait for NATS between batches, and it stores each job's result as soon
// as its proof is assembled. Once ctx ends it stops taking jobs, gives
// back at once the claimed jobs that have not started, lets the running
// batch finish for up to Drain, gives back what did not finish for
// immediate redelivery, releases its provers and returns nil.
func (w *Worker) Run(ctx context.Context) error {
	w.log.Info("worker started", "devices", len(w.devices), "max_batch", w.cfg.MaxBatch)
	defer w.closeProvers()
	proveCtx, cancelProve := context.WithCancel(context.Background())
	defer cancelProve()
	stop := context.AfterFunc(ctx, func() { time.AfterFunc(w.cfg.Drain, cancelProve) })
	defer stop()
	beatCtx, stopBeat := context.WithCancel(context.Background())
	defer stopBeat()
	go w.heartbeat(beatCtx)

	fed := make(chan error, 1)
	go func() { fed <- w.feed(ctx) }()
	stopping := make(chan struct{})
	proving := make(chan struct{})
	go func() {
		defer close(proving)
		for {
			tasks := w.claims.take(stopping)
			if tasks == nil {
				return
			}
			w.runBatch(proveCtx, tasks)
		}
	}()
	err := <-fed
	if err != nil {
		// The connection is gone: no result could be stored.
		cancelProve()
	}
	close(stopping)
	w.giveBackAll("the worker stopped before the job started")
	<-proving
	w.giveBackAll("the worker stopped before the job started")
	w.settling.Wait()
	w.log.Info("worker stopped", "proved", w.Proved(), "err", err)
	return err
}

// giveBackAll gives back the claimed jobs that wait for the devices.
func (w *Worker) giveBackAll(why string) {
	for _, t := range w.claims.drain() {
		w.claims.release(t)
		w.giveBack(t, why)
	}
}
