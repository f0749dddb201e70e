package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a buffer two goroutines may share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor polls out until re matches, and returns the submatches.
func waitFor(t *testing.T, out *syncBuffer, re *regexp.Regexp) []string {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			return m
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no %q in:\n%s", re, out)
	return nil
}

// TestServiceCommands runs the two-process layout in one process: g16
// serve without workers, g16 worker on its NATS, then submit (register,
// submit, wait), status and fetch, and stops both as a signal would.
func TestServiceCommands(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	saved := stopContext
	stopContext = func() (context.Context, context.CancelFunc) { return context.WithCancel(ctx) }
	defer func() { stopContext = saved }()

	dir := t.TempDir()
	files := filepath.Join(dir, "files")
	if code, out := g16("setup", "--size", "2^8", "--out", files); code != 0 {
		t.Fatalf("setup: exit %d\n%s", code, out)
	}
	var serveOut, workerOut syncBuffer
	serveDone, workerDone := make(chan int, 1), make(chan int, 1)
	go func() {
		serveDone <- run([]string{"serve", "--data", filepath.Join(dir, "data"), "--listen", "127.0.0.1:0",
			"--nats-listen", "127.0.0.1:0", "--no-workers", "--log-level", "warn"}, &serveOut, &serveOut)
	}()
	m := waitFor(t, &serveOut, regexp.MustCompile(`API on (http://[^,\s]+), NATS at (\S+)`))
	api, natsURL := m[1], m[2]
	go func() {
		workerDone <- run([]string{"worker", "--nats", natsURL, "--cache", filepath.Join(dir, "cache"), "--name", "cli",
			"--log-level", "warn"}, &workerOut, &workerOut)
	}()
	waitFor(t, &workerOut, regexp.MustCompile(`1 worker\(s\) on cpu`))

	code, out := g16("submit", "--server", api, "--dir", files, "--key", "first", "--wait")
	if code != 0 || !strings.Contains(out, "wrote "+filepath.Join(files, fileProof)) {
		t.Fatalf("submit --wait: exit %d\n%s", code, out)
	}
	id := regexp.MustCompile(`job (\S+) `).FindStringSubmatch(out)[1]
	if code, out := g16("verify", "--dir", files); code != 0 || !strings.Contains(out, "proof verified") {
		t.Fatalf("verify the service's proof: exit %d\n%s", code, out)
	}
	if code, out := g16("status", "--server", api, "--job", id); code != 0 || !strings.Contains(out, "done") || !strings.Contains(out, "1/1 finished") {
		t.Fatalf("status: exit %d\n%s", code, out)
	}
	fetched := filepath.Join(dir, "fetched")
	if code, out := g16("fetch", "--server", api, "--job", id, "--out", fetched); code != 0 {
		t.Fatalf("fetch: exit %d\n%s", code, out)
	}
	a, _ := os.ReadFile(fetched)
	b, _ := os.ReadFile(filepath.Join(files, fileProof))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Fatal("fetch wrote another proof than submit --wait")
	}
	// A BN254 circuit through the same service: the circuit line names
	// its curve, and gnark's verifier accepts the proof.
	bnFiles := filepath.Join(dir, "bn254")
	if code, out := g16("setup", "--curve", "bn254", "--circuit", "rangecheck", "--size", "24", "--out", bnFiles); code != 0 {
		t.Fatalf("setup --curve bn254: exit %d\n%s", code, out)
	}
	if code, out := g16("submit", "--server", api, "--dir", bnFiles, "--wait"); code != 0 || !strings.Contains(out, "(bn254, ") {
		t.Fatalf("submit --wait of a BN254 circuit: exit %d\n%s", code, out)
	}
	if code, out := g16("verify", "--dir", bnFiles); code != 0 || !strings.Contains(out, "proof verified") {
		t.Fatalf("verify the service's BN254 proof: exit %d\n%s", code, out)
	}
	// The same idempotency key names the same job.
	if code, out := g16("submit", "--server", api, "--dir", files, "--key", "first"); code != 0 || !strings.Contains(out, "job "+id+" done") {
		t.Fatalf("submit with the same key: exit %d\n%s", code, out)
	}
	if code, out := g16("fetch", "--server", api, "--job", "nosuchjob"); code != exitInput || !strings.Contains(out, "no job") {
		t.Fatalf("fetch of an unknown job: exit %d\n%s", code, out)
	}

	// Several witnesses: each job is printed beside its file; status lists
	// --limit of them, or --all.
	wb, err := os.ReadFile(filepath.Join(files, fileWitness))
	if err != nil {
		t.Fatal(err)
	}
	var ws []string
	for _, name := range []string{"w0", "w1", "w2"} {
		ws = append(ws, filepath.Join(dir, name))
		if err := os.WriteFile(ws[len(ws)-1], wb, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out = g16("submit", "--server", api, "--dir", files, "--batch", "three", "--witness", ws[0], "--witness", ws[1], "--witness", ws[2])
	if code != 0 {
		t.Fatalf("submit of three witnesses: exit %d\n%s", code, out)
	}
	var ids []string
	for _, w := range ws {
		m := regexp.MustCompile(`(?m)^job (\S+) \S+ ` + regexp.QuoteMeta(w) + `$`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("submit does not name %s beside its job:\n%s", w, out)
		}
		ids = append(ids, m[1])
	}
	listed := func(out string) (n int) {
		for _, id := range ids {
			if strings.Contains(out, id) {
				n++
			}
		}
		return n
	}
	if code, out := g16("status", "--server", api, "--batch", "three", "--limit", "2"); code != exitOK || listed(out) != 2 ||
		!strings.Contains(out, "(2 of 3 jobs listed") || strings.Contains(out, ids[2]) {
		t.Errorf("status --limit 2 of three jobs: exit %d, want the first two listed:\n%s", code, out)
	}
	if code, out := g16("status", "--server", api, "--batch", "three", "--all"); code != exitOK || listed(out) != 3 || strings.Contains(out, "jobs listed") {
		t.Errorf("status --all of three jobs: exit %d, want all three:\n%s", code, out)
	}
	if code, out := g16("status", "--server", api, "--limit", "0"); code != exitUsage || !strings.Contains(out, "--all") {
		t.Errorf("status --limit 0: exit %d, want %d:\n%s", code, exitUsage, out)
	}

	cancel() // SIGTERM
	for name, done := range map[string]chan int{"serve": serveDone, "worker": workerDone} {
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("%s exited %d", name, code)
			}
		case <-time.After(60 * time.Second):
			t.Fatalf("%s did not stop", name)
		}
	}
}
