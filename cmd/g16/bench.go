package main

import (
	"bytes"
	"context"
	cryptorand "crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cuda"
	g16curve "github.com/g16prover/g16/curve"
	"github.com/g16prover/g16/groth16"
	"github.com/g16prover/g16/internal/hostmem"
	"github.com/g16prover/g16/internal/stdcircuits"
	"github.com/g16prover/g16/internal/synth"
)

type benchFlags struct {
	size        sizeFlag
	proofs      int
	partitions  int
	rounds      int    // --rounds: ProveBatch calls on one Prover
	cpuProfile  string // --cpuprofile: a CPU profile of our timed single proofs, or of the last ProveBatch round
	backend     string
	compareCPU  bool
	noGnark     bool
	mix         string // --circuit
	curveName   string // --curve
	curve       ecc.ID // parsed from curveName
	msgBytes    int
	signatures  int
	verified    int // --proofs-verified
	keys        string
	keydir      string
	trace       string
	seed        uint64
	workers     int
	solvers     int // 0: ProveBatch's adaptive default
	warmup      bool
	residentKey bool
	gpus        string
	gpuCounts   []int // parsed from gpus; nil: all
	deviceMem   bytesFlag
	unlimited   bool              // --compare-unlimited: under --device-memory, an unlimited backend beside
	cache       string            // --cache: compiled synthetic circuits and random keys
	cachedR1CS  bool              // the circuit came from the cache
	cpuFrugal   bool              // --cpu-frugal: also the CPU backend's frugal schedule
	msmHostTail bool              // --msm-host-tail: cuda.WithMSMHostTail
	porepTail   float64           // --porep-tail
	b2          string            // --b2
	keyOpts     []synth.KeyOption // how a random key for the circuit is drawn

	b2Place groth16.B2Placement // parsed from b2
}

