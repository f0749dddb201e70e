package cpu_test

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/curve"
)

// TestUploadReadOnly: bases uploaded read-only are read in place while a
// view holds the whole span an MSM reads (a change to the caller's memory
// shows), copied once a read spans more than one view (a later change does
// not show), and counted in the device's memory either way.
func TestUploadReadOnly(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	const n = 64
	bases, scalars := randomMSM(t, seed, 2*n)
	b := cpu.MustNew()
	q := mustQueue(t, b)
	size := int64(2*n) * curve.Must(ecc.BLS12_381).G1AffineBytes
	pts, err := b.Alloc(q, size)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := b.Alloc(q, int64(2*n)*curve.Must(ecc.BLS12_381).FrBytes)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Upload(q, sc, 0, backend.AsBytes(scalars)); err != nil {
		t.Fatal(err)
	}
	half := int64(n) * curve.Must(ecc.BLS12_381).G1AffineBytes
	for i, src := range [][]bls12381.G1Affine{bases[:n], bases[n:]} {
		if err := b.UploadReadOnly(q, pts, int64(i)*half, backend.AsBytes(src)); err != nil {
			t.Fatal(err)
		}
	}
	checkMem(t, b, size+int64(2*n)*curve.Must(ecc.BLS12_381).FrBytes, 0)

	want := func(points []bls12381.G1Affine, s []fr.Element) bls12381.G1Jac {
		var r bls12381.G1Jac
		if _, err := r.MultiExp(points, s, ecc.MultiExpConfig{}); err != nil {
			t.Fatal(err)
		}
		return r
	}
	msm := func(off int64, count int) bls12381.G1Jac {
		var r bls12381.G1Jac
		if err := b.MSMG1(q, ecc.BLS12_381, backend.ValueBytes(&r), pts, off, sc, count); err != nil {
			t.Fatal(err)
		}
		return r
	}

	// One view holds the second half: read in place.
	if got, w := msm(half, n), want(bases[n:], scalars[:n]); !got.Equal(&w) {
		t.Fatal("MSM over the second view differs from gnark-crypto's")
	}
	saved := bases[n]
	bases[n] = bases[0]
	if got, w := msm(half, n), want(bases[n:], scalars[:n]); !got.Equal(&w) {
		t.Fatal("MSM over a view does not read the caller's memory in place")
	}
	bases[n] = saved

	// A read across both views makes the buffer's own memory.
	if got, w := msm(0, 2*n), want(bases, scalars); !got.Equal(&w) {
		t.Fatal("MSM across two views differs from gnark-crypto's")
	}
	bases[n] = bases[0]
	w := want(bases[n:], scalars[:n])
	if got := msm(half, n); got.Equal(&w) {
		t.Fatal("MSM still reads the caller's memory after the buffer made its own")
	}
	bases[n] = saved
	if got, w := msm(half, n), want(bases[n:], scalars[:n]); !got.Equal(&w) {
		t.Fatal("MSM over the copied bases differs from gnark-crypto's")
	}
	if m := b.Memory(); m.InUse != size+int64(2*n)*curve.Must(ecc.BLS12_381).FrBytes {
		t.Fatalf("in use %d after the MSMs, want %d", m.InUse, size+int64(2*n)*curve.Must(ecc.BLS12_381).FrBytes)
	}
	if err := b.Free(q, pts); err != nil {
		t.Fatal(err)
	}
	if err := b.Free(q, sc); err != nil {
		t.Fatal(err)
	}
	if m := b.Memory(); m.InUse != 0 {
		t.Fatalf("in use %d after Free, want 0", m.InUse)
	}
}

// TestUploadReadOnlyCopies: where a view cannot serve (a span overlapping
// an earlier view, memory that is not 8-byte aligned), UploadReadOnly
// copies, and Download reads back what was uploaded.
func TestUploadReadOnlyCopies(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	random := func(n int) []byte {
		p := make([]byte, n)
		for i := range p {
			p[i] = byte(rng.Uint32())
		}
		return p
	}
	b := cpu.MustNew()
	q := mustQueue(t, b)
	buf, err := b.Alloc(q, 256)
	if err != nil {
		t.Fatal(err)
	}
	first := random(128)
	if err := b.UploadReadOnly(q, buf, 0, first); err != nil {
		t.Fatal(err)
	}
	over := random(64)
	if err := b.UploadReadOnly(q, buf, 96, over); err != nil { // overlaps the first view
		t.Fatal(err)
	}
	backing := random(65)
	odd := backing[1:] // not 8-byte aligned
	if err := b.UploadReadOnly(q, buf, 192, odd); err != nil {
		t.Fatal(err)
	}
	wantBytes := make([]byte, 256)
	copy(wantBytes, first)
	copy(wantBytes[96:], over)
	copy(wantBytes[192:], odd)
	// The copies are taken: changing the sources now shows nowhere.
	first[0] ^= 1
	over[0] ^= 1
	odd[0] ^= 1
	got := make([]byte, 256)
	if err := b.Download(q, got, buf, 0); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, wantBytes) {
		t.Fatal("Download after read-only uploads that had to copy differs from what was uploaded")
	}

	// Bad spans fail before any work, naming the argument.
	if err := b.UploadReadOnly(q, buf, 200, make([]byte, 64)); err == nil || !strings.Contains(err.Error(), "src") {
		t.Fatalf("UploadReadOnly past the buffer's end: %v, want an error naming src", err)
	}
	if err := b.UploadReadOnly(q, nil, 0, first); err == nil || !strings.Contains(err.Error(), "dst") {
		t.Fatalf("UploadReadOnly to a nil buffer: %v, want an error naming dst", err)
	}
	if err := b.Free(q, buf); err != nil {
		t.Fatal(err)
	}
	if err := b.UploadReadOnly(q, buf, 0, first); err == nil || !strings.Contains(err.Error(), "after Free") {
		t.Fatalf("UploadReadOnly to a freed buffer: %v, want a use-after-Free error", err)
	}
}
