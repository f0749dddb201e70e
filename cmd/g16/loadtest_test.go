package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestLoadtestSmall runs g16 loadtest on a small circuit: the service's
// proofs equal ProveBatch's, and each round's row says how many batches
// the service proved, between 1 and the jobs; --cpuprofile writes a
// profile.
func TestLoadtestSmall(t *testing.T) {
	const jobs = 6
	prof := filepath.Join(t.TempDir(), "service.prof")
	code, out := g16("loadtest", "--size", "2^7", "--jobs", strconv.Itoa(jobs), "--rounds", "1", "--log-level", "warn", "--cpuprofile", prof)
	if code != 0 {
		t.Fatalf("loadtest: exit %d\n%s", code, out)
	}
	t.Log(out)
	if !strings.Contains(out, "every service proof equals ProveBatch's with the job's seed") {
		t.Fatalf("no proof check in:\n%s", out)
	}
	m := regexp.MustCompile(`(?m)^0\s+service \(HTTP\+NATS\+worker\).*\s(\d+)$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no service row with a batch count in:\n%s", out)
	}
	if n, _ := strconv.Atoi(m[1]); n < 1 || n > jobs {
		t.Errorf("the service proved %d jobs in %d batches", jobs, n)
	}
	if st, err := os.Stat(prof); err != nil || st.Size() == 0 {
		t.Errorf("--cpuprofile wrote no profile: %v", err)
	}
	if !regexp.MustCompile(`median wall: ProveBatch \S+, service \S+: service overhead`).MatchString(out) {
		t.Errorf("no median line in:\n%s", out)
	}
}
