package cpu

import (
	"runtime"
	"sync"

	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
)

// maxTablesLogN is the largest transform size whose domain always keeps
// its twiddle and coset tables (4n elements: 128 MiB at 2^20 on a 32-byte
// field, as much as a fifth of that size's proving key). A larger domain
// keeps them when the host has the room (keepTables, hostsched.go);
// without them a transform builds what it needs as it runs, one
// multiplication an element or less, on one core.
var maxTablesLogN = 18

// NTT runs the transform spec describes on data, in place.
func (b *Backend) NTT(q backend.Queue, data backend.Buffer, spec backend.NTTSpec) error {
	if err := b.checkQueue(OpNTT, q); err != nil {
		return err
	}
	p, k, err := b.curve(OpNTT, "spec.Curve", spec.Curve)
	if err != nil {
		return err
	}
	if spec.LogN < 0 || spec.LogN > k.MaxLogN() {
		return b.errorf(OpNTT, "spec.LogN: %d outside [0, %d] (%s)", spec.LogN, k.MaxLogN(), p.Name)
	}
	if spec.Order != backend.DIF && spec.Order != backend.DIT {
		return b.errorf(OpNTT, "spec.Order: unknown order %v", spec.Order)
	}
	var shift []byte
	if spec.Coset {
		if int64(len(spec.CosetShift)) != p.FrBytes {
			return b.errorf(OpNTT, "spec.CosetShift: %d bytes, a %s scalar takes %d", len(spec.CosetShift), p.Name, p.FrBytes)
		}
		if k.ScalarIsZero(spec.CosetShift) {
			return b.errorf(OpNTT, "spec.CosetShift: zero")
		}
		shift = append([]byte(nil), spec.CosetShift...)
	}
	n := 1 << spec.LogN
	a, err := b.scalars(OpNTT, "data", data, "spec.LogN", n, p.FrBytes)
	if err != nil {
		return err
	}
	keep := func(logN int) bool { return b.keepTables(p.FrBytes, logN) }
	return b.run(q, OpNTT, int64(n), func() error {
		k.NTT(a, spec.LogN, spec.Inverse, spec.Order == backend.DIT, shift, min(b.cfg.tasks, runtime.NumCPU()), keep)
		return nil
	})
}

// QuotientStep sets a[i] = (a[i]·b[i] − c[i])·zInv.
func (b *Backend) QuotientStep(q backend.Queue, cv ecc.ID, a, bb, c backend.Buffer, n int, zInv []byte) error {
	if err := b.checkQueue(OpQuotientStep, q); err != nil {
		return err
	}
	p, k, err := b.curve(OpQuotientStep, "curve", cv)
	if err != nil {
		return err
	}
	if int64(len(zInv)) != p.FrBytes {
		return b.errorf(OpQuotientStep, "zInv: %d bytes, a %s scalar takes %d", len(zInv), p.Name, p.FrBytes)
	}
	z := append([]byte(nil), zInv...)
	va, err := b.scalars(OpQuotientStep, "a", a, "n", n, p.FrBytes)
	if err != nil {
		return err
	}
	vb, err := b.scalars(OpQuotientStep, "b", bb, "n", n, p.FrBytes)
	if err != nil {
		return err
	}
	vc, err := b.scalars(OpQuotientStep, "c", c, "n", n, p.FrBytes)
	if err != nil {
		return err
	}
	return b.run(q, OpQuotientStep, int64(n), func() error {
		k.Quotient(va, vb, vc, z, b.parallel)
		return nil
	})
}

// parallel splits [0, n) among the backend's tasks.
func (b *Backend) parallel(n int, f func(lo, hi int)) {
	tasks := min(b.cfg.tasks, max(1, n/1024))
	if tasks <= 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	step := (n + tasks - 1) / tasks
	for lo := 0; lo < n; lo += step {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			f(lo, hi)
		}(lo, min(lo+step, n))
	}
	wg.Wait()
}
