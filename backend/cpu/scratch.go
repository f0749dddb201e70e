package cpu

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
)

// The MSM's modelled scratch by default: what the CUDA backend's MSM takes
// for a pass of up to 2^25 points, about 24 bytes a point for each of its
// ≈13 windows (sort keys and values, twice, and the radix sort's own
// space), rounded.
const (
	DefaultMSMScratch = 320
	DefaultMSMPass    = 1 << 25
)

// minMSMPass is the smallest pass an MSM retries with when its scratch
// does not fit.
const minMSMPass = 1 << 4

// WithMSMScratch sets the MSM's modelled scratch memory: perPoint bytes
// for each point of a pass of at most pass points (an MSM of more points
// runs in several passes). perPoint 0 models none. The scratch is taken
// from the pool when an MSM starts and returned to its cache when it ends;
// if it does not fit, the MSM retries with passes half as long, down to
// 16 points, before it reports out-of-memory.
func WithMSMScratch(perPoint int64, pass int) Option {
	return func(c *config) error {
		if perPoint < 0 {
			return fmt.Errorf("cpu: WithMSMScratch(%d, %d): bytes per point must not be negative", perPoint, pass)
		}
		if pass < 1 {
			return fmt.Errorf("cpu: WithMSMScratch(%d, %d): pass must be at least one point", perPoint, pass)
		}
		c.scratchPerPoint = perPoint
		c.scratchPass = pass
		return nil
	}
}

// Scratch is the modelled scratch of k on n elements: an MSM's for its
// first pass; the NTT and the quotient step work in place and take none.
func (b *Backend) Scratch(k backend.Kernel, _ ecc.ID, n int) int64 {
	switch k {
	case backend.KernelMSMG1, backend.KernelMSMG2:
		return b.passScratch(min(max(n, 0), b.cfg.scratchPass))
	}
	return 0
}

func (b *Backend) passScratch(points int) int64 { return int64(points) * b.cfg.scratchPerPoint }

// takeScratch takes bytes from the pool for an MSM pass, as a pooled
// allocation does: cached bytes first, then new capacity.
func (b *Backend) takeScratch(bytes int64) error {
	if bytes == 0 {
		return nil
	}
	if b.cfg.hook != nil {
		if err := b.cfg.hook(OpScratch, bytes); err != nil {
			return fmt.Errorf("scratch of %d bytes: %w", bytes, err)
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	fresh := bytes - min(bytes, b.cached)
	if b.cfg.capacity > 0 && b.inUse+b.cached+fresh > b.cfg.capacity {
		return fmt.Errorf("scratch of %d bytes: %w (in use %d, cached %d, capacity %d)",
			bytes, backend.ErrOutOfMemory, b.inUse, b.cached, b.cfg.capacity)
	}
	b.cached -= bytes - fresh
	b.inUse += bytes
	return nil
}

// giveScratch returns an MSM pass's scratch to the pool's cache.
func (b *Backend) giveScratch(bytes int64) {
	b.mu.Lock()
	b.inUse -= bytes
	b.cached += bytes
	b.mu.Unlock()
}
