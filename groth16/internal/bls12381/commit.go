package bls12381

import (
	"errors"
	"fmt"
	"hash"
	"math/big"
	"sync"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	curve "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr/hash_to_field"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16/bls12-381"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/constraint/solver"
	fcs "github.com/consensys/gnark/frontend/cs"

	"github.com/g16prover/g16/backend"
)

// BSB22 commitments (gnark's frontend Commit): for each commitment i the
// solver calls a placeholder hint with the committed values v; the prover
// answers with the Pedersen commitment and its hash, and proves knowledge
// of v afterwards:
//
//	Cᵢ   = Σ vⱼ·Basisⱼ                (pk.CommitmentKeys[i].Commit)
//	πᵢ   = Σ vⱼ·BasisExpSigmaⱼ        (ProveKnowledge)
//	hint = HashToField(Cᵢ ‖ public committed values)
//	π    = Σ πᵢ·ρⁱ, ρ = Hash("G16-BSB22", hints)   (folded proof of knowledge)
//
// Both MSMs of a commitment run on a device (commitKey), while the solver
// waits in the hint: the hash of Cᵢ is a wire the rest of the solve needs.
// When no device has room for their scratch beside the partitions
// computing there (out of memory), the host computes them instead.
//
// Device regions: the solve runs outside the pool's regions, and so do
// these MSMs. They keep its rules: a commitKey allocates its buffers once,
// when it is made (while no Run holds the device, or as part of a
// DeviceKey), and then only uploads to them and runs MSMs on its own queue:
// no Alloc, Free, Sync or TrimPool while partitions run. Its bytes are in
// use before a Run starts, so the Run's default budget leaves them out; a
// mutex serialises the partitions that share it, so its one scalar buffer
// suffices.

// commitKey is the commitment keys' bases on one device: Basis then
// BasisExpSigma of each key, in one G1 buffer, and room for one key's
// committed values.
type commitKey struct {
	dev backend.Backend

	mu      sync.Mutex // held for each use of q and scalars
	q       backend.Queue
	bases   backend.Buffer
	scalars backend.Buffer
	off     []int64 // off[i]: byte offset of key i's Basis; its BasisExpSigma follows
	nb      []int   // nb[i]: len(Basis) of key i
}

// commitKeyBytes is what uploadCommitKey allocates for pk (0: no commitments).
func commitKeyBytes(pk *gnarkgroth16.ProvingKey) int64 {
	if len(pk.CommitmentKeys) == 0 {
		return 0
	}
	var points, most int64
	for _, k := range pk.CommitmentKeys {
		points += int64(len(k.Basis)) + int64(len(k.BasisExpSigma))
		most = max(most, int64(len(k.Basis)))
	}
	return max(points, 1)*g1AffineBytes + max(most, 1)*scalarBytes
}

// uploadCommitKey moves pk's commitment bases to dev. It returns nil when
// pk has no commitment keys.
func uploadCommitKey(dev backend.Backend, pk *gnarkgroth16.ProvingKey) (k *commitKey, err error) {
	if len(pk.CommitmentKeys) == 0 {
		return nil, nil
	}
	k = &commitKey{dev: dev, off: make([]int64, len(pk.CommitmentKeys)), nb: make([]int, len(pk.CommitmentKeys))}
	var points, most int64
	for i, ck := range pk.CommitmentKeys {
		if len(ck.BasisExpSigma) != len(ck.Basis) {
			return nil, fmt.Errorf("groth16: commitment key %d has %d bases and %d σ-bases", i, len(ck.Basis), len(ck.BasisExpSigma))
		}
		k.off[i] = points * g1AffineBytes
		k.nb[i] = len(ck.Basis)
		points += 2 * int64(len(ck.Basis))
		most = max(most, int64(len(ck.Basis)))
	}
	if k.q, err = dev.NewQueue(); err != nil {
		return nil, fmt.Errorf("groth16: commitment key on %s: %w", dev, err)
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, k.close())
		}
	}()
	if k.bases, err = dev.Alloc(k.q, max(points, 1)*g1AffineBytes); err != nil {
		return nil, fmt.Errorf("groth16: commitment key on %s: %w", dev, err)
	}
	if k.scalars, err = dev.Alloc(k.q, max(most, 1)*scalarBytes); err != nil {
		return nil, fmt.Errorf("groth16: commitment key on %s: %w", dev, err)
	}
	for i, ck := range pk.CommitmentKeys {
		sigmaOff := k.off[i] + int64(k.nb[i])*g1AffineBytes
		if err = dev.Upload(k.q, k.bases, k.off[i], backend.AsBytes(ck.Basis)); err == nil {
			err = dev.Upload(k.q, k.bases, sigmaOff, backend.AsBytes(ck.BasisExpSigma))
		}
		if err != nil {
			return nil, fmt.Errorf("groth16: commitment key upload to %s: %w", dev, err)
		}
	}
	if err = k.q.Wait(); err != nil {
		return nil, fmt.Errorf("groth16: commitment key upload to %s: %w", dev, err)
	}
	return k, nil
}

