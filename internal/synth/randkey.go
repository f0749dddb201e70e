package synth

import (
	cryptorand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc"
	curve "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/constraint"
	cs "github.com/consensys/gnark/constraint/bls12-381"
)

// RandomKey builds a proving key for ccs with random, distinct bases (a
// KeySource's, from a fresh seed), in host memory. It has the shape of
// gnark's Setup (with every A and B point present, or with
// WithSetupInfinity those at infinity left out as Setup leaves them), so
// every prover accepts it, but it belongs to no toxic waste: its proofs do
// not verify. It is for timing at sizes where a real setup takes too long.
func RandomKey(ccs constraint.ConstraintSystem, opts ...KeyOption) (gnarkgroth16.ProvingKey, error) {
	var seed [8]byte
	if _, err := cryptorand.Read(seed[:]); err != nil {
		return nil, fmt.Errorf("random key: seed: %w", err)
	}
	src, err := NewKeySource(ccs, binary.LittleEndian.Uint64(seed[:]), opts...)
	if err != nil {
		return nil, err
	}
	return src.Key()
}

// keyShape is what a proving key's size follows from.
type keyShape struct {
	nbWires, nbK int
	nbA, nbB     int    // A and B points (not at infinity)
	infA, infB   []bool // the wires whose A and B points are at infinity; nil: none
	n            uint64 // domain size
	ci           constraint.Groth16Commitments
}

// A KeyOption sets how a random key is drawn.
type KeyOption func(*keyConfig)

type keyConfig struct{ setupInfinity bool }

// WithSetupInfinity makes the key's A and B points at infinity where
// gnark's Setup makes them: for each wire whose column of the A (or B)
// query is empty, that is, that no constraint has on its left (right)
// side. Without it every wire has an A and a B point.
func WithSetupInfinity() KeyOption { return func(c *keyConfig) { c.setupInfinity = true } }

func shapeOf(ccs constraint.ConstraintSystem, opts ...KeyOption) (keyShape, error) {
	var cfg keyConfig
	for _, o := range opts {
		o(&cfg)
	}
	r1cs, ok := ccs.(*cs.R1CS)
	if !ok {
		return keyShape{}, fmt.Errorf("random key: %T is not a BLS12-381 R1CS", ccs)
	}
	nbWires := r1cs.NbInternalVariables + r1cs.GetNbPublicVariables() + r1cs.GetNbSecretVariables()
	nbPublic := r1cs.GetNbPublicVariables()
	ci, ok := r1cs.CommitmentInfo.(constraint.Groth16Commitments)
	if !ok {
		return keyShape{}, errors.New("random key: circuit's commitments are not Groth16's")
	}
	removed := map[int]bool{}
	for _, g := range ci.GetPrivateCommitted() {
		for _, i := range g {
			removed[i] = true
		}
	}
	for _, i := range ci.CommitmentIndexes() {
		removed[i] = true
	}
	nbK := nbWires - nbPublic
	for i := range removed {
		if i >= nbPublic {
			nbK--
		}
	}
	ks := keyShape{nbWires: nbWires, nbK: nbK, nbA: nbWires, nbB: nbWires, n: ecc.NextPowerOfTwo(uint64(r1cs.GetNbConstraints())), ci: ci}
	if cfg.setupInfinity {
		ks.infA, ks.infB = emptyColumns(r1cs, nbWires)
		ks.nbA -= countTrue(ks.infA)
		ks.nbB -= countTrue(ks.infB)
	}
	return ks, nil
}

