package synth

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"sync"
	"unsafe"

	curve "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr/fft"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr/pedersen"
	groth16bls "github.com/consensys/gnark/backend/groth16/bls12-381"
	"github.com/consensys/gnark/constraint"
)

// The base vectors of a proving key, as KeySource.G1Bases numbers them
// (groth16.BaseSource's numbering).
const (
	VectorA = iota
	VectorB
	VectorK
	VectorZ
)

// KeySource draws the bases of a random proving key for one circuit, any
// block of them on demand: the same seed gives the same bases, whichever
// blocks are drawn and in what order. Point i of the G1 sequence is
// Rᵢ/side + Qᵢ%side for two tables R and Q of side ≈ √(G1 points) random
// multiples of the generator (likewise in G2): distinct with overwhelming
// probability, with no relation among them that a multi-scalar
// multiplication could exploit, and about a microsecond a point to draw.
//
// The G1 sequence is α, β, δ, A (one point a wire, or with
// WithSetupInfinity one a wire that the A query holds), B (likewise), K,
// Z (n − 1), then each commitment's bases; the G2 sequence is β, δ, B.
// A KeySource is safe for concurrent use.
type KeySource struct {
	ks         keyShape
	offG1      [5]int // start of A, B, K, Z and the commitment bases in the G1 sequence
	r1, q1     []curve.G1Affine
	sr1, sq1   []curve.G1Affine // σ·r1, σ·q1: the commitment keys' BasisExpSigma
	sigma      fr.Element       // the commitment keys' σ
	r2, q2     []curve.G2Affine
	side1      int
	side2      int
	nG1, nG2   int
	jac1, jac2 sync.Pool // conversion scratch, one block's worth

	frameOnce sync.Once
	head      *groth16bls.ProvingKey // the key without its five base vectors
	headErr   error
}

// NewKeySource prepares the tables of a random key for ccs from seed.
func NewKeySource(ccs constraint.ConstraintSystem, seed uint64, opts ...KeyOption) (*KeySource, error) {
	ks, err := shapeOf(ccs, opts...)
	if err != nil {
		return nil, err
	}
	s := &KeySource{ks: ks}
	s.offG1[VectorA] = 3
	s.offG1[VectorB] = s.offG1[VectorA] + ks.nbA
	s.offG1[VectorK] = s.offG1[VectorB] + ks.nbB
	s.offG1[VectorZ] = s.offG1[VectorK] + ks.nbK
	s.offG1[4] = s.offG1[VectorZ] + int(ks.n) - 1
	s.nG1 = s.offG1[4]
	for i := range ks.ci {
		s.nG1 += len(ks.ci[i].PrivateCommitted)
	}
	s.nG2 = 2 + ks.nbB

	var rs [32]byte
	binary.LittleEndian.PutUint64(rs[:], seed)
	copy(rs[8:], "g16 random key")
	rng := rand.NewChaCha8(rs)
	_, _, g1, g2 := curve.Generators()
	s.side1, s.side2 = tableSide(s.nG1), tableSide(s.nG2)
	e1 := seededScalars(rng, 2*s.side1)
	t1 := curve.BatchScalarMultiplicationG1(&g1, e1)
	t2 := curve.BatchScalarMultiplicationG2(&g2, seededScalars(rng, 2*s.side2))
	s.r1, s.q1 = t1[:s.side1], t1[s.side1:]
	s.r2, s.q2 = t2[:s.side2], t2[s.side2:]
	if len(ks.ci) > 0 {
		// The commitment keys' σ, from the seed too. A base Rₐ + Q_b of
		// the G1 sequence times σ is σRₐ + σQ_b: the tables scaled by σ
		// give every BasisExpSigma point at the cost of a base.
		sigma := seededScalars(rng, 1)[0]
		if sigma.IsZero() {
			sigma.SetOne()
		}
		s.sigma = sigma
		for i := range e1 {
			e1[i].Mul(&e1[i], &sigma)
		}
		st := curve.BatchScalarMultiplicationG1(&g1, e1)
		s.sr1, s.sq1 = st[:s.side1], st[s.side1:]
	}
	s.jac1.New = func() any { return new(jacBlock1) }
	s.jac2.New = func() any { return new(jacBlock2) }
	return s, nil
}

