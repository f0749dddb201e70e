//go:build cuda

package cuda

import (
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
)

// TestTableRetiredByDeviceWrites: an NTT or a QuotientStep in place over a
// bases buffer's table range retires the table, as an Upload does, so that
// no MSM reads multiples of points that are no longer there (the MSM
// after the write runs without it), and a write below the range leaves the
// table live.
func TestTableRetiredByDeviceWrites(t *testing.T) {
	g := newTestBackend(t)
	rng := testRand(t)
	const n = 64 // 64 G1 points: 6144 bytes, 192 scalars
	p := randG1(rng, n)
	s := randScalars(rng, 2*n)
	sb := upload(t, g, s)
	defer g.Free(nil, sb)
	for _, write := range []string{"NTT", "QuotientStep"} {
		b := upload(t, g, p)
		// The table over the second half of the points: bytes [3072, 6144).
		half := int64(n/2) * curve.Must(ecc.BLS12_381).G1AffineBytes
		if err := g.PrecomputeBases(nil, ecc.BLS12_381, b, half, n/2, backend.KernelMSMG1, 4, 6); err != nil {
			t.Fatal(err)
		}
		// A write of the first 2^6 scalars (2048 bytes) stays below the range.
		var err error
		if write == "NTT" {
			err = g.NTT(nil, b, backend.NTTSpec{Curve: ecc.BLS12_381, LogN: 6, Order: backend.DIF})
		} else {
			err = g.QuotientStep(nil, ecc.BLS12_381, b, sb, sb, 64, scalarOf(fr.One()))
		}
		if err != nil {
			t.Fatalf("%s below the range: %v", write, err)
		}
		if info := g.Tables(b); len(info) != 1 {
			t.Errorf("%s below the table's range: %d live tables, want 1", write, len(info))
		}
		// A write over 2^7 scalars (4096 bytes) reaches into the range.
		if write == "NTT" {
			err = g.NTT(nil, b, backend.NTTSpec{Curve: ecc.BLS12_381, LogN: 7, Order: backend.DIF})
		} else {
			err = g.QuotientStep(nil, ecc.BLS12_381, b, sb, sb, 128, scalarOf(fr.One()))
		}
		if err != nil {
			t.Fatalf("%s into the range: %v", write, err)
		}
		if info := g.Tables(b); len(info) != 0 {
			t.Errorf("%s into the table's range: %d live tables, want 0", write, len(info))
		}
		// The MSM over the range reads the buffer, not the table (the
		// buffer's bytes are no curve points now: only the path is checked).
		var r bls12381.G1Jac
		if err := g.MSMG1(nil, ecc.BLS12_381, backend.ValueBytes(&r), b, half, sb, n/2); err != nil {
			t.Fatal(err)
		}
		if tm := g.LastMSMTiming(); tm.Copies != 1 {
			t.Errorf("after the %s: the MSM read a table of %d copies", write, tm.Copies)
		}
		g.Free(nil, b)
	}
}
