//go:build cuda

package cuda

import (
	"bytes"
	"strings"
	"testing"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
)

// TestCopyCUDA: Copy on the GPU of random scalars (a few million bytes,
// and within one buffer between spans that meet) gives the bytes a host
// copy gives, on a queue and on the nil queue; it retires a table over
// the span it writes and keeps one beside it; bad arguments fail before
// any work, naming Copy and the argument, and leave dst as it was.
func TestCopyCUDA(t *testing.T) {
	g := newTestBackend(t)
	rng := testRand(t)
	const n = 1<<17 + 33
	src := make([]fr.Element, n)
	for i := range src {
		src[i].SetUint64(rng.Uint64() | 1)
		src[i].Square(&src[i])
	}
	dstVals := make([]fr.Element, n+50)
	for i := range dstVals {
		dstVals[i].SetUint64(rng.Uint64() | 1)
	}
	sb, db := upload(t, g, src), upload(t, g, dstVals)
	q, err := g.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	s := backend.ScalarBytes
	want := append([]byte(nil), backend.AsBytes(dstVals)...)
	if err := g.Copy(q, db, 50*s, sb, 0, n*s); err != nil {
		t.Fatal(err)
	}
	copy(want[50*s:], backend.AsBytes(src))
	if err := g.Copy(nil, db, 0, sb, 7, 40); err != nil {
		t.Fatal(err)
	}
	copy(want, backend.AsBytes(src)[7:47])
	if err := g.Copy(q, db, 100, db, 100+64, 64); err != nil {
		t.Fatal(err)
	}
	copy(want[100:164], want[164:228])
	got := make([]byte, len(want))
	if err := g.Download(q, got, db, 0); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("the copies on the GPU differ from the host's")
	}

	// Tables: one over the span written is retired, one beside it kept.
	const pts = 64
	points := make([]bls12381.G1Affine, 2*pts)
	_, _, g1, _ := bls12381.Generators()
	for i := range points {
		points[i] = g1
	}
	pb := upload(t, g, points)
	half := int64(pts) * backend.G1AffineBytes
	for _, off := range []int64{0, half} {
		if err := g.PrecomputeBases(q, pb, off, pts, backend.KernelMSMG1, 2, 0); err != nil {
			t.Fatal(err)
		}
	}
	if len(g.Tables(pb)) != 2 {
		t.Fatalf("%d tables, want 2", len(g.Tables(pb)))
	}
	if err := g.Copy(q, pb, half, pb, 0, backend.G1AffineBytes); err != nil {
		t.Fatal(err)
	}
	if err := q.Wait(); err != nil {
		t.Fatal(err)
	}
	if ts := g.Tables(pb); len(ts) != 1 {
		t.Errorf("after a copy into the second table's span: %d live tables, want 1", len(ts))
	}

	for _, c := range []struct {
		name           string
		dst            backend.Buffer
		dstOff, srcOff int64
		bytes          int64
		arg            string
	}{
		{"negative bytes", db, 0, 0, -1, "bytes:"},
		{"negative dstOff", db, -1, 0, 8, "dstOff:"},
		{"src overrun", db, 0, n*s - 7, 8, "bytes:"},
		{"dst overrun", db, (n+50)*s - 7, 0, 8, "bytes:"},
		{"overflowing end", db, 8, 0, 1<<63 - 8, "bytes:"},
		{"overlap", sb, 8, 0, 16, "src:"},
		{"nil dst", nil, 0, 0, 8, "dst:"},
	} {
		err := g.Copy(q, c.dst, c.dstOff, sb, c.srcOff, c.bytes)
		if err == nil || !strings.Contains(err.Error(), "Copy") || !strings.Contains(err.Error(), c.arg) {
			t.Errorf("%s: %v, want an error naming Copy and %q", c.name, err, c.arg)
		}
	}
	if err := g.Download(q, got, db, 0); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("a rejected Copy changed dst")
	}
	for _, b := range []backend.Buffer{sb, db, pb} {
		if err := g.Free(nil, b); err != nil {
			t.Error(err)
		}
	}
}