// seededScalars draws n field elements from rng (32 bytes each, reduced
// modulo r).
func seededScalars(rng *rand.ChaCha8, n int) []fr.Element {
	out := make([]fr.Element, n)
	var b [fr.Bytes]byte
	for i := range out {
		_, _ = rng.Read(b[:]) // ChaCha8's Read never fails
		out[i].SetBytes(b[:])
	}
	return out
}

// jacBlock1 and jacBlock2 are one block's scratch: the differences of x
// coordinates and their prefix products.
type jacBlock1 struct{ dx, prefix [sumBlock]fp.Element }

type jacBlock2 struct{ dx, prefix [sumBlock]curve.E2 }

// Len is how many points G1Bases has in vector v (VectorA … VectorZ), and
// G2Len how many G2Bases has.
func (s *KeySource) Len(v int) int {
	if v < VectorA || v > VectorZ {
		return 0
	}
	return s.offG1[v+1] - s.offG1[v]
}

// G2Len is the number of B points in G2 (as many as in G1).
func (s *KeySource) G2Len() int { return s.ks.nbB }

// G1Bases writes points [lo, lo+len(out)) of vector v to out.
func (s *KeySource) G1Bases(v, lo int, out []curve.G1Affine) error {
	if v < VectorA || v > VectorZ {
		return fmt.Errorf("random key: no G1 base vector %d", v)
	}
	if lo < 0 || len(out) > s.Len(v)-lo {
		return fmt.Errorf("random key: G1 bases [%d, %d) outside vector %d of %d points", lo, lo+len(out), v, s.Len(v))
	}
	s.g1Range(s.offG1[v]+lo, out)
	return nil
}

// G2Bases writes the B points [lo, lo+len(out)) in G2 to out.
func (s *KeySource) G2Bases(lo int, out []curve.G2Affine) error {
	if lo < 0 || len(out) > s.ks.nbB-lo {
		return fmt.Errorf("random key: G2 bases [%d, %d) outside the %d B points", lo, lo+len(out), s.ks.nbB)
	}
	s.g2Range(2+lo, out)
	return nil
}

// g1Range writes G1 sequence points [lo, lo+len(out)) to out: Rᵢ/side +
// Qᵢ%side added in affine coordinates, λ = (y_Q − y_R)/(x_Q − x_R), with
// one field inversion a block (Montgomery's trick). A pair with x_Q = x_R
// (Q = ±R, which random tables give with negligible probability) is added
// in Jacobian coordinates.
func (s *KeySource) g1Range(lo int, out []curve.G1Affine) {
	s.g1Sums(s.r1, s.q1, lo, out)
}

// g1Sums is g1Range over the tables r and q (s.r1, s.q1, or their
// multiples by σ).
func (s *KeySource) g1Sums(r1, q1 []curve.G1Affine, lo int, out []curve.G1Affine) {
	b := s.jac1.Get().(*jacBlock1)
	defer s.jac1.Put(b)
	for done := 0; done < len(out); done += sumBlock {
		e := min(len(out), done+sumBlock)
		dx := b.dx[:e-done]
		for i := range dx {
			p := lo + done + i
			dx[i].Sub(&q1[p%s.side1].X, &r1[p/s.side1].X)
		}
		invert(dx, b.prefix[:len(dx)])
		for i := range dx {
			p := lo + done + i
			r, q, o := &r1[p/s.side1], &q1[p%s.side1], &out[done+i]
			if dx[i].IsZero() {
				var j curve.G1Jac
				j.FromAffine(r)
				j.AddMixed(q)
				o.FromJacobian(&j)
				continue
			}
			var l, x, y fp.Element
			l.Sub(&q.Y, &r.Y).Mul(&l, &dx[i])
			x.Square(&l).Sub(&x, &r.X).Sub(&x, &q.X)
			y.Sub(&r.X, &x).Mul(&y, &l).Sub(&y, &r.Y)
			o.X, o.Y = x, y
		}
	}
}

