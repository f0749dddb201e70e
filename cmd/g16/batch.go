package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"

	"github.com/g16prover/g16/groth16"
	"github.com/g16prover/g16/internal/hostmem"
	"github.com/g16prover/g16/internal/synth"
	"github.com/g16prover/g16/pool"
)

// oneDeviceEach says whether each of devs is one device (no multi-GPU
// backend), so that a key drawn into its memory serves all its proofs.
func oneDeviceEach(devs []namedBackend) bool {
	for _, d := range devs {
		if len(d.all) != 1 {
			return false
		}
	}
	return true
}

// benchBatch proves f.partitions witnesses with ProveBatch on each of our
// backends, and the same witnesses one after another with gnark's prover,
// all with the same randomness per partition, and compares. Each backend
// proves with one long-lived Prover, f.rounds batches in a row: the first
// round pays what a fresh Prover's first batch pays (the key's upload and
// tables where no DeviceKey holds them), the later ones are the steady
// state a service sees.
//
// With src (a random key without a host copy: pk is hostless) each backend,
// one device, gets its key drawn into its memory (residentKeys) and the
// batch proves with it (WithDeviceKey): the host holds no copy of the
// bases, only the solves' vectors.
func benchBatch(f benchFlags, ccs constraint.ConstraintSystem, witnessFor func(int) (witness.Witness, error), pk gnarkgroth16.ProvingKey, src *synth.KeySource,
	vk gnarkgroth16.VerifyingKey, devs []namedBackend, stdout, stderr io.Writer) error {
	keys := make([]*groth16.DeviceKey, len(devs))
	if src != nil {
		hostCopy := func() error {
			return randomKeyPreflight(ccs, hostmem.Available(), true, batchInFlight(f, devs), stdout, f.keyOpts...)
		}
		var err error
		keys, pk, err = residentKeys(true, devs, pk, src, hostCopy, stdout)
		for _, k := range keys {
			if k != nil {
				defer k.Close()
			}
		}
		if err != nil {
			return err
		}
	}
	witnesses := make([]witness.Witness, f.partitions)
	for i := range witnesses {
		var err error
		if witnesses[i], err = witnessFor(i); err != nil {
			return err
		}
	}
	randFor := func(i int) io.Reader { return seededReader(f.seed, i) }

	type result struct {
		name   string
		wall   time.Duration
		proofs [][]byte
		trace  *pool.Trace
	}
	var results []result

	if !f.noGnark {
		fmt.Fprintf(stderr, "bench: gnark, %d proofs one after another\n", f.partitions)
		r := result{name: "gnark (sequential)"}
		start := time.Now()
		for i, w := range witnesses {
			p, err := gnarkProve(ccs, pk, w, randFor(i))
			if err != nil {
				return fmt.Errorf("gnark, partition %d: %w", i, err)
			}
			r.proofs = append(r.proofs, proofBytes(p))
		}
		r.wall = time.Since(start)
		results = append(results, r)
	}
	ourRuns := 0
	for di, d := range devs {
		counts := []int{len(d.all)}
		if len(d.all) > 1 && f.gpuCounts != nil {
			counts = f.gpuCounts
		}
		for _, c := range counts {
			if c > len(d.all) {
				return fmt.Errorf("--gpus %d: only %d GPUs visible", c, len(d.all))
			}
			name := d.name
			if len(d.all) > 1 || c > 1 {
				name = fmt.Sprintf("g16 %d×%s", c, strings.TrimSuffix(strings.TrimPrefix(d.name, "g16 "), ":0"))
			}
			proverOpts := []groth16.Option{groth16.WithBackends(d.all[:c]...), groth16.WithB2Placement(f.b2Place)}
			if k := keys[di]; k != nil {
				proverOpts = append(proverOpts, groth16.WithDeviceKey(k))
			}
			start := time.Now()
			pr, err := groth16.NewProver(ccs, pk, proverOpts...)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			fmt.Fprintf(stdout, "%s: prover ready in %s\n", name, fmtDur(time.Since(start)))
			profiled := ourRuns == 0 // the profile is of our main backend's first prover
			for round := 1; round <= f.rounds; round++ {
				fmt.Fprintf(stderr, "bench: %s, ProveBatch of %d partitions, %d workers per device, round %d of %d\n", name, f.partitions, f.workers, round, f.rounds)
				trace := pool.NewTrace()
				r := result{name: fmt.Sprintf("%s (ProveBatch %d)", name, round), trace: trace}
				var plan0 string // partition 0's plan line
				opts := []groth16.Option{groth16.WithWorkersPerDevice(f.workers),
					groth16.WithBatchRandomness(randFor), groth16.WithTrace(trace),
					groth16.WithPhaseTimes(func(i int, t groth16.PhaseTimes) {
						if i == 0 {
							plan0 = t.Plan
						}
					})}
				if f.solvers > 0 {
					opts = append(opts, groth16.WithSolvers(f.solvers))
				}
				var stopProfile func() error
				if f.cpuProfile != "" && profiled && round == f.rounds {
					if stopProfile, err = startCPUProfile(f.cpuProfile); err != nil {
						pr.Close()
						return err
					}
				}
				start := time.Now()
				proofs, err := pr.ProveBatch(context.Background(), witnesses, opts...)
				r.wall = time.Since(start)
				if stopProfile != nil {
					if perr := stopProfile(); perr != nil && err == nil {
						err = perr
					}
				}
				if err != nil {
					pr.Close()
					return fmt.Errorf("%s, round %d: %w", name, round, err)
				}
				if round == 1 {
					fmt.Fprintf(stdout, "%s: partition 0: %s\n", name, plan0)
				}
				for _, p := range proofs {
					r.proofs = append(r.proofs, proofBytes(p))
				}
				results = append(results, r)
				ourRuns++
			}
			if err := pr.Close(); err != nil {
				return fmt.Errorf("%s: closing the prover: %w", name, err)
			}
		}
	}

	identical := true
	for _, r := range results[1:] {
		for i := range r.proofs {
			if !bytes.Equal(r.proofs[i], results[0].proofs[i]) {
				identical = false
				fmt.Fprintf(stdout, "MISMATCH: %s partition %d differs from %s\n", r.name, i, results[0].name)
			}
		}
	}
	verified := "not verifiable (random key)"
	if vk != nil {
		for i, w := range witnesses {
			pub, err := w.Public()
			if err != nil {
				return err
			}
			proof := gnarkgroth16.NewProof(vk.CurveID())
			if _, err := proof.ReadFrom(bytes.NewReader(results[len(results)-1].proofs[i])); err != nil {
				return err
			}
			if err := gnarkgroth16.Verify(proof, vk, pub); err != nil {
				return fmt.Errorf("partition %d: gnark's verifier rejects the proof: %w", i, err)
			}
		}
		verified = "verified by gnark"
	}

	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "prover\tpartitions\twall\tper proof\tvs gnark\tthroughput vs first g16 run\tmost solves at once\t")
	firstOurs := results[len(results)-ourRuns]
	for _, r := range results {
		ratio := "-"
		if !f.noGnark {
			ratio = fmt.Sprintf("%.3f", float64(r.wall)/float64(results[0].wall))
		}
		speedup := "-"
		if r.trace != nil {
			speedup = fmt.Sprintf("%.2f×", float64(firstOurs.wall)/float64(r.wall))
		}
		solves := "-"
		if r.trace != nil {
			solves = strconv.Itoa(r.trace.MostAtOnce("prepare"))
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t\n", r.name, f.partitions, fmtDur(r.wall), fmtDur(r.wall/time.Duration(f.partitions)), ratio, speedup, solves)
	}
	tw.Flush()
	fmt.Fprintf(stdout, "byte-identical across provers: %s; %s\n", agreement(identical, len(results)), verified)
	// A digest of every proof, to compare runs made with the same --seed
	// (a key drawn on the device against its host copy, say).
	all := sha256.New()
	for _, p := range results[len(results)-1].proofs {
		all.Write(p)
	}
	fmt.Fprintf(stdout, "proofs sha256 (seed %d): %x\n", f.seed, all.Sum(nil))
	for _, r := range results {
		if r.trace == nil {
			continue
		}
		fmt.Fprintf(stdout, "\nscheduler, %s:\n%s\n", r.name, strings.TrimRight(r.trace.Summary().String(), "\n"))
		for _, e := range r.trace.Events() {
			if e.Kind == pool.KindOutcome && e.Name == pool.OutcomePlan {
				fmt.Fprintf(stdout, "device %d: %s (%s reserved in the budget, %s)\n", e.Device, e.Outcome, gib(e.Bytes), e.Err)
			}
		}
	}
	if f.trace != "" {
		last := results[len(results)-1]
		if ourRuns > 0 {
			last = results[len(results)-ourRuns+f.rounds-1] // the last round of our main backend's first prover
		}
		if err := writeAtomic(f.trace, func(w io.Writer) error { return last.trace.WriteJSON(w) }); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "trace of %s written to %s\n", last.name, f.trace)
	}
	if !identical {
		return deviceFailure(errors.New("provers disagree"))
	}
	return nil
}