func runBench(args []string, stdout, stderr io.Writer) error {
	f := benchFlags{size: 1 << 16}
	fs := newFlags("bench", stderr)
	fs.Var(&f.size, "size", "constraints in the synthetic circuit, mix, chain or porep (a number or 2^k); keep it ≤ a power of two. gnark's std circuits are sized by --msg-bytes, --signatures or --proofs-verified")
	fs.IntVar(&f.proofs, "proofs", 3, "proofs to time for each prover (single-proof mode)")
	fs.IntVar(&f.partitions, "partitions", 0, "prove a batch of N partitions with ProveBatch instead of single proofs")
	fs.IntVar(&f.rounds, "rounds", 2, "with --partitions: ProveBatch calls on one long-lived Prover, each timed (the first pays what a fresh Prover's first batch pays)")
	fs.StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile to this file: of our main backend's timed proofs (not gnark's), or with --partitions of its last round")
	fs.IntVar(&f.workers, "workers", 2, "workers per device for --partitions")
	fs.IntVar(&f.solvers, "solvers", 0, "partitions solved at once for --partitions (0: adapted to the measured solve and device times, up to the CPUs)")
	fs.BoolVar(&f.residentKey, "resident-key", true, "keep the proving key on our devices across proofs (uploaded once, timed apart)")
	fs.BoolVar(&f.warmup, "warmup", true, "prove once with each of our backends, untimed, before timing (device start, twiddle tables); gnark's prover is not warmed up")
	fs.StringVar(&f.gpus, "gpus", "all", "with --backend cuda --partitions: how many GPUs a batch uses; a list (1,2) runs the batch once per count")
	fs.StringVar(&f.backend, "backend", "cpu", "our backend: cpu or cuda")
	fs.BoolVar(&f.compareCPU, "compare-cpu", true, "with --backend cuda, also time our CPU backend")
	fs.BoolVar(&f.noGnark, "no-gnark", false, "do not run gnark's prover")
	fs.BoolVar(&f.cpuFrugal, "cpu-frugal", false, "beside our CPU backend, time a second one on its frugal schedule (MSMs one at a time, no NTT tables above 2^18), whatever the host's memory")
	fs.StringVar(&f.mix, "circuit", synth.Mix, circuitHelp)
	fs.StringVar(&f.curveName, "curve", "bls12-381", "curve of the circuit: "+g16curve.SupportedNames()+" (the synthetic circuits and random keys are bls12-381's only)")
	fs.Float64Var(&f.porepTail, "porep-tail", synth.PorepTailDefault, fmt.Sprintf("with --circuit porep: the share of wires whose values are full field elements (%v to %v)", synth.PorepTailMin, synth.PorepTailMax))
	fs.IntVar(&f.msgBytes, "msg-bytes", 400, "with --circuit sha256 or sha3: message bytes hashed")
	fs.IntVar(&f.signatures, "signatures", 1, "with --circuit ecdsa or eddsa: signatures verified")
	fs.IntVar(&f.verified, "proofs-verified", 1, "with --circuit recursion: BLS12-377 proofs the BW6-761 circuit verifies")
	fs.StringVar(&f.keys, "keys", "setup", "setup: gnark's Setup, cached on disk; random: independent random bases (fast; proofs do not verify)")
	fs.StringVar(&f.keydir, "keydir", "", "key cache directory (default $G16_KEYS or the user cache dir)")
	fs.StringVar(&f.trace, "trace", "", "with --partitions, write the scheduler trace as JSON to this file")
	fs.Uint64Var(&f.seed, "seed", 0, "seed for the provers' randomness (default: drawn fresh)")
	fs.StringVar(&f.cache, "cache", "", "directory that keeps the compiled synthetic circuit and the random key, so that a later run on this machine reuses them (default: none)")
	fs.Var(&f.deviceMem, "device-memory", "cap each device's memory (cuda.WithMemoryLimit, cpu.WithCapacity), e.g. 16GiB: a key that does not fit then streams from a host copy")
	fs.BoolVar(&f.unlimited, "compare-unlimited", true, "with --device-memory, also prove with an unlimited backend (GPU 0 for cuda) and compare the bytes")
	fs.StringVar(&f.b2, "b2", "auto", "where our provers run the G2 MSM of B: auto (a cost model chooses for each proof and the plan line says which), device, or host (its cores, beside the device)")
	fs.BoolVar(&f.msmHostTail, "msm-host-tail", true, "with --backend cuda: the last levels of each MSM's bucket reduction on the host (cuda.WithMSMHostTail; =false: all on the device)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if f.proofs < 1 {
		return &failure{code: exitUsage, err: errors.New("--proofs must be at least 1")}
	}
	if f.partitions < 0 {
		return &failure{code: exitUsage, err: errors.New("--partitions must not be negative")}
	}
	if f.rounds < 1 {
		return &failure{code: exitUsage, err: fmt.Errorf("--rounds %d: must be at least 1", f.rounds)}
	}
	if f.keys != "setup" && f.keys != "random" {
		return fmt.Errorf("--keys %q: want setup or random", f.keys)
	}
	if f.seed == 0 {
		f.seed = rand.Uint64()
	}

	gpuCounts, maxGPUs, err := parseGPUCounts(f.gpus)
	if err != nil {
		return err
	}
	f.gpuCounts = gpuCounts
	if f.cpuFrugal && f.backend != "cpu" && !f.compareCPU {
		return &failure{code: exitUsage, err: errors.New("--cpu-frugal needs our CPU backend to time beside (--backend cpu, or --compare-cpu with cuda)")}
	}
	if f.mix != synth.Mix && f.mix != synth.Chain && f.mix != synth.Porep && !stdKinds[f.mix] {
		return &failure{code: exitUsage, err: fmt.Errorf("--circuit %q: want mix, chain, porep, sha256, sha3, ecdsa, eddsa or recursion", f.mix)}
	}
	given := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { given[fl.Name] = true })
	if f.curve, err = g16curve.Parse(f.curveName); err != nil {
		return &failure{code: exitUsage, err: fmt.Errorf("--curve: %w", err)}
	}
	if f.mix == stdcircuits.Recursion && f.curve != ecc.BW6_761 {
		return &failure{code: exitUsage, err: fmt.Errorf("--circuit %s verifies BLS12-377 proofs in a BW6-761 circuit: it needs --curve bw6-761", f.mix)}
	}
	if f.curve != ecc.BLS12_381 {
		switch {
		case !stdKinds[f.mix]:
			return &failure{code: exitUsage, err: fmt.Errorf("--circuit %s is a synthetic circuit, built for bls12-381 only; on %s take sha256, sha3, ecdsa or eddsa", f.mix, f.curveName)}
		case f.keys == "random":
			return &failure{code: exitUsage, err: fmt.Errorf("--keys random draws bls12-381 keys only; on %s use --keys setup", f.curveName)}
		}
	}
	if given["porep-tail"] && f.mix != synth.Porep {
		return &failure{code: exitUsage, err: fmt.Errorf("--porep-tail sets the PoRep-shaped circuit's tail: it needs --circuit %s", synth.Porep)}
	}
	if err := checkSizeFlag(f.mix, given); err != nil {
		return &failure{code: exitUsage, err: err}
	}
	if f.mix == synth.Porep && !(f.porepTail >= synth.PorepTailMin && f.porepTail <= synth.PorepTailMax) {
		return &failure{code: exitUsage, err: fmt.Errorf("--porep-tail %v: want a share from %v to %v", f.porepTail, synth.PorepTailMin, synth.PorepTailMax)}
	}
	switch f.b2 {
	case "auto":
		f.b2Place = groth16.B2Auto
	case "device":
		f.b2Place = groth16.B2Device
	case "host":
		f.b2Place = groth16.B2Host
	default:
		return &failure{code: exitUsage, err: fmt.Errorf("--b2 %q: want auto, device or host", f.b2)}
	}
	if f.backend != "cuda" && given["msm-host-tail"] {
		return &failure{code: exitUsage, err: errors.New("--msm-host-tail tunes the cuda backend: it needs --backend cuda")}
	}
	var tune []cuda.Option
	if given["msm-host-tail"] {
		tune = append(tune, cuda.WithMSMHostTail(f.msmHostTail))
	}
	devs, err := openBackendsLimited(f.backend, f.compareCPU, maxGPUs, int64(f.deviceMem), f.unlimited, tune)
	if err == nil && f.cpuFrugal {
		if devs, err = withFrugalCPU(devs); err != nil {
			for _, d := range devs {
				d.close()
			}
		}
	}
	if err != nil {
		return deviceFailure(err)
	}
	defer func() {
		for _, d := range devs {
			d.close()
		}
	}()

	start := time.Now()
	circuit, err := compileBenchCircuit(&f)
	if err != nil {
		return err
	}
	ccs := circuit.ccs
	compileTime := time.Since(start)
	rssCompile := peakRSS()
	returnFreeMemory()
	n := ccs.GetNbConstraints()

	var pk gnarkgroth16.ProvingKey
	var vk gnarkgroth16.VerifyingKey
	keyNote := ""
	start = time.Now()
	var src *synth.KeySource // the random key's bases, drawn on each device
	if f.keys == "random" {
		// Our backends alone, with a resident key, for single proofs or
		// for a batch when each backend is one device (the batch proves
		// with that device's key, WithDeviceKey): each device's key
		// buffer is filled from the source, block by block, and the host
		// holds no copy of the bases.
		onDevice := f.cache == "" && f.noGnark && f.residentKey && (f.partitions == 0 || oneDeviceEach(devs))
		// The CPU backend's device memory is the host's: a key drawn
		// into it takes the host memory of a host copy.
		onHost := !onDevice
		for _, d := range devs {
			onHost = onHost || backend.IsHostBound(d.dev)
		}
		if err := randomKeyPreflight(ccs, hostmem.Available(), onHost, batchInFlight(f, devs), stdout, f.keyOpts...); err != nil {
			return err
		}
		keyNote = "random bases (proofs cannot verify; backends must still agree byte for byte)"
		if onDevice {
			fmt.Fprintf(stderr, "keys: random bases for %d constraints, drawn on the devices\n", n)
			if src, err = synth.NewKeySource(ccs, f.seed, f.keyOpts...); err != nil {
				return err
			}
			if pk, err = src.Hostless(); err != nil {
				return err
			}
			keyNote = "random key drawn on the device, no host copy (proofs cannot verify; backends must still agree byte for byte)"
		} else if f.cache != "" {
			var cached bool
			if pk, cached, err = cachedRandomKey(f.cache, circuit.name, ccs, f.keyOpts...); err != nil {
				return err
			}
			if cached {
				keyNote += ", cached"
			}
		} else {
			fmt.Fprintf(stderr, "keys: drawing random bases for %d constraints\n", n)
			if pk, err = synth.RandomKey(ccs, f.keyOpts...); err != nil {
				return err
			}
		}
	} else {
		dir, err := keyCacheDir(f.keydir)
		if err != nil {
			return err
		}
		var cached bool
		pk, vk, cached, err = setupKeys(ccs, dir, circuit.name, stderr)
		if err != nil {
			return err
		}
		keyNote = "gnark setup"
		if cached {
			keyNote += " (cached)"
		}
	}
	keyTime := time.Since(start)
	rssKeys := peakRSS()

	fmt.Fprintf(stdout, "g16 bench: %d constraints (%s circuit, domain %s), %d CPUs, seed %d\n",
		n, circuit.name, formatSize(int(ecNextPow2(n))), runtime.NumCPU(), f.seed)
	compileNote := "compile"
	if f.cachedR1CS {
		compileNote = "circuit from the cache"
	}
	fmt.Fprintf(stdout, "%s %s, keys: %s in %s\n", compileNote, compileTime.Round(time.Millisecond), keyNote, keyTime.Round(time.Millisecond))

	if f.partitions > 0 {
		err = benchBatch(f, ccs, circuit.witness, pk, src, vk, devs, stdout, stderr)
	} else {
		err = benchSingle(f, ccs, circuit.witness, pk, src, vk, devs, stdout, stderr)
	}
	reportMemory(stdout, pk, devs, rssCompile, rssKeys)
	return err
}

