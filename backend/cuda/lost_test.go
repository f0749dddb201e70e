//go:build cuda

package cuda

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"sync/atomic"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
	"github.com/g16prover/g16/pool"
)

// checkMSM runs a random MSM of n points on b and compares it with
// gnark-crypto's.
func checkMSM(t *testing.T, b *Backend, n int) {
	t.Helper()
	rng := testRand(t)
	p, s := randG1(rng, n), randScalars(rng, n)
	got := gpuG1(t, b, p, s)
	var want bls12381.G1Jac
	if _, err := want.MultiExp(p, s, ecc.MultiExpConfig{}); err != nil {
		t.Fatal(err)
	}
	if !got.Equal(&want) {
		t.Fatalf("MSM of %d points differs from gnark-crypto's", n)
	}
}

// faultChildEnv names, in a child process of the test binary, the one
// fault test it runs (see isolate).
const faultChildEnv = "G16_FAULT_CHILD"

// isolate runs the calling test again in a child process of this test
// binary and reports whether the caller is the parent, which then checks
// only what a new process can do after the child's fault. A sticky fault
// can leave the CUDA context unusable for the rest of the process, so it
// must not happen in the process that runs the other tests.
func isolate(t *testing.T) (parent bool) {
	t.Helper()
	if os.Getenv(faultChildEnv) == t.Name() {
		return false
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^"+t.Name()+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), faultChildEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	t.Logf("child process:\n%s", out)
	if err != nil {
		t.Fatalf("%s in a child process: %v", t.Name(), err)
	}
	if !bytes.Contains(out, []byte("--- PASS: "+t.Name())) {
		t.Fatalf("%s did not pass in the child process", t.Name())
	}
	return true
}

// reopenAfterLoss opens the GPU again in the process that lost it: either
// the reset brought it back (the backend is returned) or New says, with
// ErrDeviceLost, that only a new process can use it (nil is returned).
func reopenAfterLoss(t *testing.T) *Backend {
	t.Helper()
	b, err := New(0)
	switch {
	case err == nil:
		return b
	case errors.Is(err, backend.ErrDeviceLost):
		t.Logf("New after the loss, in the same process: %v", err)
		return nil
	}
	t.Fatalf("New after the loss: %v, want a backend or ErrDeviceLost", err)
	return nil
}

// TestDeviceLost: a kernel that faults poisons the context; the call that
// sees it, every later call, and every other Backend of the GPU fail with
// ErrDeviceLost; Close does not crash; New afterwards either works or says
// the device is lost; a new process (the parent) proves on the GPU again.
func TestDeviceLost(t *testing.T) {
	if n, err := DeviceCount(); err != nil || n == 0 {
		t.Skipf("no CUDA device (count %d, %v)", n, err)
	}
	if isolate(t) {
		b, err := New(0)
		if err != nil {
			t.Fatalf("New in a new process after the child's fault: %v", err)
		}
		defer b.Close()
		checkMSM(t, b, 1000)
		return
	}
	b, err := New(0)
	if err != nil {
		t.Fatal(err)
	}
	other, err := New(0)
	if err != nil {
		t.Fatal(err)
	}
	checkMSM(t, b, 1000)
	q, err := b.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	err = b.injectFault(q)
	t.Logf("injected fault: %v", err)
	if !errors.Is(err, backend.ErrDeviceLost) {
		t.Fatalf("the faulting call returned %v, want ErrDeviceLost", err)
	}
	var r bls12381.G1Jac
	calls := map[string]func() error{
		"Alloc":        func() error { _, err := b.Alloc(nil, 64); return err },
		"Sync":         b.Sync,
		"Queue.Wait":   q.Wait,
		"MSMG1":        func() error { return b.MSMG1(nil, ecc.BLS12_381, backend.ValueBytes(&r), nil, 0, nil, 0) },
		"other.Alloc":  func() error { _, err := other.Alloc(nil, 64); return err },
		"other.TrimPo": func() error { return other.TrimPool(0) },
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, backend.ErrDeviceLost) {
			t.Errorf("%s after the fault: %v, want ErrDeviceLost", name, err)
		}
	}
	t.Logf("Close of the lost backend: %v", b.Close())
	if reopened := reopenAfterLoss(t); reopened != nil {
		defer reopened.Close()
		checkMSM(t, reopened, 1000)
		if err := other.Close(); err != nil {
			t.Errorf("Close of a backend opened before the reset: %v", err)
		}
	} else {
		t.Logf("Close of a backend of the lost GPU: %v", other.Close())
	}
	if _, err := other.Alloc(nil, 8); !errors.Is(err, backend.ErrClosed) {
		t.Errorf("Alloc after Close: %v", err)
	}
}

// lostJob is a partition of TestDeviceLostBatch: a slow host "solve", an
// MSM of its scalars on the resident bases, and for one job a fault.
type lostJob struct {
	gpu      *Backend // the device to fault: the pool hands Compute its traced view of it
	idx      int
	fault    bool
	solve    time.Duration
	scalars  []fr.Element
	prepared *atomic.Int32
	got      bls12381.G1Jac
}

const lostN = 1 << 12

