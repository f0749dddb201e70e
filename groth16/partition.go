package groth16

import (
	"context"
	cryptorand "crypto/rand"
	"errors"
	"fmt"
	"hash"
	"io"
	"math/big"
	"slices"
	"strings"
	"sync"
	"time"

	curve "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	gnarkbackend "github.com/consensys/gnark/backend"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16/bls12-381"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"
	cs "github.com/consensys/gnark/constraint/bls12-381"
	"github.com/consensys/gnark/constraint/solver"

	"github.com/g16prover/g16/backend"
)

// PhaseTimes is how long each phase of one proof took. The MSMs run
// concurrently, so their times overlap.
type PhaseTimes struct {
	Solve    time.Duration // solving the R1CS and filtering the wires, Commit excluded
	Commit   time.Duration // the BSB22 commitments' MSMs (on the device), within the solve
	Upload   time.Duration // moving a, b, c and the wire values to the device
	H        time.Duration // seven NTTs and the quotient step
	MSMA     time.Duration // Σ wᵢ[Aᵢ]₁
	MSMB1    time.Duration // Σ wᵢ[Bᵢ]₁
	MSMB2    time.Duration // Σ wᵢ[Bᵢ]₂
	MSMK     time.Duration // Σ wᵢ[Kᵢ]₁
	MSMZ     time.Duration // Σ hᵢ[Zᵢ]₁
	MSM      time.Duration // all MSMs, start of the first to end of the last
	Assemble time.Duration // Ar, Bs, Krs from the MSM results
	Verify   time.Duration // gnark's verifier on the proof (WithVerify)

	// SolverFallback is empty when g16's witness solver solved the
	// circuit, and otherwise says why gnark's solver did.
	SolverFallback string

	// Plan is how the device held the key and ran the MSMs: "key
	// resident", "key resident, MSMs one at a time", or "key streamed,
	// chunks of N points" when the key did not fit beside the partition.
	Plan string

	// Spans is when each upload, H and each MSM of the device phase ran,
	// from the phase's start, when the MSMs ran side by side on a
	// resident key (FormatSpans writes them).
	Spans []Span
}

// prover is what every partition of one (circuit, key) pair shares.
type prover struct {
	r1cs *cs.R1CS
	pk   *gnarkgroth16.ProvingKey

	n        int // domain size
	logN     int
	shift    fr.Element // coset shift g
	zInv     fr.Element // (gⁿ − 1)⁻¹
	nbPublic int        // public wires, ONE included

	commitmentInfo constraint.Groth16Commitments
	kRemove        []bool // private wires (from nbPublic) left out of the K MSM

	solverOpts []solver.Option
	hashFn     func() hash.Hash // nil: a fresh default hash per proof
	userHash   hash.Hash        // the caller's hash, shared; guarded by hashMu
	hashMu     sync.Mutex

	witnessSolver *witnessSolver
	kIdx          kIndexes // K's wire indices, for a device that gathers them (gather.go)
}