func ecNextPow2(n int) int {
	p := 1
	for p < n {
		p <<= 1
	}
	return p
}

// seededReader is the randomness of proof i: the same bytes for every
// prover, so that their proofs must be byte-identical.
func seededReader(seed uint64, i int) io.Reader {
	var s [32]byte
	binary.LittleEndian.PutUint64(s[:], seed)
	binary.LittleEndian.PutUint64(s[8:], uint64(i))
	return rand.NewChaCha8(s)
}

// gnarkProve runs gnark's own prover with crypto/rand.Reader replaced by
// rd for the call. Nothing else in this process reads crypto/rand meanwhile.
func gnarkProve(ccs constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey, w witness.Witness, rd io.Reader) (gnarkgroth16.Proof, error) {
	saved := cryptorand.Reader
	cryptorand.Reader = rd
	defer func() { cryptorand.Reader = saved }()
	return gnarkgroth16.Prove(ccs, pk, w)
}

func proofBytes(p gnarkgroth16.Proof) []byte {
	var buf bytes.Buffer
	if _, err := p.WriteTo(&buf); err != nil {
		panic("internal error: serialising a proof: " + err.Error())
	}
	return buf.Bytes()
}

// run is one prover's timings over the benchmark's proofs.
type proverRun struct {
	name   string
	totals []time.Duration
	phases []groth16.PhaseTimes
	proofs [][]byte

	// gnark's solver alone (gnark's run only): its commitment hint
	// stubbed, and with the commitment MSMs (gnarkSolve).
	solveBare, solveCommit []time.Duration
}

