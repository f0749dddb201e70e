//go:build cuda

package cuda

import (
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	bw6fr "github.com/consensys/gnark-crypto/ecc/bw6-761/fr"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
)

// TestGatherCUDA: Gather on the GPU of random values by the index list of
// a random filter gives what filtering them on the host gives (an index
// beyond the source gives zero), for scalars of 32 bytes (BLS12-381) and
// of 48 (BW6-761); bad arguments fail before any work.
func TestGatherCUDA(t *testing.T) {
	g := newTestBackend(t)
	d6, s6, i6, _ := gatherRandom[bw6fr.Element](t, g, ecc.BW6_761, 1<<16+33)
	for _, b := range []backend.Buffer{d6, s6, i6} {
		if err := g.Free(nil, b); err != nil {
			t.Error(err)
		}
	}
	db, sb, ib, n := gatherRandom[fr.Element](t, g, ecc.BLS12_381, 1<<20+77)
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

// gatherElem is what gatherRandom needs of a gnark-crypto scalar.
type gatherElem[E any] interface {
	*E
	SetUint64(uint64) *E
	Mul(x, y *E) *E
	Equal(*E) bool
}

// gatherRandom gathers nsrc random scalars of curve c by a random filter's
// index list and an index past the end, on the GPU, checks the result
// against the host's filter, and returns the buffers (destination, source,
// indices) and the index count.
func gatherRandom[E any, PE gatherElem[E]](t *testing.T, g *Backend, c ecc.ID, nsrc int) (db, sb, ib backend.Buffer, n int) {
	t.Helper()
	rng := testRand(t)
	src := make([]E, nsrc)
	for i := range src {
		PE(&src[i]).SetUint64(rng.Uint64())
		PE(&src[i]).Mul(&src[i], &src[i])
	}
	var idx []uint32
	var want []E
	for i := range src {
		if rng.IntN(3) != 0 {
			idx = append(idx, uint32(i))
			want = append(want, src[i])
		}
	}
	// One index past the end: zero there.
	idx = append(idx, uint32(nsrc+5))
	want = append(want, *new(E))
	n = len(idx)
	sb, ib = upload(t, g, src), upload(t, g, idx)
	db, err := g.Alloc(nil, int64(n)*curve.Must(c).FrBytes)
	if err != nil {
		t.Fatal(err)
	}
	q, err := g.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	if err := g.Gather(q, c, db, sb, ib, n); err != nil {
		t.Fatal(err)
	}
	got := make([]E, n)
	if err := g.Download(q, backend.AsBytes(got), db, 0); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if !PE(&got[i]).Equal(&want[i]) {
			t.Fatalf("%s: element %d (index %d) differs from the host filter's", curve.Name(c), i, idx[i])
		}
	}
	return db, sb, ib, n
}