// newProver checks that the inputs fit together and precomputes what every
// proof of the batch shares.
func newProver(r1cs *cs.R1CS, pk *gnarkgroth16.ProvingKey, proverOpts []gnarkbackend.ProverOption, cached bool) (*prover, error) {
	if err := checkKey(r1cs, pk); err != nil {
		return nil, err
	}
	gcfg, err := gnarkbackend.NewProverConfig(proverOpts...)
	if err != nil {
		return nil, fmt.Errorf("groth16: prover options: %w", err)
	}
	p := &prover{
		r1cs:           r1cs,
		pk:             pk,
		n:              int(pk.Domain.Cardinality),
		nbPublic:       r1cs.GetNbPublicVariables(),
		commitmentInfo: r1cs.CommitmentInfo.(constraint.Groth16Commitments),
		solverOpts:     gcfg.SolverOpts,
		userHash:       gcfg.HashToFieldFn,
	}
	if cached {
		p.witnessSolver, err = preparedSolver(r1cs)
	} else {
		p.witnessSolver, err = newWitnessSolver(r1cs)
	}
	if err != nil {
		return nil, err
	}
	for 1<<p.logN < p.n {
		p.logN++
	}
	p.shift = pk.Domain.FrMultiplicativeGen
	if p.shift.IsZero() {
		// a key whose domain was not fully deserialised: gnark's default.
		p.shift.SetUint64(7)
	}
	var one fr.Element
	one.SetOne()
	p.zInv.Exp(p.shift, big.NewInt(int64(p.n)))
	p.zInv.Sub(&p.zInv, &one)
	if p.zInv.IsZero() {
		return nil, fmt.Errorf("groth16: coset shift %s has order dividing the domain size %d", p.shift.String(), p.n)
	}
	p.zInv.Inverse(&p.zInv)

	nbWires := r1cs.NbInternalVariables + r1cs.GetNbPublicVariables() + r1cs.GetNbSecretVariables()
	p.kRemove = make([]bool, nbWires-p.nbPublic)
	removed := 0
	mark := func(idx int) {
		if idx >= p.nbPublic && idx < nbWires && !p.kRemove[idx-p.nbPublic] {
			p.kRemove[idx-p.nbPublic] = true
			removed++
		}
	}
	for _, group := range p.commitmentInfo.GetPrivateCommitted() {
		for _, idx := range group {
			mark(idx)
		}
	}
	for _, idx := range p.commitmentInfo.CommitmentIndexes() {
		mark(idx)
	}
	if len(p.commitmentInfo) > 0 {
		if err := checkRandomizeHint(); err != nil {
			return nil, err
		}
	}
	if got := len(p.kRemove) - removed; got != len(pk.G1.K) {
		return nil, fmt.Errorf("groth16: proving key has %d K points, the circuit needs %d: key made for another circuit", len(pk.G1.K), got)
	}
	return p, nil
}

// partition is one proof in flight: its witness, its randomness, and what
// each stage leaves for the next.
type partition struct {
	p       *prover
	index   int
	witness witness.Witness
	rand    io.Reader

	// commitKeys are the devices' commitment bases the solve may use, in
	// order of preference; needed when the circuit has commitments.
	commitKeys []*commitKey

	// set by solve
	proof      *gnarkgroth16.Proof
	a, b, c    []fr.Element // constraint evaluations, padded to n
	w          []fr.Element // all the wire values
	wA, wB, wK []fr.Element // wire values filtered for the A, B and K MSMs (K: once kWires has)
	sharedAB   bool         // wB is wA (no infinity in either): one device buffer serves both
	r, s       fr.Element

	// gather is the device that builds K's wire values from W (gather.go),
	// as bufferSizes found it; nil when the host filters them.
	gather backend.Gatherer

	// set by compute
	msmA, msmB1, msmK, msmZ curve.G1Jac
	msmB2                   curve.G2Jac

	times PhaseTimes
	tl    *timeline // the device phase's spans, while compute runs them side by side
}

func (p *prover) newPartition(index int, w witness.Witness, rand io.Reader) *partition {
	return &partition{p: p, index: index, witness: w, rand: rand}
}

