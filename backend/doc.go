// Package backend defines the contract between g16's scheduling core and a
// compute device.
//
// A Backend is one device: a GPU, or the CPU backend, which models one. The
// prover moves data to the device, runs the number-theoretic transforms and
// the pointwise quotient step there, and asks it for multi-scalar
// multiplications; the scheduler in package pool decides when.
//
// # Memory
//
// Device memory is handed out as Buffers. Alloc draws from a stream-ordered
// caching pool, as cudaMallocAsync does: Free returns the bytes to the pool,
// where they stay held (and count against the device's capacity) until
// TrimPool releases them. AllocDirect is a plain allocation, as cudaMalloc
// is: it cannot use bytes the pool caches, so after many pooled frees it can
// fail where a trim would have let it succeed. Both return an error matching
// ErrOutOfMemory when the device is full; neither waits for other work.
//
// # Device-global calls
//
// Sync waits for every operation in flight on the device, from every queue
// and every goroutine. TrimPool changes state that every queue shares. Free
// of a direct (AllocDirect) buffer waits for the whole device first, as
// cudaFree does. All three are device-global: the scheduler calls them only
// inside a device's compute region (see package pool), never while holding
// only its staging region. Pooled frees are ordered on their queue and are
// not device-global.
//
// # Scratch
//
// Kernels take temporary memory from the pool while they run (an MSM's
// sort and bucket arrays run to gigabytes at 2^25 points). Scratch reports
// how much, so that a scheduler's budget counts it next to the buffers it
// hands out.
//
// # Errors
//
// Every error names the device and the method, and for a bad argument the
// argument: bad calls (nil, freed or foreign buffers and queues, negative
// or overflowing sizes, spans outside a buffer) fail before any work is
// enqueued. ErrOutOfMemory, ErrClosed and ErrDeviceLost are matched with
// errors.Is. A lost device (a GPU whose context a fault poisoned) fails
// every later call; close it and open the device again. The suite in
// internal/testvectors (RunContract) checks every backend against these
// rules; docs/design.md in the repository says why they are what they are.
//
// # Curves
//
// A backend is one device for every curve it supports (Supports): its
// memory, queues and pool are shared by all of them, and each compute call
// names the curve of the values it reads. A call on a curve the backend
// does not compute on fails with ErrUnsupportedCurve.
//
// # Layout
//
// Every value crosses the boundary in gnark-crypto's in-memory form for its
// curve, with the sizes package curve lists: a scalar (fr.Element) is
// little-endian 64-bit limbs in Montgomery form; a G1 affine point is X
// then Y (fp.Element each, Montgomery), the point at infinity being X = Y =
// 0; a G2 affine point over Fp2 is X.A0, X.A1, Y.A0, Y.A1; Jacobian points
// are X, Y, Z. Slices are passed as their backing arrays, with no
// conversion.
package backend
