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
	// The same idempotency key names the same job.
	if code, out := g16("submit", "--server", api, "--dir", files, "--key", "first"); code != 0 || !strings.Contains(out, "job "+id+" done") {
		t.Fatalf("submit with the same key: exit %d\n%s", code, out)
	}
	if code, out := g16("fetch", "--server", api, "--job", "nosuchjob"); code == 0 || !strings.Contains(out, "no job") {
		t.Fatalf("fetch of an unknown job: exit %d\n%s", code, out)
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