// solve runs on the host: it solves the circuit (computing BSB22
// commitments from within the solver, as gnark does, their MSMs on a
// device: commit.go), folds the commitments' proofs of knowledge, draws r
// and s, and filters the wire values for each MSM.
func (t *partition) solve(ctx context.Context) error {
	start := time.Now()
	p := t.p
	if err := checkWitness(p.r1cs, t.witness); err != nil {
		return err
	}
	ci := p.commitmentInfo
	t.proof = &gnarkgroth16.Proof{Commitments: make([]curve.G1Affine, len(ci))}
	com, release, err := t.newCommitter(t.commitKeys)
	if err != nil {
		return err
	}
	defer release()
	opts := append(p.solverOpts[:len(p.solverOpts):len(p.solverOpts)], com.hintOption())

	if len(ci) > 0 {
		// gnark masks each commitment with a value its solver draws from
		// crypto/rand.Reader; draw it from ours, in the same order.
		opts = append(opts, solver.OverrideHint(randomizeHintID, func(mod *big.Int, in, out []*big.Int) error {
			if len(in) != 0 {
				return fmt.Errorf("groth16: commitment mask hint takes no input, got %d", len(in))
			}
			for i := range out {
				v, err := cryptorand.Int(t.rand, mod)
				if err != nil {
					return fmt.Errorf("groth16: reading randomness for a commitment mask: %w", err)
				}
				out[i].Set(v)
			}
			return nil
		}))
	}

	solution, err := t.solveWitness(ctx, opts)
	if err != nil {
		return fmt.Errorf("groth16: solving the circuit: %w", err)
	}
	w := []fr.Element(solution.W)

	if err := com.fold(w); err != nil {
		return err
	}

	// r then s, read after solving, as gnark reads them.
	if t.r, err = randomElement(t.rand); err != nil {
		return err
	}
	if t.s, err = randomElement(t.rand); err != nil {
		return err
	}

	t.a = padded(solution.A, p.n)
	t.b = padded(solution.B, p.n)
	t.c = padded(solution.C, p.n)

	t.w = w
	t.wA = filterOut(w, p.pk.InfinityA, len(w)-int(p.pk.NbInfinityA))
	t.wB = filterOut(w, p.pk.InfinityB, len(w)-int(p.pk.NbInfinityB))
	t.sharedAB = len(t.wA) > 0 && len(t.wA) == len(t.wB) && &t.wA[0] == &t.wB[0]
	t.times.Commit = com.elapsed()
	t.times.Solve = time.Since(start) - t.times.Commit
	return nil
}

// kWires returns the K MSM's wire values: the private wires but the
// committed ones, filtered from w on the first call. A streamed key reads
// them chunk by chunk instead (filteredChunks), and the host holds no copy.
func (t *partition) kWires() []fr.Element {
	if t.wK == nil {
		t.wK = filterOut(t.w[t.p.nbPublic:], t.p.kRemove, len(t.p.pk.G1.K))
	}
	return t.wK
}

// padded extends v with zeros to length n, reusing its capacity.
func padded(v []fr.Element, n int) []fr.Element {
	if cap(v) < n {
		out := make([]fr.Element, n)
		copy(out, v)
		return out
	}
	old := len(v)
	v = v[:n]
	clear(v[old:])
	return v
}

// filterOut returns the values v[i] whose skip[i] is false, in order;
// want is their expected count. checkKey has made len(skip) == len(v).
// When none is skipped it returns v itself, not a copy (4 GiB a vector at
// 2^27): the MSMs only read it. Ranges of v are counted, then copied, on
// all cores.
func filterOut(v []fr.Element, skip []bool, want int) []fr.Element {
	if want == len(v) {
		return v
	}
	rs := ranges(len(v))
	offs := make([]int, len(rs)+1)
	forRanges(rs, func(t, lo, hi int) {
		kept := 0
		for _, s := range skip[lo:hi] {
			if !s {
				kept++
			}
		}
		offs[t+1] = kept
	})
	for t := range rs {
		offs[t+1] += offs[t]
	}
	out := make([]fr.Element, offs[len(rs)])
	forRanges(rs, func(t, lo, hi int) {
		o := out[offs[t]:offs[t+1]]
		j := 0
		for i := lo; i < hi; i++ {
			if !skip[i] {
				o[j] = v[i]
				j++
			}
		}
	})
	return out
}

// Device buffers of one partition, in the order bufferSizes lists them.
const (
	bufA = iota // a, then h
	bufB
	bufC
	bufWA
	bufWB
	bufWK
	bufIdx // K's wire indices, when the device gathers them
	nbBuffers
)

