package synth

import (
	"math/big"
	"math/rand/v2"
	"testing"

	curve "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark/constraint"
)

// TestKeySourcePoints: every point a KeySource draws (affine additions
// with one inversion a block) is its two table entries' sum as
// gnark-crypto's Jacobian addition gives it, across more than one block
// and for the pairs Q = R (a doubling) and Q = −R (infinity); blocks drawn
// in another order or length are the same points; two seeds differ.
func TestKeySourcePoints(t *testing.T) {
	ccs, s, seed := testKeySource(t)
	// Points 0 and 1 of the G1 sequence: R₀ + Q₀ and R₀ + Q₁.
	s.q1[0] = s.r1[0]
	s.q1[1].Neg(&s.r1[0])
	s.q2[0] = s.r2[0]
	s.q2[1].Neg(&s.r2[0])

	n1 := sumBlock + 300
	g1 := make([]curve.G1Affine, n1)
	s.g1Range(0, g1)
	for i := range g1 {
		var j curve.G1Jac
		j.FromAffine(&s.r1[i/s.side1])
		j.AddMixed(&s.q1[i%s.side1])
		var want curve.G1Affine
		want.FromJacobian(&j)
		if !g1[i].Equal(&want) {
			t.Fatalf("G1 point %d: %v, want %v", i, g1[i], want)
		}
	}
	if !g1[1].IsInfinity() || g1[0].IsInfinity() {
		t.Fatal("the R + R and R − R pairs are not a doubling and infinity")
	}
	n2 := 2*s.side2 + 5
	g2 := make([]curve.G2Affine, n2)
	s.g2Range(0, g2)
	for i := range g2 {
		var j curve.G2Jac
		j.FromAffine(&s.r2[i/s.side2])
		j.AddMixed(&s.q2[i%s.side2])
		var want curve.G2Affine
		want.FromJacobian(&j)
		if !g2[i].Equal(&want) {
			t.Fatalf("G2 point %d: %v, want %v", i, g2[i], want)
		}
	}
	// Another split: vector Z from its 7th point, in two calls.
	z := make([]curve.G1Affine, 40)
	if err := s.G1Bases(VectorZ, 7, z[:13]); err != nil {
		t.Fatal(err)
	}
	if err := s.G1Bases(VectorZ, 20, z[13:]); err != nil {
		t.Fatal(err)
	}
	whole := make([]curve.G1Affine, 47)
	s.g1Range(s.offG1[VectorZ], whole)
	for i := range z {
		if !z[i].Equal(&whole[7+i]) {
			t.Fatalf("Z point %d drawn in another block differs", 7+i)
		}
	}
	if err := s.G1Bases(VectorZ, s.Len(VectorZ)-1, z[:2]); err == nil {
		t.Fatal("a block past the end of Z was drawn")
	}
	other, err := NewKeySource(ccs, seed+1)
	if err != nil {
		t.Fatal(err)
	}
	a := make([]curve.G1Affine, 1)
	if err := other.G1Bases(VectorA, 0, a); err != nil {
		t.Fatal(err)
	}
	b := make([]curve.G1Affine, 1)
	if err := s.G1Bases(VectorA, 0, b); err != nil {
		t.Fatal(err)
	}
	if a[0].Equal(&b[0]) {
		t.Fatal("two seeds give the same first A point")
	}
}

// TestKeySourceCommitmentKeys: the commitment keys' bases are the G1
// sequence's points after Z, BasisExpSigma is σ times each of them (σ drawn
// from the seed, checked against gnark-crypto's scalar multiplication on
// points spread over the vector), and two sources of one seed give the same
// commitment keys.
func TestKeySourceCommitmentKeys(t *testing.T) {
	ccs, s, seed := testKeySource(t)
	pk, err := s.Hostless()
	if err != nil {
		t.Fatal(err)
	}
	if len(pk.CommitmentKeys) == 0 {
		t.Fatal("the mix circuit's key has no commitment key")
	}
	if s.sigma.IsZero() || s.sigma.IsOne() {
		t.Fatalf("σ = %v", s.sigma)
	}
	var sigma big.Int
	s.sigma.BigInt(&sigma)
	at := s.offG1[4]
	for c, ck := range pk.CommitmentKeys {
		n := len(ck.Basis)
		if n == 0 || len(ck.BasisExpSigma) != n {
			t.Fatalf("commitment %d: %d bases, %d σ·bases", c, n, len(ck.BasisExpSigma))
		}
		want := make([]curve.G1Affine, n)
		s.g1Range(at, want)
		for j := range ck.Basis {
			if !ck.Basis[j].Equal(&want[j]) {
				t.Fatalf("commitment %d base %d is not G1 sequence point %d", c, j, at+j)
			}
		}
		for _, j := range []int{0, 1, n / 3, n / 2, n - 1, rand.IntN(n)} {
			var p curve.G1Affine
			p.ScalarMultiplication(&ck.Basis[j], &sigma)
			if !p.Equal(&ck.BasisExpSigma[j]) || p.IsInfinity() {
				t.Fatalf("commitment %d: BasisExpSigma[%d] is not σ·Basis[%d]", c, j, j)
			}
		}
		at += n
	}
	again, err := NewKeySource(ccs, seed)
	if err != nil {
		t.Fatal(err)
	}
	pk2, err := again.Hostless()
	if err != nil {
		t.Fatal(err)
	}
	for c := range pk.CommitmentKeys {
		a, b := pk.CommitmentKeys[c], pk2.CommitmentKeys[c]
		for j := range a.Basis {
			if !a.Basis[j].Equal(&b.Basis[j]) || !a.BasisExpSigma[j].Equal(&b.BasisExpSigma[j]) {
				t.Fatalf("commitment %d point %d differs between two sources of seed %d", c, j, seed)
			}
		}
	}
}

// testKeySource compiles the 2^12 mix circuit and returns it with a
// KeySource of a fresh seed (logged).
func testKeySource(t *testing.T) (constraint.ConstraintSystem, *KeySource, uint64) {
	t.Helper()
	ccs, _, err := Compile(Mix, 1<<12)
	if err != nil {
		t.Fatal(err)
	}
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	s, err := NewKeySource(ccs, seed)
	if err != nil {
		t.Fatal(err)
	}
	return ccs, s, seed
}