func (j *lostJob) Prepare(ctx context.Context) error {
	j.prepared.Add(1)
	select {
	case <-time.After(j.solve):
	case <-ctx.Done():
		return ctx.Err()
	}
	j.scalars = make([]fr.Element, lostN)
	for i := range j.scalars {
		j.scalars[i].SetUint64(uint64(j.idx*lostN + i + 1))
	}
	return nil
}

func (j *lostJob) Buffers(backend.Buffer) []int64 {
	return []int64{lostN * curve.Must(ecc.BLS12_381).FrBytes}
}

func (j *lostJob) Upload(dev backend.Backend, q backend.Queue, _ backend.Buffer, bufs []backend.Buffer) error {
	return dev.Upload(q, bufs[0], 0, backend.AsBytes(j.scalars))
}

func (j *lostJob) Compute(dev backend.Backend, q backend.Queue, bases backend.Buffer, bufs []backend.Buffer) error {
	if j.fault {
		return j.gpu.injectFault(q)
	}
	return dev.MSMG1(q, ecc.BLS12_381, backend.ValueBytes(&j.got), bases, 0, bufs[0], lostN)
}

func (j *lostJob) Finish(ctx context.Context) error { return nil }

// TestDeviceLostBatch: on one GPU, a fault in the third partition ends the
// batch promptly: that partition fails with ErrDeviceLost, the rest are
// not solved and are named, the device is quarantined; the caller reopens
// the GPU and runs them.
func TestDeviceLostBatch(t *testing.T) {
	if n, err := DeviceCount(); err != nil || n == 0 {
		t.Skipf("no CUDA device (count %d, %v)", n, err)
	}
	const nJobs = 10
	const solve = 300 * time.Millisecond
	rng := testRand(t)
	points := randG1(rng, lostN)
	res := pool.Resident[backend.Buffer]{
		Bytes: lostN * curve.Must(ecc.BLS12_381).G1AffineBytes,
		Load: func(_ int, dev backend.Backend, q backend.Queue) (backend.Buffer, error) {
			x, err := dev.Alloc(q, lostN*curve.Must(ecc.BLS12_381).G1AffineBytes)
			if err != nil {
				return nil, err
			}
			return x, dev.Upload(q, x, 0, backend.AsBytes(points))
		},
		Free: func(dev backend.Backend, q backend.Queue, x backend.Buffer) error { return dev.Free(q, x) },
	}
	run := func(b *Backend, idx []int, faultAt int) ([]*lostJob, *pool.Trace, time.Duration, int32, error) {
		var prepared atomic.Int32
		var jobs []*lostJob
		var pj []pool.Job[backend.Buffer]
		for _, i := range idx {
			j := &lostJob{gpu: b, idx: i, fault: i == faultAt, solve: solve, prepared: &prepared}
			jobs = append(jobs, j)
			pj = append(pj, j)
		}
		tr := pool.NewTrace()
		start := time.Now()
		err := pool.Run(context.Background(), []backend.Backend{b}, pj, res, pool.WithTrace(tr), pool.WithWorkers(2), pool.WithSolvers(1))
		return jobs, tr, time.Since(start), prepared.Load(), err
	}
	all := make([]int, nJobs)
	for i := range all {
		all[i] = i
	}
	rerun := func(b *Backend, idx []int) {
		jobs, _, _, _, err := run(b, idx, -1)
		if err != nil {
			t.Fatalf("rerunning partitions %v on the reopened GPU: %v", idx, err)
		}
		for _, j := range jobs {
			var want bls12381.G1Jac
			if _, err := want.MultiExp(points, j.scalars, ecc.MultiExpConfig{}); err != nil {
				t.Fatal(err)
			}
			if !want.Equal(&j.got) {
				t.Errorf("partition %d on the reopened GPU: wrong MSM", j.idx)
			}
		}
	}
	if isolate(t) {
		// A new process: the whole batch proves on the GPU.
		b, err := New(0)
		if err != nil {
			t.Fatalf("New in a new process after the child's fault: %v", err)
		}
		defer b.Close()
		rerun(b, all)
		return
	}
	b, err := New(0)
	if err != nil {
		t.Fatal(err)
	}
	_, tr, elapsed, prepared, err := run(b, all, 2)
	t.Logf("batch of %d with a fault in partition 2: %v, %d solved, error: %v", nJobs, elapsed, prepared, err)
	t.Logf("trace summary:\n%v", tr.Summary())
	var errs pool.Errors
	if !errors.As(err, &errs) || !errors.Is(err, backend.ErrDeviceLost) {
		t.Fatalf("Run returned %v, want pool.Errors matching ErrDeviceLost", err)
	}
	if len(errs) < nJobs-3 || int(prepared) > nJobs-len(errs)+1+2 {
		t.Errorf("%d failed, %d solved: the batch went on after the loss", len(errs), prepared)
	}
	if elapsed > nJobs*solve/2 {
		t.Errorf("the batch took %v after the loss", elapsed)
	}
	if !tr.Summary().Devices[0].Quarantined {
		t.Errorf("the device was not quarantined")
	}
	b.Close()
	if reopened := reopenAfterLoss(t); reopened != nil {
		defer reopened.Close()
		rerun(reopened, errs.Failed())
	}
}