// bufferSizes is the byte size of each per-partition device buffer for
// key (nil: a resident key on a device that does not gather). With a
// streamed key the wire values stream from the host with the bases, and
// their buffers hold one element. It records whether the device gathers
// K's wire values (t.gather), which upload then does.
func (t *partition) bufferSizes(key *deviceKey) []int64 {
	n := int64(t.p.n)
	s := scalarBytes
	streamed := key != nil && key.plan.chunk > 0
	t.gather = nil
	if key != nil && !streamed && key.dev != nil && gathersK(key.dev, t.p.pk) {
		t.gather = key.dev.(backend.Gatherer)
	}
	wires := func(count int) int64 {
		if streamed {
			return s
		}
		return max(1, int64(count)) * s
	}
	sizes := []int64{
		bufA:   n * s,
		bufB:   n * s,
		bufC:   n * s,
		bufWA:  wires(len(t.wA)),
		bufWB:  wires(len(t.wB)),
		bufWK:  wires(len(t.p.pk.G1.K)),
		bufIdx: backend.IndexBytes,
	}
	if t.sharedAB {
		// The B MSMs read bufWA (wiresB).
		sizes[bufWB] = s
	}
	if t.gather != nil {
		sizes[bufIdx] = int64(len(t.p.pk.G1.K)) * backend.IndexBytes
	}
	return sizes
}

// wiresB is the device buffer the B MSMs read: bufWB, or bufWA when the
// two wire vectors are one.
func (t *partition) wiresB(bufs []backend.Buffer) backend.Buffer {
	if t.sharedAB {
		return bufs[bufWA]
	}
	return bufs[bufWB]
}

// Buffer groups: the wire values the A, B and K MSMs read, and the
// constraint evaluations H transforms.
var (
	wireBuffers = []int{bufWA, bufWB, bufWK}
	evalBuffers = []int{bufA, bufB, bufC}
	allBuffers  = append(append([]int{}, wireBuffers...), evalBuffers...)
)

// upload copies the host vectors of the buffers listed in which (all of
// them for staging) into bufs, laid out as bufferSizes says, and waits.
func (t *partition) upload(dev backend.Backend, q backend.Queue, bufs []backend.Buffer, which []int) error {
	if len(bufs) != nbBuffers {
		return fmt.Errorf("groth16: internal error: %d device buffers, want %d", len(bufs), nbBuffers)
	}
	start := time.Now()
	host := [nbBuffers][]fr.Element{bufA: t.a, bufB: t.b, bufC: t.c, bufWA: t.wA, bufWB: t.wB}
	for _, i := range which {
		if i == bufWB && t.sharedAB {
			continue // the B MSMs read bufWA
		}
		if i == bufWK && t.gather != nil {
			// From W in bufWA, which goes up before bufWK.
			if err := t.gatherK(t.gather, dev, q, bufs); err != nil {
				return fmt.Errorf("groth16: partition %d: K's wire values: %w", t.index, err)
			}
			continue
		}
		if i == bufWK {
			host[i] = t.kWires()
		}
		upload := dev.Upload
		if i == bufWA || i == bufWB || i == bufWK {
			// Nothing writes the wire values after solve, and the device
			// only reads them: a backend on host memory may read them in
			// place (the buffer keeps them reachable after release).
			upload = func(q backend.Queue, dst backend.Buffer, off int64, src []byte) error {
				return backend.UploadReadOnly(dev, q, dst, off, src)
			}
		}
		if err := upload(q, bufs[i], 0, backend.AsBytes(host[i])); err != nil {
			return fmt.Errorf("groth16: partition %d: upload: %w", t.index, err)
		}
	}
	if err := q.Wait(); err != nil {
		return fmt.Errorf("groth16: partition %d: upload: %w", t.index, err)
	}
	t.times.Upload += time.Since(start)
	if t.tl != nil {
		names := make([]string, len(which))
		for k, i := range which {
			names[k] = bufferNames[i]
			if i == bufWK && t.gather != nil {
				names[k] += " (gathered)"
			}
		}
		t.tl.add("upload "+strings.Join(names, ","), start)
	}
	return nil
}

// bufferNames names the device buffers in spans.
var bufferNames = [nbBuffers]string{bufA: "a", bufB: "b", bufC: "c", bufWA: "W_A", bufWB: "W_B", bufWK: "W_K", bufIdx: "K index"}

