package cpu

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
)

// TestGather: Gather of random values by the index list of a random
// filter gives what filtering them on the host gives; an index beyond the
// source, a negative length, dst as src and a short dst fail and leave dst
// as it was.
func TestGather(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	b := MustNew(WithTasks(4))
	const nsrc = 1<<14 + 77
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
	n := len(idx)
	up := func(data []byte) backend.Buffer {
		buf, err := b.Alloc(nil, int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Upload(nil, buf, 0, data); err != nil {
			t.Fatal(err)
		}
		return buf
	}
	sb, ib := up(backend.AsBytes(src)), up(backend.AsBytes(idx))
	db, err := b.Alloc(nil, int64(n)*curve.Must(ecc.BLS12_381).FrBytes)
	if err != nil {
		t.Fatal(err)
	}
	q, err := b.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Gather(q, ecc.BLS12_381, db, sb, ib, n); err != nil {
		t.Fatal(err)
	}
	if err := q.Wait(); err != nil {
		t.Fatal(err)
	}
	got := make([]fr.Element, n)
	if err := b.Download(nil, backend.AsBytes(got), db, 0); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if !got[i].Equal(&want[i]) {
			t.Fatalf("seed %d: element %d (index %d) differs from the host filter's", seed, i, idx[i])
		}
	}

	// Errors: dst keeps what it holds.
	bad := append([]uint32(nil), idx...)
	bad[n/2] = nsrc
	badb := up(backend.AsBytes(bad))
	for _, c := range []struct {
		name          string
		dst, src, idx backend.Buffer
		n             int
		want          string
	}{
		{"index beyond src", db, sb, badb, n, "idx["},
		{"negative n", db, sb, ib, -1, "negative"},
		{"dst is src", sb, sb, ib, n, "same buffer"},
		{"n beyond dst", db, sb, ib, n + 1, "n"},
	} {
		err := b.Gather(nil, ecc.BLS12_381, c.dst, c.src, c.idx, c.n)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
	if err := b.Download(nil, backend.AsBytes(got), db, 0); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if !got[i].Equal(&want[i]) {
			t.Fatalf("dst changed by a failed Gather at %d", i)
		}
	}
}