// g2Range is g1Range in G2.
func (s *KeySource) g2Range(lo int, out []curve.G2Affine) {
	b := s.jac2.Get().(*jacBlock2)
	defer s.jac2.Put(b)
	for done := 0; done < len(out); done += sumBlock {
		e := min(len(out), done+sumBlock)
		dx := b.dx[:e-done]
		for i := range dx {
			p := lo + done + i
			dx[i].Sub(&s.q2[p%s.side2].X, &s.r2[p/s.side2].X)
		}
		invert(dx, b.prefix[:len(dx)])
		for i := range dx {
			p := lo + done + i
			r, q, o := &s.r2[p/s.side2], &s.q2[p%s.side2], &out[done+i]
			if dx[i].IsZero() {
				var j curve.G2Jac
				j.FromAffine(r)
				j.AddMixed(q)
				o.FromJacobian(&j)
				continue
			}
			var l, x, y curve.E2
			l.Sub(&q.Y, &r.Y).Mul(&l, &dx[i])
			x.Square(&l).Sub(&x, &r.X).Sub(&x, &q.X)
			y.Sub(&r.X, &x).Mul(&y, &l).Sub(&y, &r.Y)
			o.X, o.Y = x, y
		}
	}
}

// fieldElem is what invert needs of a field element type (fp.Element, E2).
type fieldElem[T any] interface {
	*T
	SetOne() *T
	IsZero() bool
	Mul(x, y *T) *T
	Inverse(x *T) *T
}

// invert replaces each nonzero element of v by its inverse, with one
// inversion in all; zeros stay zero. prefix is scratch of len(v).
func invert[T any, P fieldElem[T]](v, prefix []T) {
	var acc T
	P(&acc).SetOne()
	for i := range v {
		prefix[i] = acc
		if !P(&v[i]).IsZero() {
			P(&acc).Mul(&acc, &v[i])
		}
	}
	P(&acc).Inverse(&acc)
	for i := len(v) - 1; i >= 0; i-- {
		if P(&v[i]).IsZero() {
			continue
		}
		var inv T
		P(&inv).Mul(&acc, &prefix[i])
		P(&acc).Mul(&acc, &v[i])
		v[i] = inv
	}
}

// Key returns the proving key with its bases drawn into host memory: the
// key Hostless describes, materialised.
func (s *KeySource) Key() (*groth16bls.ProvingKey, error) {
	pk, err := s.frame()
	if err != nil {
		return nil, err
	}
	pk.G1.A = make([]curve.G1Affine, s.Len(VectorA))
	pk.G1.B = make([]curve.G1Affine, s.Len(VectorB))
	pk.G1.K = make([]curve.G1Affine, s.Len(VectorK))
	pk.G1.Z = make([]curve.G1Affine, s.Len(VectorZ))
	pk.G2.B = make([]curve.G2Affine, s.ks.nbB)
	s.draw(pk)
	return pk, nil
}

// KeyOutsideHeap is Key with the five base vectors in memory mapped
// outside the Go heap (on Linux), for the life of the process: the
// collector's heap goal, a tenth above what is live under GOGC=10, then
// does not grow with them (7 GiB at 2^27). It returns the bytes mapped
// outside the heap, which the caller may take off its Go memory limit: 0
// off Linux, where the vectors are ordinary Go memory.
func (s *KeySource) KeyOutsideHeap() (*groth16bls.ProvingKey, int64, error) {
	pk, err := s.frame()
	if err != nil {
		return nil, 0, err
	}
	g1 := func(n int) []curve.G1Affine {
		if err != nil {
			return nil
		}
		v, e := offHeap[curve.G1Affine](n)
		if err == nil {
			err = e
		}
		return v
	}
	pk.G1.A, pk.G1.B, pk.G1.K, pk.G1.Z = g1(s.Len(VectorA)), g1(s.Len(VectorB)), g1(s.Len(VectorK)), g1(s.Len(VectorZ))
	if err != nil {
		return nil, 0, err
	}
	if pk.G2.B, err = offHeap[curve.G2Affine](s.ks.nbB); err != nil {
		return nil, 0, err
	}
	s.draw(pk)
	bytes := int64(len(pk.G1.A)+len(pk.G1.B)+len(pk.G1.K)+len(pk.G1.Z))*int64(unsafe.Sizeof(curve.G1Affine{})) +
		int64(len(pk.G2.B))*int64(unsafe.Sizeof(curve.G2Affine{}))
	if !offHeapMapped {
		bytes = 0
	}
	return pk, bytes, nil
}

// draw fills pk's five base vectors, of their lengths, from s.
func (s *KeySource) draw(pk *groth16bls.ProvingKey) {
	for v, dst := range [][]curve.G1Affine{pk.G1.A, pk.G1.B, pk.G1.K, pk.G1.Z} {
		parallelChunks(len(dst), func(lo, hi int) { s.g1Range(s.offG1[v]+lo, dst[lo:hi]) })
	}
	parallelChunks(len(pk.G2.B), func(lo, hi int) { s.g2Range(2+lo, pk.G2.B[lo:hi]) })
}

