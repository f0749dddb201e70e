package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/service"
)

// stopContext is the context of a long-running command (serve, worker):
// it ends on SIGINT or SIGTERM.
var stopContext = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// defaultServer is where g16 serve listens and the client commands call.
const defaultServer = "http://127.0.0.1:8416"

// serverFlag adds --server, defaulting to $G16_SERVER or defaultServer.
func serverFlag(fs *flag.FlagSet) *string {
	def := defaultServer
	if s := os.Getenv("G16_SERVER"); s != "" {
		def = s
	}
	return fs.String("server", def, "the g16 serve API to call (or set G16_SERVER)")
}

// logFlags adds --log-level and --log-json and returns a function making
// the logger they describe (-v is --log-level debug).
func logFlags(fs *flag.FlagSet, stderr io.Writer) func() (*slog.Logger, error) {
	level := fs.String("log-level", "info", "log level: debug, info, warn or error")
	asJSON := fs.Bool("log-json", false, "log JSON lines instead of text")
	return func() (*slog.Logger, error) {
		var l slog.Level
		if err := l.UnmarshalText([]byte(*level)); err != nil {
			return nil, fmt.Errorf("--log-level %q: want debug, info, warn or error", *level)
		}
		if v := fs.Lookup("v"); v != nil && v.Value.String() == "true" {
			l = slog.LevelDebug
		}
		opts := &slog.HandlerOptions{Level: l}
		if *asJSON {
			return slog.New(slog.NewJSONHandler(stderr, opts)), nil
		}
		return slog.New(slog.NewTextHandler(stderr, opts)), nil
	}
}

// workerFlags are the flags of the workers g16 serve and g16 worker run.
type workerFlags struct {
	backend  *string
	maxBatch *int
	cacheDir *string
	drain    *time.Duration
	name     *string
}

func addWorkerFlags(fs *flag.FlagSet) *workerFlags {
	return &workerFlags{
		backend:  fs.String("backend", "cpu", "devices to prove on: cpu, or cuda (one worker per visible GPU)"),
		maxBatch: fs.Int("max-batch", 0, "most jobs a worker proves in one batch, and claims ahead while one proves (default 32 per device)"),
		cacheDir: fs.String("cache", "", "local cache of circuits' R1CS and keys, by hash (default: the user cache directory)"),
		drain:    fs.Duration("drain", 0, "on shutdown, how long running jobs may finish before they are given back (default: the ack wait)"),
		name:     fs.String("name", "", "worker name prefix in job records and metrics (default: host name and process id)"),
	}
}

func (f *workerFlags) cache() (string, error) {
	if *f.cacheDir != "" {
		return *f.cacheDir, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory (set --cache): %w", err)
	}
	return filepath.Join(d, "g16", "circuits"), nil
}

// localWorkers is a set of running workers, one per device, each with its
// own NATS connection.
type localWorkers struct {
	devices []backend.Backend
	conns   []*nats.Conn
	done    chan error
	n       int
}

// startWorkers opens the flags' devices and runs one worker on each until
// ctx ends.
func startWorkers(ctx context.Context, url string, f *workerFlags, queue service.QueueConfig, m *service.WorkerMetrics, log *slog.Logger) (*localWorkers, error) {
	devs, err := openBackends(*f.backend, false, 0)
	if err != nil {
		return nil, err
	}
	cache, err := f.cache()
	if err != nil {
		devs[0].close()
		return nil, err
	}
	lw := &localWorkers{devices: devs[0].all, done: make(chan error, len(devs[0].all))}
	prefix := *f.name
	if prefix == "" {
		host, _ := os.Hostname()
		prefix = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	for i, d := range lw.devices {
		nc, err := connectNATS(url, "g16 worker")
		if err != nil {
			lw.wait()
			return nil, err
		}
		lw.conns = append(lw.conns, nc)
		name := fmt.Sprintf("%s-%s", prefix, strings.ReplaceAll(d.String(), " ", "_"))
		if len(lw.devices) > 1 {
			name = fmt.Sprintf("%s-%d", prefix, i)
		}
		w, err := service.NewWorker(ctx, service.WorkerConfig{
			NATS: nc, Devices: []backend.Backend{d}, Name: name, MaxBatch: *f.maxBatch,
			CacheDir: cache, Queue: queue, Drain: *f.drain, Logger: log, Metrics: m,
		})
		if err != nil {
			lw.wait()
			return nil, err
		}
		lw.n++
		go func() { lw.done <- w.Run(ctx) }()
	}
	return lw, nil
}

// wait waits for the workers to stop (their context ended), then closes
// their connections and devices.
func (lw *localWorkers) wait() error {
	var first error
	for range lw.n {
		if err := <-lw.done; err != nil && first == nil {
			first = err
		}
	}
	for _, nc := range lw.conns {
		nc.Close()
	}
	for _, d := range lw.devices {
		d.Close()
	}
	return first
}

func connectNATS(url, name string) (*nats.Conn, error) {
	nc, err := nats.Connect(url, nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectWait(time.Second))
	if err != nil {
		return nil, fmt.Errorf("connecting to NATS at %s: %w", url, err)
	}
	return nc, nil
}

func queueFlags(fs *flag.FlagSet) *service.QueueConfig {
	q := &service.QueueConfig{}
	fs.DurationVar(&q.AckWait, "ack-wait", 30*time.Second, "a job without a worker's ack or progress report for this long is redelivered")
	fs.IntVar(&q.MaxDeliver, "max-deliver", 5, "most deliveries of one job before it fails")
	fs.IntVar(&q.Replicas, "replicas", 1, "replicas of the stream and buckets (3 on a NATS cluster)")
	return q
}
