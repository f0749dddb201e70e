//go:build cuda

package cuda

import (
	"crypto/rand"
	"encoding/binary"
	mrand "math/rand/v2"
	"os"
	"strconv"
	"testing"
)

// newTestBackend opens GPU 0, or skips the test when there is none.
func newTestBackend(t testing.TB, opts ...Option) *Backend {
	t.Helper()
	n, err := DeviceCount()
	if err != nil || n == 0 {
		t.Skipf("no CUDA device (count %d, %v)", n, err)
	}
	b, err := New(0, opts...)
	if err != nil {
		t.Fatalf("New(0): %v", err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return b
}

// testRand returns a generator seeded from G16_SEED or, by default, fresh
// randomness; the seed is logged so that a failure can be replayed.
func testRand(t testing.TB) *mrand.Rand {
	t.Helper()
	var seed uint64
	if s := os.Getenv("G16_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("G16_SEED: %v", err)
		}
		seed = v
	} else {
		var b [8]byte
		_, _ = rand.Read(b[:])
		seed = binary.LittleEndian.Uint64(b[:])
	}
	t.Logf("seed %d (set G16_SEED to replay)", seed)
	return mrand.New(mrand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}
