package backend

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc"
)

// ErrOutOfMemory is matched (errors.Is) by every error a Backend returns
// because the device has no room for an allocation.
var ErrOutOfMemory = errors.New("out of device memory")

// ErrUnsupportedCurve is matched by errors from a compute call (NTT,
// QuotientStep, MSMG1, MSMG2, Gather) on a curve the backend does not
// compute on, and by Supports.
var ErrUnsupportedCurve = errors.New("curve not supported by this backend")

// ErrClosed is matched by errors from a Backend, Queue or Buffer used after Close.
var ErrClosed = errors.New("backend closed")

// Buffer is a span of device memory. Its contents are undefined after Alloc.
type Buffer interface {
	// Bytes is the buffer's size in bytes.
	Bytes() int64
}

// Queue is an ordered stream of device work (a CUDA stream). Work enqueued
// on one queue runs in order; across queues only what the caller waits for
// is ordered.
type Queue interface {
	// Wait blocks until every operation enqueued on this queue so far has
	// finished, and returns the first error any of them reported.
	Wait() error
	// Close waits for the queue's work and releases it.
	Close() error
}

// Backend is one compute device. It is safe for concurrent use by several
// goroutines. Every method that takes a Queue enqueues its work there and may
// return before the work finishes; errors of asynchronous work are reported
// by the queue's Wait (or by a later call on that queue).
//
// A nil Queue is the device's own queue: the call is ordered with other
// calls given nil, and waits for the work it enqueues before it returns, so
// that its errors come back from the call itself.
//
// Bad arguments (nil, freed, closed or foreign buffers and queues, negative
// or overflowing sizes and offsets, spans outside a buffer, a basesOff not a
// multiple of BaseAlign) fail the call before any work is enqueued, with an
// error that names the device, the method and the argument at fault. After
// Close every method fails with ErrClosed (Close itself returns nil); after
// the device is lost, with ErrDeviceLost.
//
// The compute calls name the curve (an ecc.ID) whose values their buffers
// hold; field elements and points cross the boundary as bytes in that
// curve's gnark-crypto layout (package doc, Layout), sized by package curve.
type Backend interface {
	// String names the device, e.g. "cpu:0" or "cuda:1".
	String() string

	// Supports returns nil when the backend computes on curve c, and
	// otherwise an error naming the device and the curve that matches
	// ErrUnsupportedCurve.
	Supports(c ecc.ID) error

	// Alloc takes bytes from the device's stream-ordered caching pool,
	// ordered on q. It never waits for other work; on exhaustion it returns
	// an error matching ErrOutOfMemory.
	Alloc(q Queue, bytes int64) (Buffer, error)
	// AllocDirect takes bytes outside the pool (cudaMalloc). It cannot reuse
	// bytes the pool caches. On exhaustion: ErrOutOfMemory.
	AllocDirect(bytes int64) (Buffer, error)
	// Free releases buf. Pooled bytes return to the pool, ordered on q, and
	// stay held until TrimPool; direct bytes return to the device. q may be
	// nil for direct buffers. Freeing a direct buffer first waits for all
	// work on the device, as cudaFree does: it is device-global, like Sync.
	Free(q Queue, buf Buffer) error
	// TrimPool releases pool-cached bytes until at most keep bytes are
	// cached. Device-global.
	TrimPool(keep int64) error
	// Sync waits for all work in flight on the device, from every queue.
	// Device-global.
	Sync() error
	// Memory reports the device's memory accounting.
	Memory() MemStats
	// Scratch is the device memory kernel k takes from the caching pool
	// while it runs on n elements (points for an MSM, 2^LogN values for an
	// NTT, n values for QuotientStep), beyond the buffers it is given. It
	// is back in the pool's cache when k returns. A caller that budgets
	// device memory counts it, so that compute does not run out of memory
	// halfway. It is what k takes on its normal path; on out-of-memory an
	// MSM may retry in smaller passes, which take less.
	Scratch(k Kernel, c ecc.ID, n int) int64

	// NewQueue creates an ordered work queue.
	NewQueue() (Queue, error)

	// Upload copies src into dst at byte offset off, ordered on q. src may
	// be reused as soon as Upload returns.
	Upload(q Queue, dst Buffer, off int64, src []byte) error
	// Download copies len(dst) bytes of src, from byte offset off, into dst.
	// It returns once dst holds the data (it waits for q up to this point).
	Download(q Queue, dst []byte, src Buffer, off int64) error

	// NTT transforms n = 2^spec.LogN scalars of curve spec.Curve held in
	// data (starting at byte 0), in place, ordered on q. See NTTSpec.
	NTT(q Queue, data Buffer, spec NTTSpec) error
	// QuotientStep sets a[i] = (a[i]·b[i] − c[i])·zInv for i < n, ordered on
	// q. a, b and c hold scalars of curve cv, and zInv is one (FrBytes long).
	QuotientStep(q Queue, cv ecc.ID, a, b, c Buffer, n int, zInv []byte) error

	// MSMG1 computes Σ scalars[i]·bases[i] for i < n on curve c, where
	// bases holds G1 affine points from byte offset basesOff and scalars
	// holds scalars from byte 0. It returns once out, G1JacBytes long,
	// holds the result as a G1 Jacobian point.
	MSMG1(q Queue, c ecc.ID, out []byte, bases Buffer, basesOff int64, scalars Buffer, n int) error
	// MSMG2 is MSMG1 over G2 affine bases; out is G2JacBytes long.
	MSMG2(q Queue, c ecc.ID, out []byte, bases Buffer, basesOff int64, scalars Buffer, n int) error

	// Close releases the device's resources. Buffers and queues become invalid.
	Close() error
}

