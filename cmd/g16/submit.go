package main

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/g16prover/g16/service/client"
)

// listFlag is a flag that may be given several times.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

func runSubmit(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("submit", stderr)
	server := serverFlag(fs)
	dir := fs.String("dir", "", "register the circuit of "+fileR1CS+", "+filePK+" and "+fileVK+" in this directory (as g16 setup writes them); its "+fileWitness+" is the default witness")
	r1csPath := fs.String("r1cs", "", "register this R1CS (gnark WriteTo) ...")
	pkPath := fs.String("pk", "", "... with this proving key (WriteRawTo or WriteTo) ...")
	vkPath := fs.String("vk", "", "... and optionally this verifying key: workers verify each proof before storing it")
	circuit := fs.String("circuit", "", "the id of a circuit already registered (instead of --dir or --r1cs/--pk)")
	var witnesses listFlag
	fs.Var(&witnesses, "witness", "full witness file (gnark binary); give it several times for several jobs")
	key := fs.String("key", "", "idempotency key: submitting it again returns the same job (with several witnesses, KEY-0, KEY-1, ...)")
	batch := fs.String("batch", "", "label the jobs, to follow them with g16 status --batch")
	seedHex := fs.String("seed", "", "64 hex digits: the jobs' randomness seed, for reproducible proofs (default: the server draws one per job)")
	wait := fs.Bool("wait", false, "wait for the jobs and write each proof beside its witness (as "+fileProof+", or WITNESS.proof for several)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *dir != "" {
		def := func(p *string, name string) {
			if *p == "" {
				*p = filepath.Join(*dir, name)
			}
		}
		if *circuit == "" {
			def(r1csPath, fileR1CS)
			def(pkPath, filePK)
			if _, err := os.Stat(filepath.Join(*dir, fileVK)); err == nil {
				def(vkPath, fileVK)
			}
		}
		if len(witnesses) == 0 {
			witnesses = append(witnesses, filepath.Join(*dir, fileWitness))
		}
	}
	if *circuit == "" && (*r1csPath == "" || *pkPath == "") {
		return errors.New("need --circuit, or --dir, or --r1cs and --pk")
	}
	if len(witnesses) == 0 {
		return errors.New("need --witness (or --dir)")
	}
	var seed []byte
	if *seedHex != "" {
		var err error
		if seed, err = hex.DecodeString(*seedHex); err != nil || len(seed) != 32 {
			return fmt.Errorf("--seed %q: want 64 hex digits", *seedHex)
		}
	}
	ctx := context.Background()
	c := client.New(*server)
	if *circuit == "" {
		circ, err := registerFiles(ctx, c, *r1csPath, *pkPath, *vkPath)
		if err != nil {
			return err
		}
		*circuit = circ.ID
		fmt.Fprintf(stdout, "circuit %s (%s, %d constraints)\n", circ.ID, circ.Curve, circ.Constraints)
	}
	var jobs []client.Job
	for i, wp := range witnesses {
		wb, err := os.ReadFile(wp)
		if err != nil {
			return fmt.Errorf("reading witness: %w", err)
		}
		req := client.SubmitRequest{Circuit: *circuit, Witness: wb, Batch: *batch, Seed: seed, IdempotencyKey: *key}
		if *key != "" && len(witnesses) > 1 {
			req.IdempotencyKey = fmt.Sprintf("%s-%d", *key, i)
		}
		j, err := c.Submit(ctx, req)
		if err != nil {
			return fmt.Errorf("%s: %w", wp, err)
		}
		fmt.Fprintf(stdout, "job %s %s %s\n", j.ID, j.State, wp)
		jobs = append(jobs, j)
	}
	if !*wait {
		return nil
	}
	var failed int
	for i, j := range jobs {
		out := filepath.Join(filepath.Dir(witnesses[i]), fileProof)
		if len(jobs) > 1 {
			out = witnesses[i] + ".proof"
		}
		if err := fetchProof(ctx, c, j.ID, out, true, stdout); err != nil {
			fmt.Fprintf(stderr, "g16 submit: %v\n", err)
			failed++
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d jobs failed", failed, len(jobs))
	}
	return nil
}

// registerFiles uploads and registers a circuit's gnark files.
func registerFiles(ctx context.Context, c *client.Client, r1csPath, pkPath, vkPath string) (client.Circuit, error) {
	var files []*os.File
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	open := func(p string) (io.Reader, error) {
		if p == "" {
			return nil, nil
		}
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
		return f, nil
	}
	r1cs, err := open(r1csPath)
	if err != nil {
		return client.Circuit{}, err
	}
	pk, err := open(pkPath)
	if err != nil {
		return client.Circuit{}, err
	}
	vk, err := open(vkPath)
	if err != nil {
		return client.Circuit{}, err
	}
	return c.RegisterCircuit(ctx, r1cs, pk, vk)
}

// fetchProof writes job id's proof to out, waiting for it if wait is set.
func fetchProof(ctx context.Context, c *client.Client, id, out string, wait bool, stdout io.Writer) error {
	j, err := c.Job(ctx, id)
	if err != nil {
		return err
	}
	if wait && !j.State.Finished() {
		if j, err = c.Wait(ctx, id); err != nil {
			return err
		}
	}
	if j.State == client.Failed {
		return fmt.Errorf("job %s failed: %s", id, j.Error)
	}
	if j.State != client.Done {
		return fmt.Errorf("job %s is %s (use --wait)", id, j.State)
	}
	proof, err := c.Proof(ctx, id)
	if err != nil {
		return err
	}
	if err := writeAtomic(out, func(w io.Writer) error { _, err := w.Write(proof); return err }); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (job %s, by %s)\n", out, id, j.Worker)
	return nil
}

func runFetch(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("fetch", stderr)
	server := serverFlag(fs)
	id := fs.String("job", "", "the job whose proof to fetch (required)")
	out := fs.String("out", fileProof, "proof file to write")
	wait := fs.Bool("wait", false, "wait for the job to finish")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *id == "" {
		return errors.New("need --job")
	}
	return fetchProof(context.Background(), client.New(*server), *id, *out, *wait, stdout)
}

func runStatus(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("status", stderr)
	server := serverFlag(fs)
	var ids listFlag
	fs.Var(&ids, "job", "a job to report (may be given several times)")
	batch := fs.String("batch", "", "report the jobs of this batch label")
	circuit := fs.String("circuit", "", "report the jobs of this circuit")
	watch := fs.Bool("watch", false, "report every second until every job is finished")
	limit := fs.Int("limit", 20, "list at most this many jobs, oldest first (the counts cover every job)")
	all := fs.Bool("all", false, "list every job (no --limit)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *limit < 1 {
		return &failure{code: exitUsage, err: fmt.Errorf("--limit %d: want at least 1 (--all lists every job)", *limit)}
	}
	list := client.ListOptions{Batch: *batch, Circuit: *circuit, Limit: *limit, All: *all}
	ctx := context.Background()
	c := client.New(*server)
	for {
		finished, err := statusOnce(ctx, c, ids, list, stdout)
		if err != nil || !*watch || finished {
			return err
		}
		time.Sleep(time.Second)
	}
}

// statusOnce prints one report and says whether every job is finished.
func statusOnce(ctx context.Context, c *client.Client, ids []string, list client.ListOptions, stdout io.Writer) (bool, error) {
	var jobs []client.Job
	counts := make(map[client.State]int)
	if len(ids) > 0 {
		for _, id := range ids {
			j, err := c.Job(ctx, id)
			if err != nil {
				return false, err
			}
			jobs = append(jobs, j)
			counts[j.State]++
		}
	} else {
		l, err := c.List(ctx, list)
		if err != nil {
			return false, err
		}
		jobs, counts = l.Jobs, l.Counts
	}
	total := 0
	for _, n := range counts {
		total += n
	}
	tw := tabwriter.NewWriter(stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "JOB\tSTATE\tATTEMPTS\tWORKER\tTOOK\tERROR")
	for _, j := range jobs {
		took := ""
		if !j.Finished.IsZero() {
			took = j.Finished.Sub(j.Submitted).Round(time.Millisecond).String()
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", j.ID, j.State, j.Attempts, j.Worker, took, j.Error)
	}
	tw.Flush()
	if len(ids) == 0 && total > len(jobs) {
		fmt.Fprintf(stdout, "(%d of %d jobs listed: --limit N or --all for more)\n", len(jobs), total)
	}
	done, failed := counts[client.Done], counts[client.Failed]
	pct := 0.0
	if total > 0 {
		pct = 100 * float64(done+failed) / float64(total)
	}
	fmt.Fprintf(stdout, "%d/%d finished (%.0f%%): %d done, %d failed, %d running, %d queued\n",
		done+failed, total, pct, done, failed, counts[client.Running], counts[client.Queued])
	return done+failed == total, nil
}
