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
	"github.com/nats-io/nats.go/jetstream"

	"github.com/g16prover/g16/backend"
)

// WorkerConfig configures NewWorker.
type WorkerConfig struct {
	NATS    *nats.Conn        // the connection to NATS (required; the caller closes it)
	Devices []backend.Backend // the devices to prove on (required; the caller closes them)
	Name    string            // default: host name and process id
	// MaxBatch is the most jobs of one circuit proved in one batch
	// (default 8 per device). A fetch takes what is queued up to this bound, so
	// batches are small when the queue is short and full under a backlog,
	// where fewer batch boundaries keep the devices busier.
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

// Worker proves the service's jobs on a set of devices.
type Worker struct {
	cfg     WorkerConfig
	st      *store
	log     *slog.Logger
	devices []backend.Backend
	mu      sync.Mutex
	provers map[string]*circuitProver
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
		cfg.MaxBatch = 8 * len(cfg.Devices)
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
	w := &Worker{cfg: cfg, st: st, log: cfg.Logger.With("worker", cfg.Name), provers: make(map[string]*circuitProver)}
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

// Run takes jobs until ctx ends. Then it stops taking jobs, lets the
// running batch finish for up to Drain, gives back what did not finish for
// immediate redelivery, releases its provers and returns nil.
func (w *Worker) Run(ctx context.Context) error {
	w.log.Info("worker started", "devices", len(w.devices), "max_batch", w.cfg.MaxBatch)
	defer w.closeProvers()
	defer w.settling.Wait()
	proveCtx, cancelProve := context.WithCancel(context.Background())
	defer cancelProve()
	stop := context.AfterFunc(ctx, func() { time.AfterFunc(w.cfg.Drain, cancelProve) })
	defer stop()
	for ctx.Err() == nil {
		msgs, err := w.fetch(ctx)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			if errors.Is(err, nats.ErrConnectionClosed) {
				return fmt.Errorf("service: worker %s: %w", w.cfg.Name, err)
			}
			w.log.Warn("fetching jobs", "err", err)
			select {
			case <-time.After(time.Second):
			case <-ctx.Done():
			}
			continue
		}
		if len(msgs) > 0 {
			w.runBatch(proveCtx, msgs)
		}
	}
	w.log.Info("worker stopped", "proved", w.Proved())
	return nil
}

// fetch waits up to a second for a job, then takes what else is queued,
// up to MaxBatch.
func (w *Worker) fetch(ctx context.Context) ([]jetstream.Msg, error) {
	first, err := w.st.cons.Fetch(1, jetstream.FetchMaxWait(time.Second))
	if err != nil {
		return nil, err
	}
	var msgs []jetstream.Msg
	for m := range first.Messages() {
		msgs = append(msgs, m)
	}
	if err := first.Error(); err != nil && !errors.Is(err, nats.ErrTimeout) && len(msgs) == 0 {
		return nil, err
	}
	if len(msgs) == 0 || w.cfg.MaxBatch == 1 || ctx.Err() != nil {
		return msgs, nil
	}
	more, err := w.st.cons.FetchNoWait(w.cfg.MaxBatch - 1)
	if err != nil {
		return msgs, nil
	}
	for m := range more.Messages() {
		msgs = append(msgs, m)
	}
	return msgs, nil
}
