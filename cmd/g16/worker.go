package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/g16prover/g16/service"
)

func runWorker(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("worker", stderr)
	natsURL := fs.String("nats", "", "the NATS server or cluster of the service (required), e.g. nats://host-a:4222")
	metrics := fs.String("metrics", "", "serve this host's worker metrics on this address's /metrics (e.g. :9416)")
	queue := queueFlags(fs)
	wf := addWorkerFlags(fs)
	newLog := logFlags(fs, stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	if *natsURL == "" {
		return errors.New("need --nats URL (the NATS server g16 serve uses)")
	}
	log, err := newLog()
	if err != nil {
		return err
	}
	ctx, stop := stopContext()
	defer stop()
	reg := prometheus.NewRegistry()
	m, err := service.NewWorkerMetrics(reg)
	if err != nil {
		return err
	}
	workers, err := startWorkers(ctx, *natsURL, wf, *queue, m, log)
	if err != nil {
		return err
	}
	if *metrics != "" {
		ln, err := net.Listen("tcp", *metrics)
		if err != nil {
			stop()
			workers.wait()
			return err
		}
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
		hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go hs.Serve(ln)
		defer hs.Close()
		log.Info("worker metrics", "url", fmt.Sprintf("http://%s/metrics", ln.Addr()))
	}
	fmt.Fprintf(stdout, "g16 worker: %d worker(s) on %s, NATS at %s\n", workers.n, *wf.backend, *natsURL)
	<-ctx.Done()
	log.Info("shutting down: finishing running jobs")
	return workers.wait()
}
