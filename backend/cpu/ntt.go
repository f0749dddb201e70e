package cpu

import (
	"runtime"
	"sync"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr/fft"

	"github.com/g16prover/g16/backend"
)

// MaxLogN is the largest transform size, 2^MaxLogN, that BLS12-381's
// scalar field supports (r − 1 is divisible by 2^32).
const MaxLogN = 32

// maxTablesLogN is the largest transform size whose domain always keeps
// its twiddle and coset tables (4n elements: 128 MiB at 2^20, as much as a
// fifth of that size's proving key). A larger domain keeps them when the
// host has the room (keepTables, hostsched.go); without them a transform
// builds what it needs as it runs, one multiplication an element or less,
// on one core.
var maxTablesLogN = 18

type domainKey struct {
	logN  int
	shift fr.Element
}

// domainCache keeps one gnark-crypto domain per (size, coset shift): building
// one computes its twiddle tables.
type domainCache struct {
	mu     sync.Mutex
	m      map[domainKey]*fft.Domain
	tables map[int]bool // by logN: whether the domains made keep their tables
}

// get returns the domain of 2^logN with the coset shift (zero: the
// default), made on first use; keep says whether a new domain keeps its
// tables.
func (c *domainCache) get(logN int, shift fr.Element, keep func(logN int) bool) *fft.Domain {
	if shift.IsZero() {
		// A transform off the coset reads no coset table: the domain of
		// the default shift, which the prover's coset transforms use too,
		// serves it, and the tables (4n elements) are held once.
		shift = fft.GeneratorFullMultiplicativeGroup()
	}
	k := domainKey{logN, shift}
	c.mu.Lock()
	defer c.mu.Unlock()
	if d, ok := c.m[k]; ok {
		return d
	}
	if c.m == nil {
		c.m = make(map[domainKey]*fft.Domain)
		c.tables = make(map[int]bool)
	}
	tables, made := c.tables[logN]
	if !made {
		tables = keep(logN)
		c.tables[logN] = tables
	}
	opts := []fft.DomainOption{fft.WithShift(shift)}
	if !tables {
		opts = append(opts, fft.WithoutPrecompute())
	}
	d := fft.NewDomain(uint64(1)<<logN, opts...)
	c.m[k] = d
	return d
}

// hasTables says whether the domains of 2^logN keep their tables: as
// made, or as keep would make them.
func (c *domainCache) hasTables(logN int, keep func(logN int) bool) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.tables[logN]; ok {
		return t
	}
	return keep(logN)
}

// NTT runs the transform spec describes on data, in place.
func (b *Backend) NTT(q backend.Queue, data backend.Buffer, spec backend.NTTSpec) error {
	if err := b.checkQueue(OpNTT, q); err != nil {
		return err
	}
	if spec.LogN < 0 || spec.LogN > MaxLogN {
		return b.errorf(OpNTT, "spec.LogN: %d outside [0, %d]", spec.LogN, MaxLogN)
	}
	if spec.Order != backend.DIF && spec.Order != backend.DIT {
		return b.errorf(OpNTT, "spec.Order: unknown order %v", spec.Order)
	}
	if spec.Coset && spec.CosetShift.IsZero() {
		return b.errorf(OpNTT, "spec.CosetShift: zero")
	}
	n := 1 << spec.LogN
	a, err := b.scalars(OpNTT, "data", data, "spec.LogN", n)
	if err != nil {
		return err
	}
	return b.run(q, OpNTT, int64(n), func() error {
		if n == 1 {
			return nil // every variant is the identity on one element
		}
		var shift fr.Element
		var opts []fft.Option
		if spec.Coset {
			shift = spec.CosetShift
			opts = append(opts, fft.OnCoset())
		}
		opts = append(opts, fft.WithNbTasks(min(b.cfg.tasks, runtime.NumCPU())))
		d := b.domains.get(spec.LogN, shift, b.keepTables)
		dec := fft.DIF
		if spec.Order == backend.DIT {
			dec = fft.DIT
		}
		if spec.Inverse {
			d.FFTInverse(a, dec, opts...)
		} else {
			d.FFT(a, dec, opts...)
		}
		return nil
	})
}

// QuotientStep sets a[i] = (a[i]·b[i] − c[i])·zInv.
func (b *Backend) QuotientStep(q backend.Queue, a, bb, c backend.Buffer, n int, zInv fr.Element) error {
	if err := b.checkQueue(OpQuotientStep, q); err != nil {
		return err
	}
	va, err := b.scalars(OpQuotientStep, "a", a, "n", n)
	if err != nil {
		return err
	}
	vb, err := b.scalars(OpQuotientStep, "b", bb, "n", n)
	if err != nil {
		return err
	}
	vc, err := b.scalars(OpQuotientStep, "c", c, "n", n)
	if err != nil {
		return err
	}
	return b.run(q, OpQuotientStep, int64(n), func() error {
		b.parallel(n, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				va[i].Mul(&va[i], &vb[i]).Sub(&va[i], &vc[i]).Mul(&va[i], &zInv)
			}
		})
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