// Hostless returns the proving key without a host copy of its bases: its
// G1 A, B, K, Z and G2 B vectors have their lengths, but are read-only
// address space that was never written (all zero, taking no memory; the
// address space is held for the life of the process). Every other field
// (α, β, δ, the domain, the infinity flags, the commitment keys) is set.
// Only a device key filled from s (groth16.NewDeviceKeyFrom) proves with
// it; a prover that reads its host bases refuses it.
func (s *KeySource) Hostless() (*groth16bls.ProvingKey, error) {
	pk, err := s.frame()
	if err != nil {
		return nil, err
	}
	if pk.G1.A, err = placeholder[curve.G1Affine](s.Len(VectorA)); err != nil {
		return nil, err
	}
	if pk.G1.B, err = placeholder[curve.G1Affine](s.Len(VectorB)); err != nil {
		return nil, err
	}
	if pk.G1.K, err = placeholder[curve.G1Affine](s.Len(VectorK)); err != nil {
		return nil, err
	}
	if pk.G1.Z, err = placeholder[curve.G1Affine](s.Len(VectorZ)); err != nil {
		return nil, err
	}
	if pk.G2.B, err = placeholder[curve.G2Affine](s.ks.nbB); err != nil {
		return nil, err
	}
	return pk, nil
}

// frame is a copy of the key without its five base vectors, the same for
// every call (drawn once a source; the commitment keys' σ comes from the
// seed, like the bases).
func (s *KeySource) frame() (*groth16bls.ProvingKey, error) {
	s.frameOnce.Do(func() { s.head, s.headErr = s.drawFrame() })
	if s.headErr != nil {
		return nil, s.headErr
	}
	pk := *s.head
	return &pk, nil
}

func (s *KeySource) drawFrame() (*groth16bls.ProvingKey, error) {
	pk := new(groth16bls.ProvingKey)
	// Provers read only the domain's size, generator and coset shift. Up
	// to 2^maxTablesLogN the domain keeps its twiddle and coset tables, as
	// gnark's Setup gives them, so that gnark's Prove takes the same time
	// with this key as with a real one; above, the tables (4n elements:
	// 16 GiB at 2^27) are not kept, and gnark's FFTs build what they need
	// as they run.
	if withTables(s.ks.n) {
		pk.Domain = *fft.NewDomain(s.ks.n)
	} else {
		pk.Domain = *fft.NewDomain(s.ks.n, fft.WithoutPrecompute())
	}
	var head [3]curve.G1Affine
	s.g1Range(0, head[:])
	pk.G1.Alpha, pk.G1.Beta, pk.G1.Delta = head[0], head[1], head[2]
	var head2 [2]curve.G2Affine
	s.g2Range(0, head2[:])
	pk.G2.Beta, pk.G2.Delta = head2[0], head2[1]
	pk.InfinityA, pk.InfinityB = s.ks.infA, s.ks.infB
	if pk.InfinityA == nil {
		pk.InfinityA = make([]bool, s.ks.nbWires)
		pk.InfinityB = make([]bool, s.ks.nbWires)
	}
	pk.NbInfinityA = uint64(s.ks.nbWires - s.ks.nbA)
	pk.NbInfinityB = uint64(s.ks.nbWires - s.ks.nbB)
	if ci := s.ks.ci; len(ci) > 0 {
		// pedersen.Setup's keys, drawn here: its σ·base, one scalar
		// multiplication a base on one goroutine, took a minute for
		// sha256-1100B's 280k committed wires.
		pk.CommitmentKeys = make([]pedersen.ProvingKey, len(ci))
		at := s.offG1[4]
		for i := range ci {
			n := len(ci[i].PrivateCommitted)
			ck := &pk.CommitmentKeys[i]
			ck.Basis = make([]curve.G1Affine, n)
			ck.BasisExpSigma = make([]curve.G1Affine, n)
			from := at
			parallelChunks(n, func(lo, hi int) {
				s.g1Sums(s.r1, s.q1, from+lo, ck.Basis[lo:hi])
				s.g1Sums(s.sr1, s.sq1, from+lo, ck.BasisExpSigma[lo:hi])
			})
			at += n
		}
	}
	return pk, nil
}