// emptyColumns marks the wires that no constraint of r1cs has on its left
// side (inA) and on its right side (inB): the wires whose A and B points
// gnark's Setup puts at infinity. A term of coefficient 0 does not count,
// as in Setup (a nonzero sum of terms that is zero at Setup's τ is
// negligibly rare).
func emptyColumns(r1cs *cs.R1CS, nbWires int) (infA, infB []bool) {
	words := (nbWires + 31) / 32
	inA, inB := make([]atomic.Uint32, words), make([]atomic.Uint32, words)
	parallelChunks(len(r1cs.Instructions), func(lo, hi int) {
		var c constraint.R1C
		for i := lo; i < hi; i++ {
			pi := r1cs.Instructions[i]
			bp, ok := r1cs.Blueprints[pi.BlueprintID].(constraint.BlueprintR1C)
			if !ok {
				continue
			}
			bp.DecompressR1C(&c, pi.Unpack(&r1cs.System))
			for _, t := range c.L {
				if t.CoeffID() == constraint.CoeffIdZero {
					continue
				}
				w := t.WireID()
				inA[w/32].Or(1 << (w % 32))
			}
			for _, t := range c.R {
				if t.CoeffID() == constraint.CoeffIdZero {
					continue
				}
				w := t.WireID()
				inB[w/32].Or(1 << (w % 32))
			}
		}
	})
	infA, infB = make([]bool, nbWires), make([]bool, nbWires)
	for w := range nbWires {
		infA[w] = inA[w/32].Load()&(1<<(w%32)) == 0
		infB[w] = inB[w/32].Load()&(1<<(w%32)) == 0
	}
	return infA, infB
}

func countTrue(v []bool) int {
	n := 0
	for _, b := range v {
		if b {
			n++
		}
	}
	return n
}

// maxTablesLogN is the largest domain, 2^maxTablesLogN, whose tables a
// random key keeps (512 MiB at 2^22).
const maxTablesLogN = 22

func withTables(n uint64) bool { return n <= 1<<maxTablesLogN }

// RandomKeyBytes is the host memory RandomKey's key for ccs takes: its G1
// bases (A, B, K, Z and the commitment bases), its G2 bases, the infinity
// flags and the domain's tables, if kept (four of n elements).
func RandomKeyBytes(ccs constraint.ConstraintSystem, opts ...KeyOption) (int64, error) {
	ks, err := shapeOf(ccs, opts...)
	if err != nil {
		return 0, err
	}
	g1 := int64(3+ks.nbA+ks.nbB+ks.nbK) + int64(ks.n) - 1
	for i := range ks.ci {
		g1 += 2 * int64(len(ks.ci[i].PrivateCommitted))
	}
	g2 := int64(2 + ks.nbB)
	var tables int64
	if withTables(ks.n) {
		tables = 4 * int64(ks.n) * fr.Bytes
	}
	return g1*int64(unsafe.Sizeof(curve.G1Affine{})) + g2*int64(unsafe.Sizeof(curve.G2Affine{})) + 2*int64(ks.nbWires) + tables, nil
}

