package cpu

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestCopyParallel: copyParallel copies every byte, into a longer dst too,
// whatever the number of tasks.
func TestCopyParallel(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 4))
	for _, n := range []int{0, 1, minCopyPerTask - 1, 3*minCopyPerTask + 12345} {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(rng.Uint32())
		}
		for _, tasks := range []int{1, 2, 5} {
			dst := make([]byte, n+3)
			copyParallel(dst, src, tasks)
			if !bytes.Equal(dst[:n], src) || !bytes.Equal(dst[n:], []byte{0, 0, 0}) {
				t.Errorf("n=%d tasks=%d: dst differs from src", n, tasks)
			}
		}
	}
}
