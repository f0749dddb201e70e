package cuda

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/curve"
)

// Option configures a Backend at New.
type Option func(*config) error

type config struct {
	memoryLimit int64 // 0: what the device has
	msmWindow   int   // 0: chosen per MSM size
	msmMaxTask  int   // 0: chosen per MSM size
	msmChunk    int   // points per MSM pass
	msmFlags    int   // G16_MSM_* flags of g16cuda.h (tuning, tests)
	msmHostTail bool  // G16_MSM_HOST_TAIL (WithMSMHostTail)
}

func defaultConfig() config {
	return config{msmChunk: 1 << 25, msmHostTail: true}
}

// WithMemoryLimit caps the device memory the backend hands out, buffers and
// the MSM's scratch space together, at bytes. Past it, allocations fail with
// an error matching backend.ErrOutOfMemory, as if the device were that small.
func WithMemoryLimit(bytes int64) Option {
	return func(c *config) error {
		if bytes <= 0 {
			return fmt.Errorf("cuda: memory limit must be positive, got %d", bytes)
		}
		c.memoryLimit = bytes
		return nil
	}
}

// WithMSMWindow fixes the MSM's window size in bits (4..24) instead of
// choosing it from the size of each MSM. For tuning. The kernels cut a
// scalar into at most 64 windows: BW6-761's 377-bit scalars take 6 bits
// or more, and its MSMs and PrecomputeBases refuse a smaller fixed window
// (checkMSMWindow) before any device work.
func WithMSMWindow(bits int) Option {
	return func(c *config) error {
		if bits < 4 || bits > 24 {
			return fmt.Errorf("cuda: MSM window must be in [4, 24], got %d", bits)
		}
		c.msmWindow = bits
		return nil
	}
}

// checkMSMWindow is nil when window, the one WithMSMWindow fixed (0: none),
// cuts curve c's scalars into at most 64 windows, the most the kernels
// take; else an error naming the option, its value, the curve and the
// least window the curve takes. A curve the kernels lack is another check's.
func checkMSMWindow(window int, c ecc.ID) error {
	bits := windowBits(c)
	if window == 0 || bits == 0 {
		return nil
	}
	if lo := minWindow(bits); window < lo {
		return fmt.Errorf("cuda.WithMSMWindow(%d): %s's MSMs take a window of at least %d bits (its %d-bit scalars in at most 64 windows)",
			window, curve.Name(c), lo, bits)
	}
	return nil
}

// WithMSMHostTail(true), the default, makes each MSM's bucket reduction
// stop on the device once at most 64 pairs (sums standing for
// Σ A_s + Σ s·R_s) are left over all its windows, and sums those on the
// host: the last levels of the reduction run a few threads' chains of
// dependent additions, each far slower on the GPU than on the CPU (the
// sha256 proof on the H200: about 2 ms less of its 40; BENCHMARKS.md, run
// 12). WithMSMHostTail(false) reduces to the end on the device. For tuning.
func WithMSMHostTail(on bool) Option {
	return func(c *config) error {
		c.msmHostTail = on
		return nil
	}
}

// WithMSMChunk sets how many points one pass of the MSM handles at most;
// larger MSMs run in several passes, which bounds their scratch memory
// (about 16·⌈255/w⌉ bytes a point). The default is 2^25.
func WithMSMChunk(points int) Option {
	return func(c *config) error {
		if points < 1 {
			return fmt.Errorf("cuda: MSM chunk must be positive, got %d", points)
		}
		c.msmChunk = points
		return nil
	}
}