func randomScalars(n int) ([]fr.Element, error) {
	s := make([]fr.Element, n)
	for i := range s {
		if _, err := s[i].SetRandom(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// tableSide is the side of the two tables random bases are drawn from.
func tableSide(n int) int {
	side := 1
	for side*side < n {
		side <<= 1
	}
	return side
}

// randomPoints returns n random points. Scalar multiplication for each
// would take minutes at 2^24, so point j·side+k is Rⱼ + Qₖ, where R and Q
// are two tables of side ≈ √n independent random multiples of the
// generator (mul draws them): distinct with overwhelming probability, and
// with no relation among them that a multi-scalar multiplication could
// exploit. sums writes Rᵢ/side + Qᵢ%side for i in [lo, hi) to out.
func randomPoints[P any](n int, mul func([]fr.Element) []P, sums func(out, R, Q []P, side, lo, hi int)) ([]P, error) {
	if n == 0 {
		return nil, nil
	}
	side := tableSide(n)
	s, err := randomScalars(2 * side)
	if err != nil {
		return nil, err
	}
	tab := mul(s)
	out := make([]P, n)
	parallelChunks(n, func(lo, hi int) { sums(out[lo:hi], tab[:side], tab[side:], side, lo, hi) })
	return out, nil
}

// sumBlock is how many points a goroutine sums in Jacobian form before it
// converts them to affine: the Jacobian scratch stays a few MiB a goroutine
// however many points are drawn (a whole vector in Jacobian form would be
// 1.5× the affine key).
const sumBlock = 1 << 14

func randomPointsG1(g *curve.G1Affine, n int) ([]curve.G1Affine, error) {
	return randomPoints(n,
		func(s []fr.Element) []curve.G1Affine { return curve.BatchScalarMultiplicationG1(g, s) },
		func(out, R, Q []curve.G1Affine, side, lo, hi int) {
			jac := make([]curve.G1Jac, min(sumBlock, hi-lo))
			for b := lo; b < hi; b += sumBlock {
				e := min(hi, b+sumBlock)
				for i := b; i < e; i++ {
					jac[i-b].FromAffine(&R[i/side])
					jac[i-b].AddMixed(&Q[i%side])
				}
				batchToAffineG1(jac[:e-b], out[b-lo:e-lo])
			}
		})
}

func randomPointsG2(g *curve.G2Affine, n int) ([]curve.G2Affine, error) {
	return randomPoints(n,
		func(s []fr.Element) []curve.G2Affine { return curve.BatchScalarMultiplicationG2(g, s) },
		func(out, R, Q []curve.G2Affine, side, lo, hi int) {
			jac := make([]curve.G2Jac, min(sumBlock, hi-lo))
			for b := lo; b < hi; b += sumBlock {
				e := min(hi, b+sumBlock)
				for i := b; i < e; i++ {
					jac[i-b].FromAffine(&R[i/side])
					jac[i-b].AddMixed(&Q[i%side])
				}
				batchToAffineG2(jac[:e-b], out[b-lo:e-lo])
			}
		})
}

// batchToAffineG1 is batchToAffineG2 over Fp.
func batchToAffineG1(in []curve.G1Jac, out []curve.G1Affine) {
	batchToAffineG1Into(in, out, make([]fp.Element, len(in)))
}

// batchToAffineG1Into is batchToAffineG1 with prefix (len(in) elements)
// as its scratch.
func batchToAffineG1Into(in []curve.G1Jac, out []curve.G1Affine, prefix []fp.Element) {
	var acc fp.Element
	acc.SetOne()
	for i := range in {
		prefix[i] = acc
		if !in[i].Z.IsZero() {
			acc.Mul(&acc, &in[i].Z)
		}
	}
	acc.Inverse(&acc)
	for i := len(in) - 1; i >= 0; i-- {
		if in[i].Z.IsZero() {
			out[i] = curve.G1Affine{}
			continue
		}
		var zInv, zInv2 fp.Element
		zInv.Mul(&acc, &prefix[i])
		acc.Mul(&acc, &in[i].Z)
		zInv2.Square(&zInv)
		out[i].X.Mul(&in[i].X, &zInv2)
		out[i].Y.Mul(&in[i].Y, &zInv2).Mul(&out[i].Y, &zInv)
	}
}

// batchToAffineG2 converts Jacobian points to affine with one inversion
// (Montgomery's trick): x = X/Z², y = Y/Z³.
func batchToAffineG2(in []curve.G2Jac, out []curve.G2Affine) {
	batchToAffineG2Into(in, out, make([]curve.E2, len(in)))
}

// batchToAffineG2Into is batchToAffineG2 with prefix (len(in) elements)
// as its scratch.
func batchToAffineG2Into(in []curve.G2Jac, out []curve.G2Affine, prefix []curve.E2) {
	var acc curve.E2
	acc.SetOne()
	for i := range in {
		prefix[i] = acc
		if !in[i].Z.IsZero() {
			acc.Mul(&acc, &in[i].Z)
		}
	}
	acc.Inverse(&acc) // 1/(Z₀·Z₁·…)
	for i := len(in) - 1; i >= 0; i-- {
		if in[i].Z.IsZero() {
			out[i] = curve.G2Affine{}
			continue
		}
		var zInv, zInv2 curve.E2
		zInv.Mul(&acc, &prefix[i])
		acc.Mul(&acc, &in[i].Z)
		zInv2.Square(&zInv)
		out[i].X.Mul(&in[i].X, &zInv2)
		out[i].Y.Mul(&in[i].Y, &zInv2).Mul(&out[i].Y, &zInv)
	}
}

// parallelChunks runs f over [0, n) in chunks, one goroutine per CPU.
func parallelChunks(n int, f func(lo, hi int)) {
	tasks := runtime.NumCPU()
	step := max(1, (n+tasks-1)/tasks)
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo += step {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			f(lo, hi)
		}(lo, min(n, lo+step))
	}
	wg.Wait()
}
