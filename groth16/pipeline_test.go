package groth16_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/groth16"
	"github.com/g16prover/g16/pool"
)

// TestProveBatchSolvesWhileDeviceProves: a batch of PoRep-shaped
// partitions on one slow device (each NTT and MSM takes simulated time),
// with the key resident and with it streamed through a device smaller
// than the key: the trace shows each partition solved on the host
// (Job.Prepare) before the device finished the partition ahead of it, so
// the device never waits for a solve; every proof is gnark's, and the plan
// event says how the key was held.
func TestProveBatchSolvesWhileDeviceProves(t *testing.T) {
	f, err := porepFixture()
	if err != nil {
		t.Fatal(err)
	}
	slow := func(op cpu.Op, size int64) error {
		switch op {
		case cpu.OpNTT, cpu.OpMSMG1, cpu.OpMSMG2:
			time.Sleep(5 * time.Millisecond)
		}
		return nil
	}
	const n = 4
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	want := make([][]byte, n)
	for i := range want {
		want[i] = gnarkProof(t, f, seed+uint64(i))
	}
	key, _ := memoryOf(t, f)
	for _, c := range []struct {
		name     string
		capacity int64
		plan     string
	}{
		{"resident", 0, "key resident"},
		{"streamed", key * 9 / 10, "key streamed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dev := cpuDevice(t, 0, c.capacity, slow)
			tr := pool.NewTrace()
			proofs, err := proveBatch(t, context.Background(), f, same(f, n), groth16.WithBackend(dev),
				groth16.WithBatchRandomness(seedsFrom(seed)), groth16.WithTrace(tr))
			if err != nil {
				t.Fatalf("ProveBatch: %v", err)
			}
			checkProofs(t, proofs, want, nil)
			var solves, computes []pool.Event
			plan := ""
			for _, e := range tr.Events() {
				switch {
				case e.Kind == pool.KindHost && e.Name == "prepare":
					solves = append(solves, e)
				case e.Kind == pool.KindRegion && e.Name == string(pool.RegionCompute) &&
					(e.Outcome == pool.OutcomeStaged || e.Outcome == pool.OutcomeFallback):
					computes = append(computes, e)
				case e.Kind == pool.KindOutcome && e.Name == pool.OutcomePlan:
					plan = e.Outcome
				}
			}
			if !strings.HasPrefix(plan, c.plan) {
				t.Errorf("plan %q, want %q", plan, c.plan)
			}
			if len(solves) < n || len(computes) < n {
				t.Fatalf("%d solves and %d computes in the trace, want %d of each\n%v", len(solves), len(computes), n, tr.Summary())
			}
			// The device never waits for the host: each compute but the
			// first finds its partition solved before the compute ahead
			// of it ended (solved while the device proved another).
			sort.Slice(computes, func(i, j int) bool { return computes[i].Start < computes[j].Start })
			solvedAt := map[int]int64{}
			for _, e := range solves {
				solvedAt[e.Partition] = max(solvedAt[e.Partition], e.End)
			}
			var lines []string
			for k := 1; k < len(computes); k++ {
				prev, next := computes[k-1], computes[k]
				at, ok := solvedAt[next.Partition]
				lines = append(lines, fmt.Sprintf("partition %d solved at %.1f ms, the device proving %d until %.1f ms",
					next.Partition, ms(at), prev.Partition, ms(prev.End)))
				if !ok || at > prev.End {
					t.Errorf("partition %d solved at %.1f ms, after the device finished partition %d at %.1f ms\n%v",
						next.Partition, ms(at), prev.Partition, ms(prev.End), tr.Summary())
				}
			}
			t.Logf("%s: %s", plan, strings.Join(lines, "; "))
		})
	}
}

func ms(ns int64) float64 { return float64(ns) / 1e6 }