// release drops the host copies that upload has moved to the device.
func (t *partition) release() {
	t.a, t.b, t.c = nil, nil, nil
	t.w, t.wA, t.wB, t.wK = nil, nil, nil, nil
}

// compute runs the device work: h from a, b and c (seven NTTs and the
// quotient step, h left bit-reversed in bufs[bufA]), then the Z MSM over
// h, and the MSMs over the wire values (A and B in G1, B in G2, K), each on
// its own queue. pending lists buffers still to upload (all of them when
// Prove did not stage them); q uploads them, one at a time.
//
// On a GPU the wire MSMs need nothing from H, so each starts as soon as
// its wire values are on the device (the G2 one, the longest, first),
// while the next vector uploads; a, b and c go up last, and H and then Z
// run on a queue of the highest priority (backend.NewUrgentQueue), so that
// the device schedules them beside the long MSM kernels already queued
// rather than behind them, and Z does not start last. On a host-bound
// backend (the CPU backend) that would only make them compete for the
// cores, so H runs first and the five MSMs after it: side by side, as
// gnark's prover runs them, when the backend says their host scratch
// (gnark-crypto's buckets and scalar digits, the compacted points) fits in
// the host's memory, else one at a time, each on all the backend's cores
// (hostsched.go). When key's plan says the MSMs' scratch does not fit side
// by side, H runs first and the MSMs one at a time; when it streams the
// key, so do they, each through the stream window (computeStreamed).
// compute returns only when every MSM has finished.
func (t *partition) compute(dev backend.Backend, q backend.Queue, key *deviceKey, bufs []backend.Buffer, pending []int) error {
	p := t.p
	if len(bufs) != nbBuffers {
		return fmt.Errorf("groth16: internal error: %d device buffers, want %d", len(bufs), nbBuffers)
	}
	fail := func(stage string, err error) error {
		return fmt.Errorf("groth16: partition %d: %s on %s: %w", t.index, stage, dev, err)
	}
	// left are the buffers not uploaded yet; put uploads those of which
	// that are left, on q.
	left := append([]int(nil), pending...)
	put := func(which []int) error {
		var now []int
		for _, i := range which {
			if j := slices.Index(left, i); j >= 0 {
				now = append(now, i)
				left = slices.Delete(left, j, j+1)
			}
		}
		if len(now) == 0 {
			return nil
		}
		return t.upload(dev, q, bufs, now)
	}
	// launchH queues h's seven NTTs and the quotient step on hq.
	launchH := func(hq backend.Queue) error {
		for _, x := range evalBuffers {
			if err := dev.NTT(hq, bufs[x], backend.NTTSpec{Curve: proverCurve, LogN: p.logN, Inverse: true, Order: backend.DIF}); err != nil {
				return fail("NTT", err)
			}
			if err := dev.NTT(hq, bufs[x], backend.NTTSpec{Curve: proverCurve, LogN: p.logN, Order: backend.DIT, Coset: true, CosetShift: backend.ValueBytes(&p.shift)}); err != nil {
				return fail("NTT", err)
			}
		}
		if err := dev.QuotientStep(hq, proverCurve, bufs[bufA], bufs[bufB], bufs[bufC], p.n, backend.ValueBytes(&p.zInv)); err != nil {
			return fail("quotient step", err)
		}
		if err := dev.NTT(hq, bufs[bufA], backend.NTTSpec{Curve: proverCurve, LogN: p.logN, Inverse: true, Order: backend.DIF, Coset: true, CosetShift: backend.ValueBytes(&p.shift)}); err != nil {
			return fail("NTT", err)
		}
		return nil
	}
	// computeH uploads what is left, then computes h on hq (nil: q).
	computeH := func(hq backend.Queue) error {
		if len(left) > 0 {
			if err := put(slices.Clone(left)); err != nil {
				return err
			}
			// A proof given pending uploads is not retried elsewhere
			// (a batch's is, and passes none): the host's a, b and c,
			// four domain-sized vectors with the wires, are dropped once
			// on the device.
			t.a, t.b, t.c = nil, nil, nil
		}
		if hq == nil {
			hq = q
		} else if err := q.Wait(); err != nil {
			// What q staged must be on the device before hq reads it.
			return fail("H", err)
		}
		start := time.Now()
		if err := launchH(hq); err != nil {
			return err
		}
		if err := hq.Wait(); err != nil {
			return fail("H", err)
		}
		t.times.H = time.Since(start)
		t.tl.add("H", start)
		return nil
	}
	t.times.Plan = key.plan.String()
	serial := key.plan.serial
	if backend.IsHostBound(dev) && !serial && key.plan.chunk == 0 {
		var note string
		serial, note = hostMSMsSerial(dev, key, p.logN)
		if note != "" {
			t.times.Plan += "; " + note
		}
	}
	if key.plan.chunk > 0 {
		return t.computeStreamed(dev, q, key, bufs, func() error { return computeH(nil) })
	}
	msmZ := func(q backend.Queue) error {
		return dev.MSMG1(q, proverCurve, backend.ValueBytes(&t.msmZ), key.g1, key.offZ, bufs[bufA], p.n-1)
	}
	if !serial { // one MSM at a time: no timeline to read
		t.tl = newTimeline()
	}
	defer func() {
		t.times.Spans = t.tl.list()
		t.tl = nil
	}()
	// H first, then the MSMs: on a host-bound backend, and when the MSMs
	// run one at a time (their scratch would not fit side by side).
	hFirst := backend.IsHostBound(dev) || key.plan.serial
	if hFirst {
		if err := computeH(nil); err != nil {
			return err
		}
	}

	// The MSMs side by side (the G2 one, the longest, first), each with
	// the buffer of wire values it reads.
	wiresB := bufWB
	if t.sharedAB {
		wiresB = bufWA
	}
	type msm struct {
		name  string
		took  *time.Duration
		wires int
		run   func(q backend.Queue) error
	}
	msms := []msm{
		{"MSM B2", &t.times.MSMB2, wiresB, func(q backend.Queue) error {
			return dev.MSMG2(q, proverCurve, backend.ValueBytes(&t.msmB2), key.g2, 0, t.wiresB(bufs), key.nbB)
		}},
		{"MSM B1", &t.times.MSMB1, wiresB, func(q backend.Queue) error {
			return dev.MSMG1(q, proverCurve, backend.ValueBytes(&t.msmB1), key.g1, key.offB, t.wiresB(bufs), key.nbB)
		}},
		{"MSM A", &t.times.MSMA, bufWA, func(q backend.Queue) error {
			return dev.MSMG1(q, proverCurve, backend.ValueBytes(&t.msmA), key.g1, key.offA, bufs[bufWA], key.nbA)
		}},
		{"MSM K", &t.times.MSMK, bufWK, func(q backend.Queue) error {
			return dev.MSMG1(q, proverCurve, backend.ValueBytes(&t.msmK), key.g1, key.offK, bufs[bufWK], key.nbK)
		}},
	}
	if hFirst {
		msms = append(msms, msm{"MSM Z", &t.times.MSMZ, -1, msmZ})
	}
	var msmStart time.Time
	if serial {
		msmStart = time.Now()
		for _, m := range msms {
			s := time.Now()
			err := m.run(q)
			*m.took = time.Since(s)
			if err != nil {
				return fail(m.name, err)
			}
		}
		t.times.MSM = time.Since(msmStart)
		return nil
	}
	errs := make([]error, len(msms)+1)
	var wg sync.WaitGroup
	var upErr error
	msmStart = time.Now()
	for i := range msms {
		m := &msms[i]
		if upErr = put([]int{m.wires}); upErr != nil {
			// The MSMs started still run; none after them.
			errs[i] = upErr
			break
		}
		if i == 0 {
			msmStart = time.Now()
		}
		qi, err := dev.NewQueue()
		if err != nil {
			errs[i] = fail(m.name, err)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := time.Now()
			err := m.run(qi)
			if cerr := qi.Close(); err == nil {
				err = cerr
			}
			*m.took = time.Since(s)
			t.tl.add(m.name, s)
			if err != nil {
				errs[i] = fail(m.name, err)
			}
		}()
	}

	// On a GPU: h, then the Z MSM, beside the wire MSMs, on an urgent
	// queue of its own (a failed MSM must not leave its error on q, which
	// the caller waits for).
	if !hFirst && upErr == nil {
		errs[len(msms)] = func() error {
			hq, err := backend.NewUrgentQueue(key.queues(dev))
			if err != nil {
				return fail("H", err)
			}
			err = computeH(hq)
			if err == nil {
				msms = append(msms, msm{"MSM Z", &t.times.MSMZ, -1, msmZ})
				s := time.Now()
				err = msmZ(hq)
				t.times.MSMZ = time.Since(s)
				t.tl.add("MSM Z", s)
				if err != nil {
					err = fail("MSM Z", err)
				}
			}
			if cerr := hq.Close(); err == nil && cerr != nil {
				err = fail("H", cerr)
			}
			return err
		}()
	}
	wg.Wait()

	// An MSM whose scratch did not fit beside the others' runs again, alone
	// (one at a time, on a fresh queue): it then has the room the others
	// gave back. Running out of memory side by side is not an error while
	// this smaller plan exists.
	for i := range msms {
		if !errors.Is(errs[i], backend.ErrOutOfMemory) {
			continue
		}
		m := msms[i]
		rq, err := dev.NewQueue()
		if err != nil {
			errs[i] = errors.Join(errs[i], err)
			continue
		}
		s := time.Now()
		err = m.run(rq)
		if cerr := rq.Close(); err == nil {
			err = cerr
		}
		*m.took += time.Since(s)
		t.tl.add(m.name+" (alone, again)", s)
		errs[i] = nil
		if err != nil {
			errs[i] = fail(m.name, err)
		}
	}
	t.times.MSM = time.Since(msmStart)
	return errors.Join(errs...)
}

