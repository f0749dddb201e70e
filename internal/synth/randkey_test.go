package synth

import (
	"runtime"
	"testing"

	curve "github.com/consensys/gnark-crypto/ecc/bls12-381"
	groth16bls "github.com/consensys/gnark/backend/groth16/bls12-381"
)

// TestRandomPoints checks the random bases are on the curve, in the
// subgroup, distinct, and that the batch conversion agrees with the
// point-by-point one.
func TestRandomPoints(t *testing.T) {
	_, _, g1, g2 := curve.Generators()
	const n = 300 // not a square: the last table row is partial
	p1, err := randomPointsG1(&g1, n)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := randomPointsG2(&g2, n)
	if err != nil {
		t.Fatal(err)
	}
	seen1 := map[curve.G1Affine]bool{}
	seen2 := map[curve.G2Affine]bool{}
	for i := 0; i < n; i++ {
		if !p1[i].IsInSubGroup() || p1[i].IsInfinity() {
			t.Fatalf("G1 point %d not a valid non-zero subgroup point", i)
		}
		if !p2[i].IsInSubGroup() || p2[i].IsInfinity() {
			t.Fatalf("G2 point %d not a valid non-zero subgroup point", i)
		}
		if seen1[p1[i]] || seen2[p2[i]] {
			t.Fatalf("point %d repeats", i)
		}
		seen1[p1[i]], seen2[p2[i]] = true, true
	}
	jac := make([]curve.G2Jac, 5)
	for i := range jac {
		jac[i].FromAffine(&p2[i])
		jac[i].Double(&jac[i])
	}
	jac[2] = curve.G2Jac{} // Z = 0: infinity
	jac[2].X.SetOne()
	jac[2].Y.SetOne()
	got := make([]curve.G2Affine, len(jac))
	batchToAffineG2(jac, got)
	for i := range jac {
		var want curve.G2Affine
		want.FromJacobian(&jac[i])
		if !got[i].Equal(&want) {
			t.Fatalf("batch conversion of point %d: got %v want %v", i, got[i], want)
		}
	}
}

// TestRandomPointsBlocks: more points than one conversion block, so that
// each goroutine sums and converts several blocks in turn: every point is
// on the curve (a wrong conversion would leave it off), a sample is in the
// subgroup, and none repeats; the G1 batch conversion agrees with the
// point-by-point one, infinity included.
func TestRandomPointsBlocks(t *testing.T) {
	_, _, g1, _ := curve.Generators()
	n := 2*sumBlock*max(1, runtime.NumCPU()) + 7
	p, err := randomPointsG1(&g1, n)
	if err != nil {
		t.Fatal(err)
	}
	seen := make(map[curve.G1Affine]bool, n)
	for i := range p {
		if !p[i].IsOnCurve() || p[i].IsInfinity() || (i%97 == 0 && !p[i].IsInSubGroup()) {
			t.Fatalf("point %d of %d is not a valid non-zero point", i, n)
		}
		if seen[p[i]] {
			t.Fatalf("point %d repeats", i)
		}
		seen[p[i]] = true
	}
	jac := make([]curve.G1Jac, 5)
	for i := range jac {
		jac[i].FromAffine(&p[i])
		jac[i].Double(&jac[i])
	}
	jac[3] = curve.G1Jac{}
	jac[3].X.SetOne()
	jac[3].Y.SetOne()
	got := make([]curve.G1Affine, len(jac))
	batchToAffineG1(jac, got)
	for i := range jac {
		var want curve.G1Affine
		want.FromJacobian(&jac[i])
		if !got[i].Equal(&want) {
			t.Fatalf("batch conversion of point %d: got %v want %v", i, got[i], want)
		}
	}
}

// TestRandomKeyBytes: the size RandomKeyBytes predicts is the size of the
// key RandomKey draws, its domain's tables included.
func TestRandomKeyBytes(t *testing.T) {
	ccs, _, err := Compile(Mix, 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	want, err := RandomKeyBytes(ccs)
	if err != nil {
		t.Fatal(err)
	}
	key, err := RandomKey(ccs)
	if err != nil {
		t.Fatal(err)
	}
	pk := key.(*groth16bls.ProvingKey)
	g1 := 3 + len(pk.G1.A) + len(pk.G1.B) + len(pk.G1.K) + len(pk.G1.Z)
	for _, ck := range pk.CommitmentKeys {
		g1 += len(ck.Basis) + len(ck.BasisExpSigma)
	}
	if len(pk.CommitmentKeys) == 0 {
		t.Fatal("the mix circuit's key has no commitment key")
	}
	got := int64(g1)*96 + int64(2+len(pk.G2.B))*192 + int64(len(pk.InfinityA)+len(pk.InfinityB))
	// At this size the domain keeps its tables, as gnark's Setup does.
	if _, err := pk.Domain.Twiddles(); err != nil {
		t.Fatalf("domain of %d without tables: %v", pk.Domain.Cardinality, err)
	}
	got += 4 * int64(pk.Domain.Cardinality) * 32
	if got != want {
		t.Fatalf("RandomKeyBytes %d, the key drawn holds %d", want, got)
	}
}
