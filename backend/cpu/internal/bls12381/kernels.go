package bls12381

import (
	"math/big"
	"sync"
	"unsafe"

	curve "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr/fft"
)

// Kernels computes on one device's memory. It is safe for concurrent use.
type Kernels struct {
	domains domainCache
}

// New returns the kernels of one device.
func New() *Kernels { return new(Kernels) }

// maxLogN is the largest transform size, 2^maxLogN, the scalar field
// supports: the 2-adicity of r − 1.
var maxLogN = func() int {
	var r big.Int
	r.Sub(fr.Modulus(), big.NewInt(1))
	return int(r.TrailingZeroBits())
}()

// MaxLogN is the largest transform size, 2^MaxLogN, of the scalar field.
func (k *Kernels) MaxLogN() int { return maxLogN }

// scalars views b as scalars; len(b) is a multiple of their size.
func scalars(b []byte) []fr.Element {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*fr.Element)(unsafe.Pointer(&b[0])), len(b)/int(unsafe.Sizeof(fr.Element{})))
}

// as views b, exactly one T long, as a T.
func as[T any](b []byte) *T {
	var zero T
	if len(b) != int(unsafe.Sizeof(zero)) {
		panic("bls12381: internal error: a value of the wrong size")
	}
	return (*T)(unsafe.Pointer(&b[0]))
}

// points views b as points of type T.
func points[T any](b []byte) []T {
	if len(b) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/int(unsafe.Sizeof(zero)))
}

// ScalarIsZero reports whether s, one scalar, is zero.
func (k *Kernels) ScalarIsZero(s []byte) bool { return as[fr.Element](s).IsZero() }

// Quotient sets a[i] = (a[i]·b[i] − c[i])·zInv, each range of indices that
// parallel hands out on its own goroutine.
func (k *Kernels) Quotient(a, b, c, zInv []byte, parallel func(n int, f func(lo, hi int))) {
	va, vb, vc, z := scalars(a), scalars(b), scalars(c), *as[fr.Element](zInv)
	parallel(len(va), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			va[i].Mul(&va[i], &vb[i]).Sub(&va[i], &vc[i]).Mul(&va[i], &z)
		}
	})
}

// MSM sets out, a Jacobian point of G1 (or G2 with g2), to
// Σ scalars[i]·bases[i] with tasks goroutines.
func (k *Kernels) MSM(g2 bool, out, bases, s []byte, tasks int) error {
	if g2 {
		return multiExpG2(as[curve.G2Jac](out), points[curve.G2Affine](bases), scalars(s), tasks)
	}
	return multiExpG1(as[curve.G1Jac](out), points[curve.G1Affine](bases), scalars(s), tasks)
}

// AddJac sets r = r + p, Jacobian points of G1 (or G2 with g2).
func (k *Kernels) AddJac(g2 bool, r, p []byte) {
	if g2 {
		as[curve.G2Jac](r).AddAssign(as[curve.G2Jac](p))
		return
	}
	as[curve.G1Jac](r).AddAssign(as[curve.G1Jac](p))
}

// domainKey names a domain: its size and coset shift.
type domainKey struct {
	logN  int
	shift fr.Element
}

// domainCache keeps one gnark-crypto domain per (size, coset shift):
// building one computes its twiddle tables.
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
	key := domainKey{logN, shift}
	c.mu.Lock()
	defer c.mu.Unlock()
	if d, ok := c.m[key]; ok {
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
	c.m[key] = d
	return d
}

// HasTables says whether the domains of 2^logN keep their tables: as
// made, or as keep would make them.
func (k *Kernels) HasTables(logN int, keep func(logN int) bool) bool {
	c := &k.domains
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.tables[logN]; ok {
		return t
	}
	return keep(logN)
}

// NTT transforms data, 2^logN scalars, in place: forward or inverse, DIT
// (bit-reversed input) or DIF (natural input), on the coset of shift when
// shift is not nil, with tasks goroutines. keep decides whether a domain
// made for it keeps its tables.
func (k *Kernels) NTT(data []byte, logN int, inverse, dit bool, shift []byte, tasks int, keep func(logN int) bool) {
	a := scalars(data)
	if len(a) <= 1 {
		return // every variant is the identity on one element
	}
	var g fr.Element
	var opts []fft.Option
	if shift != nil {
		g = *as[fr.Element](shift)
		opts = append(opts, fft.OnCoset())
	}
	opts = append(opts, fft.WithNbTasks(tasks))
	d := k.domains.get(logN, g, keep)
	dec := fft.DIF
	if dit {
		dec = fft.DIT
	}
	if inverse {
		d.FFTInverse(a, dec, opts...)
	} else {
		d.FFT(a, dec, opts...)
	}
}