// assemble computes the proof from the MSM results (host).
//
//	Ar  = Σ + [α]₁ + r[δ]₁
//	Bs₁ = Σ + [β]₁ + s[δ]₁,   Bs = Σ + [β]₂ + s[δ]₂
//	Krs = ΣK + ΣZ + s·Ar + r·Bs₁ − rs[δ]₁
func (t *partition) assemble() (*gnarkgroth16.Proof, error) {
	start := time.Now()
	pk := t.p.pk
	var kr fr.Element
	kr.Mul(&t.r, &t.s).Neg(&kr)
	var r, s big.Int
	t.r.BigInt(&r)
	t.s.BigInt(&s)

	deltas := curve.BatchScalarMultiplicationG1(&pk.G1.Delta, []fr.Element{t.r, t.s, kr})

	ar := t.msmA
	ar.AddMixed(&pk.G1.Alpha)
	ar.AddMixed(&deltas[0])
	t.proof.Ar.FromJacobian(&ar)

	bs1 := t.msmB1
	bs1.AddMixed(&pk.G1.Beta)
	bs1.AddMixed(&deltas[1])

	krs := t.msmK
	krs.AddMixed(&deltas[2])
	krs.AddAssign(&t.msmZ)
	var tmp curve.G1Jac
	tmp.ScalarMultiplication(&ar, &s)
	krs.AddAssign(&tmp)
	tmp.ScalarMultiplication(&bs1, &r)
	krs.AddAssign(&tmp)
	t.proof.Krs.FromJacobian(&krs)

	var bs, deltaS curve.G2Jac
	bs = t.msmB2
	deltaS.FromAffine(&pk.G2.Delta)
	deltaS.ScalarMultiplication(&deltaS, &s)
	bs.AddAssign(&deltaS)
	bs.AddMixed(&pk.G2.Beta)
	t.proof.Bs.FromJacobian(&bs)

	t.times.Assemble = time.Since(start)
	return t.proof, nil
}
