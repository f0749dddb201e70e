//go:build unix

// Reference only: internal/generator does not copy this file.

package bls12381

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/frontend"

	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/internal/stdcircuits"
	"github.com/g16prover/g16/internal/synth"
)

// BenchmarkProveSHA256 times whole proofs of gnark's SHA-256 circuit
// (G16_BENCH_MSG_BYTES bytes, default 32; random key: proofs do not
// verify) by gnark's Prove and by g16 on the CPU backend with its two
// schedules, interleaved. Beside the wall time it reports the process's
// CPU seconds per proof (user + system), which load from other processes
// disturbs less on a shared machine.
func BenchmarkProveSHA256(b *testing.B) {
	msgBytes := 32
	if s := os.Getenv("G16_BENCH_MSG_BYTES"); s != "" {
		var err error
		if msgBytes, err = strconv.Atoi(s); err != nil {
			b.Fatalf("G16_BENCH_MSG_BYTES=%q: %v", s, err)
		}
	}
	c, err := stdcircuits.New("sha256", msgBytes)
	if err != nil {
		b.Fatal(err)
	}
	ccs, err := c.Compile()
	if err != nil {
		b.Fatal(err)
	}
	pk, err := synth.RandomKey(ccs)
	if err != nil {
		b.Fatal(err)
	}
	seed := rand.Uint64()
	b.Logf("%s: %d constraints, seed %d", c.Name, ccs.GetNbConstraints(), seed)
	a, err := c.Assign(rand.New(rand.NewPCG(seed, 1)))
	if err != nil {
		b.Fatal(err)
	}
	w, err := frontend.NewWitness(a, ecc.BLS12_381.ScalarField())
	if err != nil {
		b.Fatal(err)
	}
	provers := map[string]func() error{
		"gnark": func() error { _, err := gnarkgroth16.Prove(ccs, pk, w); return err },
	}
	// g16-cpu chooses its MSM schedule and NTT tables by the host's
	// memory; g16-cpu-frugal is told the host has none to spare (MSMs one
	// at a time, no NTT tables above 2^18).
	for name, host := range map[string]int64{"g16-cpu": 0, "g16-cpu-frugal": 1} {
		pr, err := NewProver(ccs, pk, onDevice(cpu.MustNew(cpu.WithHostMemory(host))))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { pr.Close() })
		logged := false
		logPlan := call(withPhaseTimes(func(_ int, pt PhaseTimes) {
			if !logged {
				logged = true
				b.Logf("%s: %s", name, pt.Plan)
			}
		}))
		provers[name] = func() error { _, err := pr.Prove(context.Background(), w, logPlan); return err }
	}
	for round := range 2 {
		for _, name := range []string{"gnark", "g16-cpu", "g16-cpu-frugal"} {
			b.Run(fmt.Sprintf("%s/round=%d", name, round), func(b *testing.B) {
				prove := provers[name]
				cpu0 := cpuTime()
				for b.Loop() {
					if err := prove(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
			})
		}
	}
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