// HostBound is implemented by backends that compute on the host's own
// cores (the CPU backend): work on separate queues then competes for the
// same cores instead of running beside the host, and a prover should not
// overlap independent device work (the H computation with the MSMs) as it
// would on a GPU.
type HostBound interface {
	HostBound() bool
}

// IsHostBound reports whether b computes on the host's cores.
func IsHostBound(b Backend) bool {
	h, ok := b.(HostBound)
	return ok && h.HostBound()
}

// Kernel names a compute operation, for Scratch.
type Kernel uint8

const (
	KernelMSMG1 Kernel = iota
	KernelMSMG2
	KernelNTT
	KernelQuotientStep
)

func (k Kernel) String() string {
	switch k {
	case KernelMSMG1:
		return "MSMG1"
	case KernelMSMG2:
		return "MSMG2"
	case KernelNTT:
		return "NTT"
	case KernelQuotientStep:
		return "QuotientStep"
	}
	return fmt.Sprintf("Kernel(%d)", uint8(k))
}

// MemStats is a device's memory accounting, in bytes.
type MemStats struct {
	Capacity int64 // total the device may hold (0: unlimited)
	InUse    int64 // held by live buffers, pooled and direct
	Cached   int64 // freed to the pool and not yet trimmed
}

// Held is what the device holds: live buffers plus the pool's cache.
func (m MemStats) Held() int64 { return m.InUse + m.Cached }

// NTTSpec says which transform NTT runs over the domain of size n = 2^LogN
// of curve Curve's scalar field generated by ω, gnark's
// fft.NewDomain(n).Generator.
//
// With Order == DIF the input is in natural order and the output
// bit-reversed; with Order == DIT the input is bit-reversed and the output
// natural (gnark-crypto's fft.DIF and fft.DIT).
//
// Forward, without coset:  y_j = Σ_i x_i ω^{ij}
// Forward, on coset g:     y_j = Σ_i x_i g^i ω^{ij}
// Inverse, without coset:  y_j = n⁻¹ Σ_i x_i ω^{−ij}
// Inverse, on coset g:     y_j = n⁻¹ g^{−j} Σ_i x_i ω^{−ij}
//
// (indices i, j taken in natural order, whatever the memory order).
type NTTSpec struct {
	Curve   ecc.ID
	LogN    int
	Inverse bool
	Order   Order
	// Coset, when true, evaluates on (or interpolates from) the coset g·⟨ω⟩
	// with g = CosetShift, a scalar of Curve (FrBytes long).
	Coset      bool
	CosetShift []byte
}

// Order is the memory order of an NTT's input and output.
type Order uint8

const (
	// DIF: natural-order input, bit-reversed output.
	DIF Order = iota
	// DIT: bit-reversed input, natural-order output.
	DIT
)

func (o Order) String() string {
	switch o {
	case DIF:
		return "DIF"
	case DIT:
		return "DIT"
	}
	return fmt.Sprintf("Order(%d)", uint8(o))
}

// AsBytes views a slice of fixed-size values (fr.Element, G1Affine, ...) as
// its backing bytes, without copying.
func AsBytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(zero)))
}

// ValueBytes views one fixed-size value (a G1Jac, an fr.Element) as its
// bytes, without copying: the form in which MSM results and NTT constants
// cross the boundary. A nil p gives nil.
func ValueBytes[T any](p *T) []byte {
	if p == nil {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(p)), unsafe.Sizeof(*p))
}
