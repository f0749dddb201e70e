//go:build cuda

package cuda

import (
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
)

// TestGatherCUDA: Gather on the GPU of random values by the index list of
// a random filter gives what filtering them on the host gives (an index
// beyond the source gives zero); bad arguments fail before any work.
func TestGatherCUDA(t *testing.T) {
	g := newTestBackend(t)
	rng := testRand(t)
	const nsrc = 1<<20 + 77
	src := make([]fr.Element, nsrc)
	for i := range src {
		src[i].SetUint64(rng.Uint64())
		src[i].Mul(&src[i], &src[i])
	}
	var idx []uint32
	var want []fr.Element
	for i := range src {
		if rng.IntN(3) != 0 {
			idx = append(idx, uint32(i))
			want = append(want, src[i])
		}
	}
	// One index past the end: zero there.
	idx = append(idx, nsrc+5)
	want = append(want, fr.Element{})
	n := len(idx)
	sb, ib := upload(t, g, src), upload(t, g, idx)
	db, err := g.Alloc(nil, int64(n)*curve.Must(ecc.BLS12_381).FrBytes)
	if err != nil {
		t.Fatal(err)
	}
	q, err := g.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	if err := g.Gather(q, ecc.BLS12_381, db, sb, ib, n); err != nil {
		t.Fatal(err)
	}
	got := make([]fr.Element, n)
	if err := g.Download(q, backend.AsBytes(got), db, 0); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if !got[i].Equal(&want[i]) {
			t.Fatalf("element %d (index %d) differs from the host filter's", i, idx[i])
		}
	}
	for _, c := range []struct {
		name          string
		dst, src, idx backend.Buffer
		n             int
		want          string
	}{
		{"negative n", db, sb, ib, -1, "negative"},
		{"dst is src", sb, sb, ib, n, "same buffer"},
		{"n beyond dst", db, sb, ib, n + 1, "n"},
		{"nil idx", db, sb, nil, n, "idx"},
	} {
		if err := g.Gather(nil, ecc.BLS12_381, c.dst, c.src, c.idx, c.n); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
	for _, b := range []backend.Buffer{db, sb, ib} {
		if err := g.Free(nil, b); err != nil {
			t.Error(err)
		}
	}
}
