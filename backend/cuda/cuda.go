//go:build cuda

package cuda

/*
#cgo CFLAGS: -I${SRCDIR}/kernels
#cgo pkg-config: g16cuda
#include <stdlib.h>
#include "g16cuda.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/g16prover/g16/backend"
)

// The status codes of api.go are g16cuda.h's: each array below has
// length 0 only when they agree, and fails to compile otherwise.
var (
	_ [codeOK - C.G16_OK]struct{}
	_ [C.G16_OK - codeOK]struct{}
	_ [codeOOM - C.G16_OOM]struct{}
	_ [C.G16_OOM - codeOOM]struct{}
	_ [codeCUDA - C.G16_CUDA]struct{}
	_ [C.G16_CUDA - codeCUDA]struct{}
	_ [codeInvalid - C.G16_INVALID]struct{}
	_ [C.G16_INVALID - codeInvalid]struct{}
	_ [codeInternal - C.G16_INTERNAL]struct{}
	_ [C.G16_INTERNAL - codeInternal]struct{}
	_ [codeLost - C.G16_LOST]struct{}
	_ [C.G16_LOST - codeLost]struct{}
)

func errOf(st C.g16_status) error {
	if st.code == codeOK {
		return nil
	}
	return &Error{Code: int(st.code), Msg: C.GoString(&st.msg[0])}
}

// DeviceCount returns the number of GPUs CUDA sees (CUDA_VISIBLE_DEVICES
// applies); 0 with no driver or no GPU.
func DeviceCount() (int, error) {
	var n C.int
	if err := errOf(C.g16_device_count(&n)); err != nil {
		return 0, err
	}
	return int(n), nil
}

// Backend is one GPU. It is safe for concurrent use.
type Backend struct {
	// mu guards closed and dev: calls hold it for reading, Close for writing,
	// so Close waits for calls in flight.
	mu     sync.RWMutex
	closed bool
	dev    *C.g16_device
	ord    int
	cfg    config
	desc   string
	epoch  uint64 // the device's reset count when it was opened (lost.go)

	timingMu   sync.Mutex
	lastTiming MSMTiming

	tableMu sync.Mutex
	tables  map[*baseTable]struct{} // the live tables of precomputed multiples (table.go)
}

var _ backend.Backend = (*Backend)(nil)

// New opens GPU number device (among those CUDA_VISIBLE_DEVICES shows).
func New(device int, opts ...Option) (*Backend, error) {
	cfg := defaultConfig()
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	if err := checkLibrary(); err != nil {
		return nil, err
	}
	epoch, reset, err := resetIfLost(device)
	if err != nil {
		return nil, err
	}
	b := &Backend{ord: device, cfg: cfg, epoch: epoch}
	if err := errOf(C.g16_open(C.int(device), C.int64_t(cfg.memoryLimit), &b.dev)); err != nil {
		err = openErr(device, err)
		if reset && !errors.Is(err, backend.ErrDeviceLost) {
			// Some drivers leave a context that a sticky fault poisoned
			// unusable for the rest of the process, reset or not.
			err = fmt.Errorf("%w: cuda:%d does not open again after the reset that followed a fault (%w); a new process can use it", backend.ErrDeviceLost, device, err)
		}
		if errors.Is(err, backend.ErrDeviceLost) {
			markLost(device, err)
		}
		return nil, err
	}
	var name [256]C.char
	if err := errOf(C.g16_name(b.dev, &name[0], C.int(len(name)))); err == nil {
		b.desc = C.GoString(&name[0])
	}
	return b, nil
}

// openErr is g16_open's error err for GPU device: its message says that
// the device did not open and why, its code (and so what it matches) kept.
func openErr(device int, err error) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	cause := strings.TrimPrefix(e.Msg, fmt.Sprintf("cuda:%d: ", device))
	return &Error{Code: e.Code, Msg: fmt.Sprintf("cuda:%d: cannot open the device: %s", device, cause)}
}

// String names the backend, "cuda:N" for GPU number N.
func (b *Backend) String() string { return fmt.Sprintf("cuda:%d", b.ord) }

// Description names the GPU, e.g. "NVIDIA H200 (sm_90, 132 SMs)".
func (b *Backend) Description() string { return b.desc }

// enter takes the read lock, or fails when the backend is closed or its
// device lost; op names the method.
func (b *Backend) enter(op string) error {
	b.mu.RLock()
	if b.closed {
		b.mu.RUnlock()
		return fmt.Errorf("%v: %s: %w", b, op, backend.ErrClosed)
	}
	if err := b.lostErr(); err != nil {
		b.mu.RUnlock()
		return fmt.Errorf("%v: %s: %w", b, op, err)
	}
	return nil
}

func (b *Backend) leave() { b.mu.RUnlock() }

type buffer struct {
	b      *Backend
	ptr    unsafe.Pointer
	bytes  int64
	pooled bool
	freed  atomic.Bool
	tables tableSet // precomputed multiples of bases in it (table.go)
}

func (x *buffer) Bytes() int64 { return x.bytes }

type queue struct {
	b      *Backend
	s      unsafe.Pointer
	mu     sync.Mutex // serialises Wait and Close
	closed atomic.Bool
}

// bufferOf returns buf, op's argument arg, as this backend's live buffer.
func (b *Backend) bufferOf(op, arg string, buf backend.Buffer) (*buffer, error) {
	x, ok := buf.(*buffer)
	switch {
	case buf == nil || (ok && x == nil):
		return nil, fmt.Errorf("%v: %s: %s: nil buffer", b, op, arg)
	case !ok || x.b != b:
		return nil, fmt.Errorf("%v: %s: %s: buffer %T does not belong to this device", b, op, arg, buf)
	case x.freed.Load():
		return nil, fmt.Errorf("%v: %s: %s: buffer used after Free", b, op, arg)
	}
	return x, nil
}

// streamOf returns q's stream; nil means the device's internal stream.
func (b *Backend) streamOf(op string, q backend.Queue) (unsafe.Pointer, error) {
	if q == nil {
		return nil, nil
	}
	x, ok := q.(*queue)
	switch {
	case ok && x == nil:
		return nil, fmt.Errorf("%v: %s: q: nil *queue", b, op)
	case !ok || x.b != b:
		return nil, fmt.Errorf("%v: %s: q: queue %T does not belong to this device", b, op, q)
	case x.closed.Load():
		return nil, fmt.Errorf("%v: %s: q: %w", b, op, backend.ErrClosed)
	}
	return x.s, nil
}

// status turns a C status into an error, and loses the device when the
// status says its context is poisoned.
func (b *Backend) status(st C.g16_status) error {
	err := errOf(st)
	if err != nil && errors.Is(err, backend.ErrDeviceLost) {
		markLost(b.ord, err)
	}
	return err
}

// finish completes a call that enqueued work on stream s: with no queue
// given (s == nil, the internal stream) it waits for that work, so that
// its errors come back from the call.
func (b *Backend) finish(s unsafe.Pointer, err error) error {
	if err == nil && s == nil {
		err = b.status(C.g16_stream_sync(b.dev, nil))
	}
	return err
}

func (b *Backend) alloc(op string, q backend.Queue, bytes int64, pooled bool) (backend.Buffer, error) {
	if bytes < 0 {
		return nil, fmt.Errorf("%v: %s: bytes: negative size %d", b, op, bytes)
	}
	if err := b.enter(op); err != nil {
		return nil, err
	}
	defer b.leave()
	s, err := b.streamOf(op, q)
	if err != nil {
		return nil, err
	}
	p := C.int(0)
	if pooled {
		p = 1
	}
	x := &buffer{b: b, bytes: bytes, pooled: pooled}
	if err := b.finish(s, b.status(C.g16_alloc(b.dev, s, C.int64_t(bytes), p, &x.ptr))); err != nil {
		return nil, fmt.Errorf("%v: %s: bytes: %d: %w", b, op, bytes, err)
	}
	return x, nil
}

// Alloc takes bytes from the device's stream-ordered pool, ordered on q.
func (b *Backend) Alloc(q backend.Queue, bytes int64) (backend.Buffer, error) {
	return b.alloc("Alloc", q, bytes, true)
}

// AllocDirect takes bytes with cudaMalloc, outside the pool.
func (b *Backend) AllocDirect(bytes int64) (backend.Buffer, error) {
	return b.alloc("AllocDirect", nil, bytes, false)
}

// Free returns buf to the pool (ordered on q) or, if direct, to the device.
func (b *Backend) Free(q backend.Queue, buf backend.Buffer) error {
	if err := b.enter("Free"); err != nil {
		return err
	}
	defer b.leave()
	x, err := b.bufferOf("Free", "buf", buf)
	if err != nil {
		return err
	}
	s, err := b.streamOf("Free", q)
	if err != nil {
		return err
	}
	p := C.int(0)
	if x.pooled {
		p = 1
	}
	if !x.freed.CompareAndSwap(false, true) {
		return fmt.Errorf("%v: Free: buf: buffer freed twice", b)
	}
	terr := b.freeTables(x, s)
	if err := b.finish(s, b.status(C.g16_free(b.dev, s, x.ptr, C.int64_t(x.bytes), p))); err != nil {
		return err
	}
	return terr
}

// TrimPool releases pool-cached memory down to keep bytes. Device-global.
func (b *Backend) TrimPool(keep int64) error {
	if keep < 0 {
		return fmt.Errorf("%v: TrimPool: keep: negative size %d", b, keep)
	}
	if err := b.enter("TrimPool"); err != nil {
		return err
	}
	defer b.leave()
	return b.status(C.g16_trim(b.dev, C.int64_t(keep)))
}

// Sync waits for all work on the device (cudaDeviceSynchronize). Device-global.
func (b *Backend) Sync() error {
	if err := b.enter("Sync"); err != nil {
		return err
	}
	defer b.leave()
	return b.status(C.g16_sync(b.dev))
}

// Memory reports the memory limit (or the device's size), the bytes held by
// live buffers and the MSM's scratch, and the bytes the pool caches.
func (b *Backend) Memory() backend.MemStats {
	if b.enter("Memory") != nil {
		return backend.MemStats{}
	}
	defer b.leave()
	var capacity, inUse, cached C.int64_t
	if b.status(C.g16_memory(b.dev, &capacity, &inUse, &cached)) != nil {
		return backend.MemStats{}
	}
	return backend.MemStats{Capacity: int64(capacity), InUse: int64(inUse), Cached: int64(cached)}
}

// PeakMemory reports the most device memory the backend has had in use
// (buffers and kernels' scratch, as Memory counts InUse) since it opened or
// since the last reset; reset starts a new count from what is in use now.
// 0 when the backend is closed or lost.
func (b *Backend) PeakMemory(reset bool) int64 {
	if b.enter("PeakMemory") != nil {
		return 0
	}
	defer b.leave()
	var peak C.int64_t
	r := C.int(0)
	if reset {
		r = 1
	}
	if b.status(C.g16_memory_peak(b.dev, &peak, r)) != nil {
		return 0
	}
	return int64(peak)
}

// NewQueue creates a CUDA stream.
func (b *Backend) NewQueue() (backend.Queue, error) {
	if err := b.enter("NewQueue"); err != nil {
		return nil, err
	}
	defer b.leave()
	q := &queue{b: b}
	if err := b.status(C.g16_stream_create(b.dev, &q.s)); err != nil {
		return nil, err
	}
	return q, nil
}

// Wait blocks until the stream's work is done.
func (q *queue) Wait() error {
	if err := q.b.enter("Queue.Wait"); err != nil {
		return err
	}
	defer q.b.leave()
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed.Load() {
		return fmt.Errorf("%v: Queue.Wait: %w", q.b, backend.ErrClosed)
	}
	return q.b.status(C.g16_stream_sync(q.b.dev, q.s))
}

// Close waits for the stream's work and destroys it.
func (q *queue) Close() error {
	if err := q.b.enter("Queue.Close"); err != nil {
		return err
	}
	defer q.b.leave()
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.closed.CompareAndSwap(false, true) {
		return nil
	}
	return q.b.status(C.g16_stream_destroy(q.b.dev, q.s))
}

// span checks that count values of size bytes from byte off lie in x, op's
// argument bufArg (see backend.CheckSpan for offArg and countArg).
func (b *Backend) span(op string, x *buffer, bufArg, offArg string, off int64, countArg string, count, size int64) error {
	if err := backend.CheckSpan(bufArg, x.bytes, offArg, off, countArg, count, size); err != nil {
		return fmt.Errorf("%v: %s: %w", b, op, err)
	}
	return nil
}

// Upload copies src to dst at off through pinned staging buffers; src may
// be reused when it returns.
func (b *Backend) Upload(q backend.Queue, dst backend.Buffer, off int64, src []byte) error {
	if x, ok := dst.(*buffer); ok && x != nil && x.b == b {
		x.tables.retire(off, int64(len(src)))
	}
	return b.transfer(q, dst, off, int64(len(src)), "Upload", "dst", "src", func(s, dev unsafe.Pointer) C.g16_status {
		if len(src) == 0 {
			return C.g16_status{code: codeOK}
		}
		return C.g16_upload(b.dev, s, dev, unsafe.Pointer(&src[0]), C.int64_t(len(src)))
	})
}

// Download copies len(dst) bytes of src from off into dst, after the work
// queued on q so far.
func (b *Backend) Download(q backend.Queue, dst []byte, src backend.Buffer, off int64) error {
	return b.transfer(q, src, off, int64(len(dst)), "Download", "src", "dst", func(s, dev unsafe.Pointer) C.g16_status {
		if len(dst) == 0 {
			return C.g16_stream_sync(b.dev, s)
		}
		return C.g16_download(b.dev, s, unsafe.Pointer(&dst[0]), dev, C.int64_t(len(dst)))
	})
}

// transfer checks a copy of n bytes at byte off of buf (op's argument
// bufArg; hostArg names the host slice), ordered on q, and runs copy with
// q's stream and the device address.
func (b *Backend) transfer(q backend.Queue, buf backend.Buffer, off, n int64, op, bufArg, hostArg string, copy func(stream, dev unsafe.Pointer) C.g16_status) error {
	if err := b.enter(op); err != nil {
		return err
	}
	defer b.leave()
	s, err := b.streamOf(op, q)
	if err != nil {
		return err
	}
	x, err := b.bufferOf(op, bufArg, buf)
	if err != nil {
		return err
	}
	if err := b.span(op, x, bufArg, "off", off, hostArg, n, 1); err != nil {
		return err
	}
	return b.finish(s, b.status(copy(s, unsafe.Add(x.ptr, off))))
}

// Close waits for the device's work and releases the backend. Buffers and
// queues become invalid; later calls return backend.ErrClosed.
//
// Closing a Backend whose device was lost releases what the poisoned
// context still lets it; the next New of that device resets the device
// first. After such a reset, Close of a Backend opened before it only
// drops the host-side state (the reset freed the rest). Where the driver
// keeps the poisoned context unusable for the rest of the process, that New
// returns an error matching backend.ErrDeviceLost; a new process can use the
// GPU.
func (b *Backend) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil
	}
	b.closed = true
	var err error
	if currentEpoch(b.ord) == b.epoch {
		err = errors.Join(b.closeNTT(), b.closeTables(), b.status(C.g16_close(b.dev)))
	} else {
		C.g16_forget(b.dev)
	}
	b.dev = nil
	return err
}