// Bytes is the device memory k holds.
func (k *commitKey) Bytes() int64 {
	if k == nil {
		return 0
	}
	var n int64
	for _, b := range []backend.Buffer{k.bases, k.scalars} {
		if b != nil {
			n += b.Bytes()
		}
	}
	return n
}

// close frees k's device memory and queue; a nil k is a no-op.
func (k *commitKey) close() error {
	if k == nil || k.q == nil {
		return nil
	}
	var errs []error
	for _, b := range []backend.Buffer{k.bases, k.scalars} {
		if b != nil {
			errs = append(errs, k.dev.Free(k.q, b))
		}
	}
	errs = append(errs, k.q.Close())
	k.q, k.bases, k.scalars = nil, nil, nil
	return errors.Join(errs...)
}

// commit computes key i's commitment to values and its proof of knowledge,
// on the device.
func (k *commitKey) commit(i int, values []fr.Element) (com, pok curve.G1Affine, err error) {
	if i < 0 || i >= len(k.nb) {
		return com, pok, fmt.Errorf("groth16: commitment %d: the key has %d commitment keys", i, len(k.nb))
	}
	if len(values) != k.nb[i] {
		return com, pok, fmt.Errorf("groth16: commitment %d: %d committed values for %d bases", i, len(values), k.nb[i])
	}
	if len(values) == 0 {
		return com, pok, nil // the empty sum: the point at infinity
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.q == nil {
		return com, pok, &deviceErr{fmt.Errorf("groth16: commitment key on %s: %w", k.dev, backend.ErrClosed)}
	}
	var c, p curve.G1Jac
	err = k.dev.Upload(k.q, k.scalars, 0, backend.AsBytes(values))
	if err == nil {
		err = k.dev.MSMG1(k.q, proverCurve, backend.ValueBytes(&c), k.bases, k.off[i], k.scalars, len(values))
	}
	if err == nil {
		err = k.dev.MSMG1(k.q, proverCurve, backend.ValueBytes(&p), k.bases, k.off[i]+int64(k.nb[i])*g1AffineBytes, k.scalars, len(values))
	}
	if err != nil {
		// A failed queue may hold its error: the next user gets a fresh one.
		if q, qerr := k.dev.NewQueue(); qerr == nil {
			_ = k.q.Close()
			k.q = q
		}
		return com, pok, &deviceErr{fmt.Errorf("groth16: commitment %d on %s: %w", i, k.dev, err)}
	}
	com.FromJacobian(&c)
	pok.FromJacobian(&p)
	return com, pok, nil
}

// commitKeys returns the commitment keys of devs, in that order, uploading
// the proving key to each device that does not hold it yet (with the
// device itself, outside any scheduler region: the Prover is not proving
// on it), as the plan for budget says (0: the device's default); the
// upload's time goes to times.Upload. A circuit without
// commitments needs none: nil.
func (pr *Prover) commitKeys(devs []*proverDevice, times *PhaseTimes, budget int64) ([]*commitKey, error) {
	if len(pr.p.commitmentInfo) == 0 {
		return nil, nil
	}
	keys := make([]*commitKey, 0, len(devs))
	for _, d := range devs {
		k, err := d.keyForCommit(pr.p, times, budget)
		if err != nil {
			return nil, err
		}
		keys = append(keys, k.commit)
	}
	return keys, nil
}

// keyForCommit returns the key resident on d, loading it first if need be
// as the plan for budget says (its time goes to times.Upload).
func (d *proverDevice) keyForCommit(p *prover, times *PhaseTimes, budget int64) (*deviceKey, error) {
	start := time.Now()
	q, err := d.dev.NewQueue()
	if err != nil {
		return nil, fmt.Errorf("groth16: %w", err)
	}
	k, uploaded, err := d.residentKey(p, d.dev, q, budget)
	if cerr := q.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("groth16: %w", cerr)
	}
	if err != nil {
		return nil, err
	}
	if uploaded {
		times.Upload += time.Since(start)
	}
	return k, nil
}

// committer answers one partition's commitment hints and folds the proofs
// of knowledge once the solve is done.
type committer struct {
	pk    *gnarkgroth16.ProvingKey
	proof *gnarkgroth16.Proof // receives the commitments and the folded proof
	ci    constraint.Groth16Commitments
	keys  []*commitKey // tried in order: the first whose device works

	hashFn hash.Hash
	poks   []curve.G1Affine

	mu   sync.Mutex // the solver may run two hints at once
	took time.Duration
}

