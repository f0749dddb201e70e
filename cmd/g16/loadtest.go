package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"syscall"
	"time"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/g16prover/g16/groth16"
	"github.com/g16prover/g16/internal/synth"
	"github.com/g16prover/g16/service"
	"github.com/g16prover/g16/service/client"
)

// runLoadtest times a batch of jobs through the service (embedded NATS,
// HTTP API, local workers) beside the same witnesses proved by one
// ProveBatch on the same devices, and checks both give the same proofs.
func runLoadtest(args []string, stdout, stderr io.Writer) error {
	size := sizeFlag(1 << 14)
	fs := newFlags("loadtest", stderr)
	fs.Var(&size, "size", "constraints in the synthetic circuit (a number or 2^k)")
	jobs := fs.Int("jobs", 16, "jobs to prove each way, per round")
	rounds := fs.Int("rounds", 3, "rounds, alternating ProveBatch and the service (the machine's noise shows between rounds)")
	mix := fs.String("circuit", synth.Mix, "circuit mix: mix or chain")
	wf := addWorkerFlags(fs)
	keys := fs.String("keys", "random", "random: independent random bases (fast; proofs do not verify); setup: gnark's Setup, cached on disk")
	keydir := fs.String("keydir", "", "key cache directory for --keys setup (default $G16_KEYS or the user cache dir)")
	seed := fs.Uint64("seed", 0, "seed of the witnesses and the jobs' randomness (default: drawn fresh)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the last round's service path to this file")
	newLog := logFlags(fs, stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	if *jobs < 1 || *rounds < 1 {
		return errors.New("--jobs and --rounds must be at least 1")
	}
	if *seed == 0 {
		*seed = rand.Uint64()
	}
	log, err := newLog()
	if err != nil {
		return err
	}
	ccs, shape, err := synth.Compile(*mix, int(size))
	if err != nil {
		return err
	}
	var pk gnarkgroth16.ProvingKey
	switch *keys {
	case "random":
		pk, err = synth.RandomKey(ccs)
	case "setup":
		var dir string
		if dir, err = keyCacheDir(*keydir); err == nil {
			pk, _, _, err = setupKeys(ccs, dir, fmt.Sprintf("%s-%d", *mix, ccs.GetNbConstraints()), stderr)
		}
	default:
		err = fmt.Errorf("--keys %q: want random or setup", *keys)
	}
	if err != nil {
		return err
	}
	ws := make([]witness.Witness, *jobs+1) // the last one warms up
	wbs := make([][]byte, len(ws))
	seeds := make([][]byte, len(ws))
	for i := range ws {
		if ws[i], err = synth.Witness(shape, *seed+uint64(i)); err != nil {
			return err
		}
		if wbs[i], err = ws[i].MarshalBinary(); err != nil {
			return err
		}
		var b [16]byte
		binary.LittleEndian.PutUint64(b[:], *seed)
		binary.LittleEndian.PutUint64(b[8:], uint64(i))
		s := sha256.Sum256(b[:])
		seeds[i] = s[:]
	}
	randFor := func(i int) io.Reader {
		rd, _ := service.JobRandomness(seeds[i])
		return rd
	}
	fmt.Fprintf(stdout, "g16 loadtest: %d constraints (%s circuit), %d jobs, %s backend, %d CPUs, seed %d\n",
		ccs.GetNbConstraints(), *mix, *jobs, *wf.backend, runtime.NumCPU(), *seed)

	// ProveBatch directly, on a Prover that is warm (devices open, key
	// resident) as a worker's is.
	devs, err := openBackends(*wf.backend, false, 0)
	if err != nil {
		return err
	}
	defer devs[0].close()
	pr, err := groth16.NewProver(ccs, pk, groth16.WithBackends(devs[0].all...))
	if err != nil {
		return err
	}
	defer pr.Close()
	ctx := context.Background()
	if _, err := pr.ProveBatch(ctx, ws[*jobs:], groth16.WithBatchRandomness(func(int) io.Reader { return randFor(*jobs) })); err != nil {
		return err
	}
	svc, err := startLoadService(ctx, log, wf, ccs, pk, wbs[*jobs], seeds[*jobs])
	if err != nil {
		return err
	}
	defer svc.close()

	type result struct {
		wall, cpu time.Duration
		lat       []time.Duration
		batches   uint64
	}
	var directRes, svcRes []result
	for round := range *rounds {
		lat := make([]time.Duration, *jobs)
		var mu sync.Mutex
		cpu0 := processCPU()
		start := time.Now()
		proofs, err := pr.ProveBatch(ctx, ws[:*jobs], groth16.WithBatchRandomness(randFor),
			groth16.WithPhaseTimes(func(i int, _ groth16.PhaseTimes) {
				mu.Lock()
				lat[i] = time.Since(start)
				mu.Unlock()
			}))
		if err != nil {
			return err
		}
		directRes = append(directRes, result{time.Since(start), processCPU() - cpu0, lat, 1})
		cpu0 = processCPU()
		b0, _ := batchCount(svc.metrics)
		var stopProfile func() error
		if *cpuProfile != "" && round == *rounds-1 {
			if stopProfile, err = startCPUProfile(*cpuProfile); err != nil {
				return err
			}
		}
		slat, swall, got, err := svc.run(ctx, wbs[:*jobs], seeds[:*jobs], round)
		if stopProfile != nil {
			if perr := stopProfile(); err == nil {
				err = perr
			}
		}
		if err != nil {
			return err
		}
		b1, _ := batchCount(svc.metrics)
		svcRes = append(svcRes, result{swall, processCPU() - cpu0, slat, b1 - b0})
		for i, p := range proofs {
			var b bytes.Buffer
			if _, err := p.WriteTo(&b); err != nil {
				return err
			}
			if !bytes.Equal(got[i], b.Bytes()) {
				return fmt.Errorf("round %d, job %d: the service's proof differs from ProveBatch's with the same seed", round, i)
			}
		}
	}
	fmt.Fprintf(stdout, "every service proof equals ProveBatch's with the job's seed\n\n")
	fmt.Fprintf(stdout, "%-6s %-28s %10s %9s %10s %10s %10s %8s\n", "round", "path", "wall", "jobs/s", "p50", "p99", "CPU/job", "batches")
	row := func(round int, name string, r result) {
		lat := slices.Clone(r.lat)
		slices.Sort(lat)
		p := func(q float64) time.Duration { return lat[min(len(lat)-1, int(q*float64(len(lat))))] }
		fmt.Fprintf(stdout, "%-6d %-28s %10s %9.2f %10s %10s %10s %8d\n", round, name, r.wall.Round(time.Millisecond),
			float64(len(lat))/r.wall.Seconds(), p(0.50).Round(time.Millisecond), p(0.99).Round(time.Millisecond),
			(r.cpu / time.Duration(len(lat))).Round(time.Millisecond), r.batches)
	}
	var dw, sw []time.Duration
	var dc, sc time.Duration
	for i := range directRes {
		row(i, "ProveBatch (direct)", directRes[i])
		row(i, "service (HTTP+NATS+worker)", svcRes[i])
		dw, sw = append(dw, directRes[i].wall), append(sw, svcRes[i].wall)
		dc, sc = dc+directRes[i].cpu, sc+svcRes[i].cpu
	}
	slices.Sort(dw)
	slices.Sort(sw)
	md, ms := dw[len(dw)/2], sw[len(sw)/2]
	fmt.Fprintf(stdout, "\nmedian wall: ProveBatch %s, service %s: service overhead %+.1f%% (%+.1f ms per job)\n",
		md.Round(time.Millisecond), ms.Round(time.Millisecond), 100*(ms.Seconds()/md.Seconds()-1), 1000*(ms-md).Seconds()/float64(*jobs))
	// The process's CPU time does not depend on what else the machine
	// runs: it counts the service's own work (NATS, HTTP, JSON, stores).
	fmt.Fprintf(stdout, "process CPU, all rounds: ProveBatch %s, service %s: service overhead %+.1f%% (%+.1f ms of CPU per job)\n",
		dc.Round(time.Millisecond), sc.Round(time.Millisecond), 100*(sc.Seconds()/dc.Seconds()-1),
		1000*(sc-dc).Seconds()/float64(*jobs**rounds))
	return nil
}

// processCPU is the CPU time (user and system) this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loadService is an embedded service with local workers and a client.
type loadService struct {
	c       *client.Client
	circuit string
	close   func()
	metrics *prometheus.Registry // the workers'
}

// startLoadService starts an embedded service (NATS on a temporary
// directory, the API on a loopback port, workers as g16 serve runs them),
// registers the circuit and warms every worker with one job.
func startLoadService(ctx context.Context, log *slog.Logger, wf *workerFlags, ccs interface {
	WriteTo(io.Writer) (int64, error)
},
	pk gnarkgroth16.ProvingKey, warmWitness, warmSeed []byte) (_ *loadService, err error) {
	var undo []func()
	closeAll := func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
	defer func() {
		if err != nil {
			closeAll()
		}
	}()
	dir, err := os.MkdirTemp("", "g16-loadtest-")
	if err != nil {
		return nil, err
	}
	undo = append(undo, func() { os.RemoveAll(dir) })
	if *wf.cacheDir == "" {
		*wf.cacheDir = filepath.Join(dir, "cache")
	}
	emb, err := service.StartEmbedded(service.EmbeddedConfig{Dir: filepath.Join(dir, "jetstream")})
	if err != nil {
		return nil, err
	}
	undo = append(undo, emb.Shutdown)
	nc, err := connectNATS(emb.URL(), "g16 loadtest")
	if err != nil {
		return nil, err
	}
	undo = append(undo, nc.Close)
	srv, err := service.NewServer(ctx, service.ServerConfig{NATS: nc, UploadDir: filepath.Join(dir, "uploads"), Logger: log})
	if err != nil {
		return nil, err
	}
	undo = append(undo, srv.Close)
	reg := prometheus.NewRegistry()
	wm, err := service.NewWorkerMetrics(reg)
	if err != nil {
		return nil, err
	}
	workCtx, stopWork := context.WithCancel(ctx)
	workers, err := startWorkers(workCtx, emb.URL(), wf, service.QueueConfig{}, wm, log)
	if err != nil {
		stopWork()
		return nil, err
	}
	undo = append(undo, func() { stopWork(); workers.wait() })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	hs := &http.Server{Handler: srv.Handler()}
	go hs.Serve(ln)
	undo = append(undo, func() { hs.Close() })
	c := client.New("http://" + ln.Addr().String())

	var r1cs, pkb bytes.Buffer
	if _, err := ccs.WriteTo(&r1cs); err != nil {
		return nil, err
	}
	if _, err := pk.WriteRawTo(&pkb); err != nil {
		return nil, err
	}
	circ, err := c.RegisterCircuit(ctx, &r1cs, &pkb, nil)
	if err != nil {
		return nil, err
	}
	// Every worker makes its prover and uploads the key.
	for range workers.n {
		j, err := c.Submit(ctx, client.SubmitRequest{Circuit: circ.ID, Witness: warmWitness, Seed: warmSeed})
		if err == nil {
			_, err = c.Wait(ctx, j.ID)
		}
		if err != nil {
			return nil, fmt.Errorf("warm-up job: %w", err)
		}
	}
	return &loadService{c: c, circuit: circ.ID, close: closeAll, metrics: reg}, nil
}

// run submits the witnesses at once (one client goroutine each) and waits
// for their jobs. It returns each job's latency (from its submission to
// its wait returning done), the wall time and the proofs.
func (s *loadService) run(ctx context.Context, wbs, seeds [][]byte, round int) ([]time.Duration, time.Duration, [][]byte, error) {
	jobs := len(wbs)
	lat := make([]time.Duration, jobs)
	ids := make([]string, jobs)
	errs := make([]error, jobs)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			// The batch label keeps rounds apart (same witness and seed).
			j, err := s.c.Submit(ctx, client.SubmitRequest{Circuit: s.circuit, Witness: wbs[i], Seed: seeds[i], Batch: fmt.Sprint(round)})
			if err == nil {
				ids[i] = j.ID
				j, err = s.c.Wait(ctx, j.ID)
			}
			if err == nil && j.State != client.Done {
				err = fmt.Errorf("job %s: %s: %s", j.ID, j.State, j.Error)
			}
			errs[i] = err
			lat[i] = time.Since(t0)
		}()
	}
	wg.Wait()
	wall := time.Since(start)
	if err := errors.Join(errs...); err != nil {
		return nil, 0, nil, err
	}
	proofs := make([][]byte, jobs)
	for i, id := range ids {
		var err error
		if proofs[i], err = s.c.Proof(ctx, id); err != nil {
			return nil, 0, nil, err
		}
	}
	return lat, wall, proofs, nil
}