func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func benchSingle(f benchFlags, ccs constraint.ConstraintSystem, witnessFor func(int) (witness.Witness, error), pk gnarkgroth16.ProvingKey, src *synth.KeySource, vk gnarkgroth16.VerifyingKey,
	devs []namedBackend, stdout, stderr io.Writer) error {
	w, err := witnessFor(0)
	if err != nil {
		return err
	}
	var pub witness.Witness
	if vk != nil {
		if pub, err = w.Public(); err != nil {
			return err
		}
	}

	runs := []*proverRun{}
	var gnarkRun *proverRun
	if !f.noGnark {
		gnarkRun = &proverRun{name: "gnark"}
		runs = append(runs, gnarkRun)
	}
	ours := make([]*proverRun, len(devs))
	for i, d := range devs {
		ours[i] = &proverRun{name: d.name}
		runs = append(runs, ours[i])
	}

	// With --resident-key our backends keep the key's bases on the device
	// across proofs, uploaded once here (timed apart).
	// With src (a random key without a host copy) each device's key is
	// drawn into its own memory; a device the key does not fit would
	// stream it from a host copy, which is then drawn for every device.
	hostCopy := func() error { return randomKeyPreflight(ccs, hostmem.Available(), true, 1, stdout, f.keyOpts...) }
	keys, pk, err := residentKeys(f.residentKey, devs, pk, src, hostCopy, stdout)
	for _, k := range keys {
		if k != nil {
			defer k.Close()
		}
	}
	if err != nil {
		return err
	}
	// With a resident key each backend proves through one long-lived
	// Prover, as a service would: what it prepares once per circuit (our
	// solver's compiled form, the key's checks) is timed apart, like the
	// key's upload. Without, each proof is a package-level Prove.
	provers := make([]*groth16.Prover, len(devs))
	for i, d := range devs {
		if keys[i] == nil {
			continue
		}
		start := time.Now()
		pr, err := groth16.NewProver(ccs, pk, groth16.WithBackend(d.dev), groth16.WithDeviceKey(keys[i]), groth16.WithB2Placement(f.b2Place))
		if err != nil {
			return fmt.Errorf("%s: %w", d.name, err)
		}
		defer pr.Close()
		provers[i] = pr
		fmt.Fprintf(stdout, "%s: prover ready (our solver compiled, key checked) in %s\n", d.name, fmtDur(time.Since(start)))
	}
	if ok, bytes := releaseLevels(ccs, provers, !f.noGnark); ok {
		fmt.Fprintf(stdout, "R1CS levels released (%s; our solvers have their own order, gnark's does not run)\n", gib(bytes))
	}
	fmt.Fprintf(stdout, "memory: peak RSS with the keys and provers ready %s\n", gib(peakRSS()))
	returnFreeMemory()
	// A host-bound backend's device memory is the Go heap too: no limit
	// from the host vectors alone.
	hostBound := false
	for _, d := range devs {
		hostBound = hostBound || backend.IsHostBound(d.dev)
	}
	if need, ok := streamedProofBytes(ccs, keys); ok && !hostBound {
		if l := limitForProof(need); l > 0 {
			fmt.Fprintf(stdout, "memory: Go soft limit for the proofs %s (the Go heap now, one proof's vectors %s, %s of headroom)\n", gib(l), gib(need), gib(proofHeadroom))
		}
	}
	prove := func(i int, seed io.Reader, extra ...groth16.Option) (gnarkgroth16.Proof, error) {
		opts := append([]groth16.Option{groth16.WithRandomness(seed)}, extra...)
		if provers[i] != nil {
			return provers[i].Prove(context.Background(), w, opts...)
		}
		return groth16.Prove(ccs, pk, w, append(opts, groth16.WithBackend(devs[i].dev), groth16.WithB2Placement(f.b2Place))...)
	}

	// Warm up every prover once (domains, tables, device start), untimed.
	if f.warmup {
		fmt.Fprintf(stderr, "bench: warming up\n")
	}
	for i, d := range devs {
		if !f.warmup {
			break
		}
		if _, err := prove(i, seededReader(f.seed, -1)); err != nil {
			return fmt.Errorf("%s: %w", d.name, err)
		}
	}

	// --cpuprofile: our main backend's timed proofs, each profiled on its
	// own (gnark's proofs run between them) and merged into one profile.
	var prof *proofProfiles
	if f.cpuProfile != "" {
		if prof, err = newProofProfiles(f.cpuProfile); err != nil {
			return err
		}
		defer prof.close()
	}
	for i := 0; i < f.proofs; i++ {
		fmt.Fprintf(stderr, "bench: proof %d/%d\n", i+1, f.proofs)
		// Alternate the order so neither prover always runs on a warm cache.
		order := slices.Clone(runs)
		if i%2 == 1 {
			slices.Reverse(order)
		}
		for _, r := range order {
			var proof gnarkgroth16.Proof
			var times groth16.PhaseTimes
			profiled := prof != nil && r == ours[0]
			if profiled {
				if err := prof.start(); err != nil {
					return err
				}
			}
			start := time.Now()
			if r == gnarkRun {
				proof, err = gnarkProve(ccs, pk, w, seededReader(f.seed, i))
			} else {
				proof, err = prove(slices.Index(ours, r), seededReader(f.seed, i),
					groth16.WithPhaseTimes(func(_ int, t groth16.PhaseTimes) { times = t }))
			}
			took := time.Since(start)
			if profiled {
				prof.stop()
			}
			if err != nil {
				return fmt.Errorf("%s, proof %d: %w", r.name, i, err)
			}
			r.totals = append(r.totals, took)
			r.phases = append(r.phases, times)
			r.proofs = append(r.proofs, proofBytes(proof))
			if r == gnarkRun {
				// gnark's solver alone, in the same run.
				for _, commit := range []bool{false, true} {
					d, err := gnarkSolve(ccs, pk, w, commit)
					if err != nil {
						return err
					}
					if commit {
						r.solveCommit = append(r.solveCommit, d)
					} else {
						r.solveBare = append(r.solveBare, d)
					}
				}
			}
			if vk != nil {
				if err := gnarkgroth16.Verify(proof, vk, pub); err != nil {
					return fmt.Errorf("%s, proof %d: gnark's verifier rejects it: %w", r.name, i, err)
				}
			}
		}
	}

	if prof != nil {
		if err := prof.write(); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "CPU profile of %s's %d timed proofs written to %s\n", ours[0].name, f.proofs, f.cpuProfile)
	}

	// Every prover must have written the same bytes for the same randomness.
	identical := true
	for _, r := range runs[1:] {
		for i := range r.proofs {
			if !bytes.Equal(r.proofs[i], runs[0].proofs[i]) {
				identical = false
				fmt.Fprintf(stdout, "MISMATCH: %s proof %d differs from %s's\n", r.name, i, runs[0].name)
			}
		}
	}

	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	header := []string{"phase (median)"}
	for _, r := range runs {
		header = append(header, r.name)
	}
	fmt.Fprintln(tw, strings.Join(header, "\t")+"\t")
	phase := func(name string, get func(groth16.PhaseTimes) time.Duration) {
		row := []string{name}
		for _, r := range runs {
			if r == gnarkRun {
				row = append(row, "-")
				continue
			}
			d := make([]time.Duration, len(r.phases))
			for i, p := range r.phases {
				d[i] = get(p)
			}
			row = append(row, fmtDur(median(d)))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	// Our solve phase beside gnark's solver alone: solving proper (gnark's
	// commitment hint stubbed), then with the commitments' MSMs.
	solveRow := func(name string, ours func(groth16.PhaseTimes) time.Duration, gnark func(*proverRun) []time.Duration) {
		row := []string{name}
		for _, r := range runs {
			if r == gnarkRun {
				row = append(row, fmtDur(median(gnark(r))))
				continue
			}
			d := make([]time.Duration, len(r.phases))
			for i, p := range r.phases {
				d[i] = ours(p)
			}
			row = append(row, fmtDur(median(d)))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	solveRow("solve (gnark: hint stubbed)", func(p groth16.PhaseTimes) time.Duration { return p.Solve },
		func(r *proverRun) []time.Duration { return r.solveBare })
	phase("commit (BSB22 MSMs)", func(p groth16.PhaseTimes) time.Duration { return p.Commit })
	solveRow("solve + commit (gnark: as in Prove)", func(p groth16.PhaseTimes) time.Duration { return p.Solve + p.Commit },
		func(r *proverRun) []time.Duration { return r.solveCommit })
	upload := "upload (key, inputs)"
	if f.residentKey {
		upload = "upload (inputs)"
	}
	phase(upload, func(p groth16.PhaseTimes) time.Duration { return p.Upload })
	phase("H (7 NTTs)", func(p groth16.PhaseTimes) time.Duration { return p.H })
	phase("MSM A (G1)", func(p groth16.PhaseTimes) time.Duration { return p.MSMA })
	phase("MSM B (G1)", func(p groth16.PhaseTimes) time.Duration { return p.MSMB1 })
	phase("MSM B (G2)", func(p groth16.PhaseTimes) time.Duration { return p.MSMB2 })
	phase("MSM K (G1)", func(p groth16.PhaseTimes) time.Duration { return p.MSMK })
	phase("MSM Z (G1)", func(p groth16.PhaseTimes) time.Duration { return p.MSMZ })
	phase("MSMs (overlapped)", func(p groth16.PhaseTimes) time.Duration { return p.MSM })
	phase("assemble", func(p groth16.PhaseTimes) time.Duration { return p.Assemble })
	row := []string{"total"}
	for _, r := range runs {
		row = append(row, fmtDur(median(r.totals)))
	}
	fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	// Without the solve and the commitments (our solve phase; inside gnark's
	// solve), which are the same work for every prover: for
	// gnark's column, the solve of our first backend is subtracted (gnark
	// does not report its own).
	var solve time.Duration
	if len(ours) > 0 {
		d := make([]time.Duration, len(ours[0].phases))
		for i, p := range ours[0].phases {
			d[i] = p.Solve + p.Commit
		}
		solve = median(d)
	}
	noSolve := func(r *proverRun) time.Duration {
		if r == gnarkRun {
			return median(r.totals) - solve
		}
		d := make([]time.Duration, len(r.totals))
		for i := range r.totals {
			d[i] = r.totals[i] - r.phases[i].Solve - r.phases[i].Commit
		}
		return median(d)
	}
	row = []string{"total − solve"}
	for _, r := range runs {
		v := fmtDur(noSolve(r))
		if r == gnarkRun {
			v = "≈" + v
		}
		row = append(row, v)
	}
	fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	if gnarkRun != nil {
		row = []string{"ours/gnark"}
		g := median(gnarkRun.totals)
		for _, r := range runs {
			row = append(row, fmt.Sprintf("%.3f", float64(median(r.totals))/float64(g)))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
		solveRatio := func(name string, ours func(groth16.PhaseTimes) time.Duration, gnark []time.Duration) {
			row := []string{name}
			g := median(gnark)
			for _, r := range runs {
				if r == gnarkRun || g == 0 {
					row = append(row, "-")
					continue
				}
				d := make([]time.Duration, len(r.phases))
				for i, p := range r.phases {
					d[i] = ours(p)
				}
				row = append(row, fmt.Sprintf("%.3f", float64(median(d))/float64(g)))
			}
			fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
		}
		solveRatio("ours/gnark, solve", func(p groth16.PhaseTimes) time.Duration { return p.Solve }, gnarkRun.solveBare)
		solveRatio("ours/gnark, solve + commit", func(p groth16.PhaseTimes) time.Duration { return p.Solve + p.Commit }, gnarkRun.solveCommit)
		row = []string{"gnark/ours, solve excluded"}
		for _, r := range runs {
			row = append(row, fmt.Sprintf("%.1f×", float64(noSolve(gnarkRun))/float64(noSolve(r))))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	tw.Flush()
	for _, r := range ours {
		if len(r.phases) > 0 && r.phases[0].Plan != "" {
			fmt.Fprintf(stdout, "%s: %s\n", r.name, r.phases[0].Plan)
		}
		printProofPhases(stdout, r.name, r.phases, r.totals)
	}

	for _, r := range ours {
		if len(r.phases) > 0 && r.phases[0].SolverFallback != "" {
			fmt.Fprintf(stdout, "%s: gnark's solver solved the witnesses (%s)\n", r.name, r.phases[0].SolverFallback)
		}
	}
	verdict := "verified by gnark"
	if vk == nil {
		verdict = "not verifiable (random key)"
	}
	fmt.Fprintf(stdout, "%d proofs per prover; byte-identical across provers: %s; %s\n", f.proofs, agreement(identical, len(runs)), verdict)
	// A digest of every proof, to compare runs (with and without
	// --device-memory, say) made with the same --seed.
	all := sha256.New()
	for _, p := range runs[len(runs)-1].proofs {
		all.Write(p)
	}
	fmt.Fprintf(stdout, "proofs sha256 (seed %d): %x\n", f.seed, all.Sum(nil))
	if !identical {
		return deviceFailure(errors.New("provers disagree"))
	}
	return nil
}

func fmtDur(d time.Duration) string {
	switch {
	case d == 0:
		return "0"
	case d < time.Millisecond:
		return fmt.Sprintf("%.0fµs", float64(d)/float64(time.Microsecond))
	case d < time.Second:
		return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.3fs", d.Seconds())
}

// parseGPUCounts reads --gpus: "all", or counts separated by commas. It
// returns the counts (nil for all) and the most GPUs any run needs (0: all).
func parseGPUCounts(v string) ([]int, int, error) {
	if v == "all" || v == "" {
		return nil, 0, nil
	}
	var counts []int
	most := 0
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, 0, fmt.Errorf("--gpus %q: want all or counts such as 1,2", v)
		}
		counts = append(counts, n)
		most = max(most, n)
	}
	return counts, most, nil
}

// agreement says whether the provers wrote the same bytes, or that there
// was only one.
func agreement(identical bool, provers int) string {
	switch {
	case provers < 2:
		return "n/a (one prover ran)"
	case identical:
		return "yes"
	}
	return "NO"
}

// streamedProofBytes is what one proof allocates on the host when a key
// streams from its host copy (ok false when none does, or a key is
// missing): W and a, b, c padded to the domain, and the K MSM's wires
// when some device holds its key resident (their device buffer is filled
// from a filtered copy; a streamed key filters them chunk by chunk).
func streamedProofBytes(ccs constraint.ConstraintSystem, keys []*groth16.DeviceKey) (int64, bool) {
	streamed, resident := false, false
	for _, k := range keys {
		if k == nil {
			return 0, false
		}
		if strings.HasPrefix(k.Plan(), "key streamed") {
			streamed = true
		} else {
			resident = true
		}
	}
	if !streamed {
		return 0, false
	}
	internal, secret, public := ccs.GetNbVariables()
	wires := int64(internal + secret + public)
	if resident {
		wires *= 2
	}
	return (wires + 3*int64(ecNextPow2(ccs.GetNbConstraints()))) * 32, true
}

// solverFormPerConstraint is the host memory g16's solver takes for its
// decoded form of a circuit, per constraint: 71 bytes measured at 2^20 for
// the synthetic circuit (its instructions, levels and costs), rounded up.
const solverFormPerConstraint = 80

// hostBudget is the host memory bench's proof takes beyond the R1CS: the
// random key's bases when the host holds them (0 when they are drawn on
// the device), our solver's form of the circuit (estimated), and one
// proof's vectors: W and the K MSM's wires, a, b and c padded to the
// domain.
func hostBudget(ccs constraint.ConstraintSystem, hostKey bool, opts ...synth.KeyOption) (keyAll, key, solver, vectors int64, err error) {
	if keyAll, err = synth.RandomKeyBytes(ccs, opts...); err != nil {
		return 0, 0, 0, 0, err
	}
	if hostKey {
		key = keyAll
	}
	internal, secret, public := ccs.GetNbVariables()
	n := int64(ecNextPow2(ccs.GetNbConstraints()))
	vectors = (2*int64(internal+secret+public) + 3*n) * 32
	solver = solverFormPerConstraint * int64(ccs.GetNbConstraints())
	return keyAll, key, solver, vectors, nil
}

// randomKeyPreflight prints the host memory a random key for ccs, our
// solver's form and the vectors of inFlight proofs (at least one) take,
// beside what the host has available, and fails before the key is drawn
// when the key, the form and one proof's vectors cannot fit in it. A
// batch needs room for one partition only: ProveBatch holds as many
// partitions' vectors at once as the host has room for (at least one),
// and the line says how many that will be when it is fewer than inFlight.
// avail is the host's available memory (0: unknown, no check).
func randomKeyPreflight(ccs constraint.ConstraintSystem, avail int64, hostKey bool, inFlight int, stdout io.Writer, opts ...synth.KeyOption) error {
	keyAll, key, solver, vectors, err := hostBudget(ccs, hostKey, opts...)
	if err != nil {
		return err
	}
	where := "on the host"
	if !hostKey {
		where = "drawn on the device, none on the host"
	}
	inFlight = max(inFlight, 1)
	proofs := "one proof's"
	if inFlight > 1 {
		proofs = fmt.Sprintf("%d partitions in flight, each", inFlight)
	}
	fmt.Fprintf(stdout, "memory budget: random key %s (%s), our solver's form %s (estimated), %s W, K wires, a, b, c %s, host available now %s\n",
		gib(keyAll), where, gib(solver), proofs, gib(vectors), gib(avail))
	if avail <= 0 {
		return nil
	}
	if key+solver+vectors > avail {
		return fmt.Errorf("a random key of %s, our solver's form of %s and the vectors of one proof, %s, do not fit the %s the host has available",
			gib(key), gib(solver), gib(vectors), gib(avail))
	}
	if fit := (avail - key - solver) / vectors; fit < int64(inFlight) {
		fmt.Fprintf(stdout, "memory budget: room for %d of the %d partitions in flight: the batch holds at most %d at once (slower, not out of memory)\n",
			fit, inFlight, fit)
	}
	return nil
}

// batchInFlight is how many partitions of a batch would hold their host
// vectors at once where the host has room for all: each device worker's (one computing, the others
// staged), as many prepared and waiting for a worker (the pool's ready
// list), and one being solved; at most the batch. For a single proof: 1.
func batchInFlight(f benchFlags, devs []namedBackend) int {
	if f.partitions == 0 {
		return 1
	}
	gpus := 1
	for _, d := range devs {
		gpus = max(gpus, len(d.all))
	}
	return min(f.partitions, 2*gpus*max(f.workers, 1)+1)
}

// sizeFlags names, for each flag that sizes a circuit, the --circuit
// values it sizes.
var sizeFlags = []struct {
	flag     string
	circuits []string
}{
	{"size", []string{synth.Mix, synth.Chain, synth.Porep}},
	{"msg-bytes", []string{"sha256", "sha3"}},
	{"signatures", []string{"ecdsa", "eddsa"}},
	{"proofs-verified", []string{stdcircuits.Recursion}},
}

// checkSizeFlag refuses a size flag given for a circuit it does not size
// (--size with --circuit eddsa, say), which would otherwise be ignored,
// and says which flag sizes that circuit.
func checkSizeFlag(circuit string, given map[string]bool) error {
	for _, s := range sizeFlags {
		if !given[s.flag] || slices.Contains(s.circuits, circuit) {
			continue
		}
		for _, o := range sizeFlags {
			if slices.Contains(o.circuits, circuit) {
				return fmt.Errorf("--%s sizes --circuit %s; --circuit %s is sized by --%s", s.flag, strings.Join(s.circuits, ", "), circuit, o.flag)
			}
		}
		return fmt.Errorf("--%s sizes --circuit %s, not %s", s.flag, strings.Join(s.circuits, ", "), circuit)
	}
	return nil
}
