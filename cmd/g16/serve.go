package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"time"

	"github.com/g16prover/g16/service"
)

func runServe(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("serve", stderr)
	data := fs.String("data", "g16-data", "directory of the embedded NATS server's JetStream storage and of uploads")
	listen := fs.String("listen", "127.0.0.1:8416", "address of the HTTP API and /metrics")
	natsURL := fs.String("nats", "", "use this NATS server or cluster instead of the embedded one")
	natsListen := fs.String("nats-listen", "127.0.0.1:4222", "address the embedded NATS server listens on (0.0.0.0:4222 to take workers of other hosts)")
	noWorkers := fs.Bool("no-workers", false, "run no local workers (only the API; workers run elsewhere)")
	syncAlways := fs.Bool("sync", false, "embedded NATS: sync every JetStream write to disk, so that even a host crash loses nothing (slower)")
	queue := queueFlags(fs)
	wf := addWorkerFlags(fs)
	newLog := logFlags(fs, stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	log, err := newLog()
	if err != nil {
		return err
	}
	ctx, stop := stopContext()
	defer stop()

	url := *natsURL
	if url == "" {
		host, portStr, err := net.SplitHostPort(*natsListen)
		if err != nil {
			return fmt.Errorf("--nats-listen %q: %w", *natsListen, err)
		}
		port, err := strconv.Atoi(portStr)
		if err != nil {
			return fmt.Errorf("--nats-listen %q: bad port", *natsListen)
		}
		emb, err := service.StartEmbedded(service.EmbeddedConfig{Dir: filepath.Join(*data, "jetstream"), Host: host, Port: port, SyncAlways: *syncAlways})
		if err != nil {
			return err
		}
		defer emb.Shutdown()
		url = emb.URL()
		log.Info("embedded NATS started", "url", url, "storage", filepath.Join(*data, "jetstream"))
	}
	nc, err := connectNATS(url, "g16 serve")
	if err != nil {
		return err
	}
	defer nc.Close()
	srv, err := service.NewServer(ctx, service.ServerConfig{NATS: nc, Queue: *queue, UploadDir: filepath.Join(*data, "uploads"), Logger: log})
	if err != nil {
		return err
	}
	defer srv.Close()

	workCtx, stopWork := context.WithCancel(context.Background())
	defer stopWork()
	var workers *localWorkers
	if !*noWorkers {
		m, err := service.NewWorkerMetrics(srv.Registry())
		if err != nil {
			return err
		}
		if workers, err = startWorkers(workCtx, url, wf, *queue, m, log); err != nil {
			return err
		}
	}

	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		stopWork()
		if workers != nil {
			workers.wait()
		}
		return err
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	fmt.Fprintf(stdout, "g16 serve: API on http://%s, NATS at %s\n", ln.Addr(), url)

	select {
	case <-ctx.Done():
		log.Info("shutting down: finishing running jobs")
	case err = <-served:
	}
	// Workers first: they finish or give back their jobs while NATS is up.
	stopWork()
	var werr error
	if workers != nil {
		werr = workers.wait()
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	hs.Shutdown(sctx)
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return errors.Join(err, werr)
}
