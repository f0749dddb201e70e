package pool

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
)

// The fake workload: each job holds logN-sized scalars; its device work is
// a forward NTT and the inverse (together the identity) followed by an MSM
// of the scalars against resident G1 bases. Finish checks the MSM against
// the same sum computed on the host, so a scheduler that mixed up buffers
// fails the job.
const fakeLogN = 6

const fakeN = 1 << fakeLogN

var (
	fakeOnce  sync.Once
	fakeBases []bls12381.G1Affine
)

func bases() []bls12381.G1Affine {
	fakeOnce.Do(func() {
		_, _, g, _ := bls12381.Generators()
		s := make([]fr.Element, fakeN)
		for i := range s {
			s[i].SetUint64(uint64(3*i + 1))
		}
		fakeBases = bls12381.BatchScalarMultiplicationG1(&g, s)
	})
	return fakeBases
}

func errJoin(errs ...error) error { return errors.Join(errs...) }

// fakeKey is the fake resident state: the bases on one device.
type fakeKey struct{ buf backend.Buffer }

// The fake's values are BLS12-381's: a scalar and a G1 affine point.
const (
	fakeScalarBytes = 32
	fakePointBytes  = 96
)

var fakeSetBytes = []int64{fakeN * fakeScalarBytes, fakeN * fakeScalarBytes}

func fakeSetSize() int64 { return total(fakeSetBytes) }

const fakeKeyBytes = fakeN * fakePointBytes

// fakeScratch is what a fake job's MSM takes on a CPU backend with the
// default scratch model.
const fakeScratch = fakeN * cpu.DefaultMSMScratch

// loads counts resident loads, frees resident frees.
type fakeResident struct{ loads, frees atomic.Int32 }

func (f *fakeResident) spec() Resident[*fakeKey] {
	return Resident[*fakeKey]{
		Name:  "fake key",
		Bytes: fakeKeyBytes,
		Fit: func(_ int, dev backend.Backend, budget int64) (Resident[*fakeKey], error) {
			r := f.spec()
			r.Fit = nil
			r.Scratch = dev.Scratch(backend.KernelMSMG1, ecc.BLS12_381, fakeN)
			return r, nil
		},
		Load: func(_ int, dev backend.Backend, q backend.Queue) (*fakeKey, error) {
			buf, err := dev.Alloc(q, fakeKeyBytes)
			if err != nil {
				return nil, err
			}
			if err := dev.Upload(q, buf, 0, backend.AsBytes(bases())); err != nil {
				return nil, errJoin(err, dev.Free(q, buf))
			}
			f.loads.Add(1)
			return &fakeKey{buf: buf}, nil
		},
		Free: func(dev backend.Backend, q backend.Queue, k *fakeKey) error {
			f.frees.Add(1)
			return dev.Free(q, k.buf)
		},
	}
}

type fakeJob struct {
	idx     int
	logN    int // 0: fakeLogN; at most fakeLogN
	scalars []fr.Element
	got     bls12381.G1Jac

	prepares, finishes atomic.Int32
	// Optional test hooks.
	prepare   func(j *fakeJob) error
	onUpload  func(j *fakeJob, dev backend.Backend)
	onCompute func(j *fakeJob, dev backend.Backend)
	onFinish  func(j *fakeJob) // when Finish returns
}

func newFakeJobs(n int) []*fakeJob {
	jobs := make([]*fakeJob, n)
	for i := range jobs {
		jobs[i] = &fakeJob{idx: i}
	}
	return jobs
}

func asJobs(jobs []*fakeJob) []Job[*fakeKey] {
	out := make([]Job[*fakeKey], len(jobs))
	for i, j := range jobs {
		out[i] = j
	}
	return out
}

func (j *fakeJob) Prepare(ctx context.Context) error {
	j.prepares.Add(1)
	if j.prepare != nil {
		if err := j.prepare(j); err != nil {
			return err
		}
	}
	j.scalars = make([]fr.Element, j.n())
	for i := range j.scalars {
		j.scalars[i].SetUint64(uint64(1000*j.idx + i + 1))
	}
	return nil
}

func (j *fakeJob) n() int {
	if j.logN == 0 {
		return fakeN
	}
	return 1 << j.logN
}

func (j *fakeJob) Buffers(*fakeKey) []int64 {
	if j.logN == 0 {
		return fakeSetBytes
	}
	size := int64(j.n()) * fakeScalarBytes
	return []int64{size, size}
}

func (j *fakeJob) Upload(dev backend.Backend, q backend.Queue, _ *fakeKey, bufs []backend.Buffer) error {
	if j.onUpload != nil {
		j.onUpload(j, dev)
	}
	return dev.Upload(q, bufs[0], 0, backend.AsBytes(j.scalars))
}

func (j *fakeJob) Compute(dev backend.Backend, q backend.Queue, k *fakeKey, bufs []backend.Buffer) error {
	if j.onCompute != nil {
		j.onCompute(j, dev)
	}
	if k == nil {
		return fmt.Errorf("fake job %d: no resident key", j.idx)
	}
	logN := fakeLogN
	if j.logN != 0 {
		logN = j.logN
	}
	if err := dev.NTT(q, bufs[0], backend.NTTSpec{Curve: ecc.BLS12_381, LogN: logN, Order: backend.DIF}); err != nil {
		return err
	}
	// Scribble on the scratch buffer: a set reused by the next job must
	// not leak into it.
	if err := dev.Upload(q, bufs[1], 0, backend.AsBytes(j.scalars)); err != nil {
		return err
	}
	if err := dev.NTT(q, bufs[0], backend.NTTSpec{Curve: ecc.BLS12_381, LogN: logN, Inverse: true, Order: backend.DIT}); err != nil {
		return err
	}
	return dev.MSMG1(q, ecc.BLS12_381, backend.ValueBytes(&j.got), k.buf, 0, bufs[0], j.n())
}

func (j *fakeJob) Finish(ctx context.Context) error {
	j.finishes.Add(1)
	if j.onFinish != nil {
		defer j.onFinish(j)
	}
	var want bls12381.G1Jac
	if _, err := want.MultiExp(bases()[:j.n()], j.scalars, ecc.MultiExpConfig{}); err != nil {
		return err
	}
	if !want.Equal(&j.got) {
		return fmt.Errorf("fake job %d: wrong MSM result", j.idx)
	}
	return nil
}