// newCommitter prepares the commitments of one proof of p, into proof, on
// keys (tried in order). Its hint option overrides gnark's placeholder.
// release must be called after the solve.
func newCommitter(p *prover, proof *gnarkgroth16.Proof, keys []*commitKey) (c *committer, release func(), err error) {
	c = &committer{pk: p.pk, proof: proof, ci: p.commitmentInfo, poks: make([]curve.G1Affine, len(p.commitmentInfo))}
	release = func() {}
	if len(c.ci) == 0 {
		return c, release, nil
	}
	for _, k := range keys {
		if k != nil {
			c.keys = append(c.keys, k)
		}
	}
	if len(c.keys) == 0 {
		return nil, nil, errors.New("groth16: internal error: a circuit with commitments and no commitment key on a device")
	}
	if p.userHash == nil {
		c.hashFn = hash_to_field.New([]byte(constraint.CommitmentDst))
	} else {
		p.hashMu.Lock() // the caller's hash is shared by every partition
		c.hashFn = p.userHash
		release = p.hashMu.Unlock
	}
	return c, release, nil
}

// hintOption overrides gnark's commitment placeholder hint with c.hint.
func (c *committer) hintOption() solver.Option {
	return solver.OverrideHint(solver.GetHintID(fcs.Bsb22CommitmentComputePlaceholder), c.hint)
}

// hint is called by the solver with the commitment's index, the public
// and commitment values it hashes, then the private values it commits to.
func (c *committer) hint(_ *big.Int, in []*big.Int, out []*big.Int) error {
	if len(in) == 0 || len(out) != 1 {
		return fmt.Errorf("groth16: commitment hint with %d inputs and %d outputs", len(in), len(out))
	}
	i := int(in[0].Int64())
	if !in[0].IsInt64() || i < 0 || i >= len(c.ci) {
		return fmt.Errorf("groth16: commitment index %s out of range", in[0])
	}
	in = in[1:]
	nbHashed := len(c.ci[i].PublicAndCommitmentCommitted)
	if len(in) < nbHashed {
		return fmt.Errorf("groth16: commitment %d: %d hint inputs, need at least %d", i, len(in), nbHashed)
	}
	hashed, committed := in[:nbHashed], in[nbHashed:]
	values := make([]fr.Element, len(committed))
	forRanges(ranges(len(committed)), func(_, lo, hi int) {
		for j := lo; j < hi; j++ {
			values[j].SetBigInt(committed[j])
		}
	})

	start := time.Now()
	var com, pok curve.G1Affine
	var err error
	for _, k := range c.keys {
		if com, pok, err = k.commit(i, values); err == nil {
			break
		}
	}
	if errors.Is(err, backend.ErrOutOfMemory) {
		// No device had room beside the partitions computing there: the
		// host computes it, slower, but no error.
		com, pok, err = c.commitOnHost(i, values)
	}
	took := time.Since(start)
	if err != nil {
		return err
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	c.took += took
	c.proof.Commitments[i] = com
	c.poks[i] = pok
	c.hashFn.Write(constraint.SerializeCommitment(com.Marshal(), hashed, (fr.Bits-1)/8+1))
	digest := c.hashFn.Sum(nil)
	c.hashFn.Reset()
	var res fr.Element
	res.SetBytes(digest[:min(fr.Bytes, c.hashFn.Size())])
	res.BigInt(out[0])
	return nil
}

// commitOnHost computes key i's commitment to values and its proof of
// knowledge with gnark-crypto's MSM on the host's cores: the same points
// as the device's.
func (c *committer) commitOnHost(i int, values []fr.Element) (com, pok curve.G1Affine, err error) {
	ck := &c.pk.CommitmentKeys[i]
	if len(values) != len(ck.Basis) || len(ck.BasisExpSigma) != len(ck.Basis) {
		return com, pok, fmt.Errorf("groth16: commitment %d: %d committed values for %d bases and %d σ-bases", i, len(values), len(ck.Basis), len(ck.BasisExpSigma))
	}
	if len(values) == 0 {
		return com, pok, nil
	}
	if _, err := com.MultiExp(ck.Basis, values, ecc.MultiExpConfig{}); err != nil {
		return com, pok, fmt.Errorf("groth16: commitment %d on the host: %w", i, err)
	}
	if _, err := pok.MultiExp(ck.BasisExpSigma, values, ecc.MultiExpConfig{}); err != nil {
		return com, pok, fmt.Errorf("groth16: commitment %d on the host: %w", i, err)
	}
	return com, pok, nil
}

// fold folds the proofs of knowledge into the proof with a challenge
// derived from the commitments' hashes, read from the solved wires w.
func (c *committer) fold(w []fr.Element) error {
	serialized := make([]byte, fr.Bytes*len(c.ci))
	for i := range c.ci {
		copy(serialized[fr.Bytes*i:], w[c.ci[i].CommitmentIndex].Marshal())
	}
	challenge, err := fr.Hash(serialized, []byte("G16-BSB22"), 1)
	if err != nil {
		return fmt.Errorf("groth16: commitment challenge: %w", err)
	}
	if _, err = c.proof.CommitmentPok.Fold(c.poks, challenge[0], ecc.MultiExpConfig{NbTasks: 1}); err != nil {
		return fmt.Errorf("groth16: folding commitment proofs: %w", err)
	}
	return nil
}

// elapsed is the time the commitments' device work took.
func (c *committer) elapsed() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.took
}
