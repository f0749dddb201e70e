package cpu

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
)

// Op names an operation, as passed to a Hook.
type Op string

// The operations a Hook sees.
const (
	OpAlloc        Op = "Alloc"
	OpAllocDirect  Op = "AllocDirect"
	OpFree         Op = "Free"
	OpTrimPool     Op = "TrimPool"
	OpSync         Op = "Sync"
	OpUpload       Op = "Upload"
	OpDownload     Op = "Download"
	OpNTT          Op = "NTT"
	OpQuotientStep Op = "QuotientStep"
	OpMSMG1        Op = "MSMG1"
	OpMSMG2        Op = "MSMG2"
	OpScratch      Op = "Scratch" // an MSM pass taking its scratch memory
	OpSupports     Op = "Supports"
)

// Hook runs before each operation with its name and size (bytes for memory
// operations, elements for compute). A non-nil error fails the operation.
type Hook func(op Op, size int64) error

// Option configures a Backend.
type Option func(*config) error

type config struct {
	id       int
	capacity int64
	tasks    int
	hook     Hook

	// The MSM's modelled scratch: perPoint bytes for each point of a pass
	// of at most pass points.
	scratchPerPoint int64
	scratchPass     int

	// hostMemory is the host memory the schedule plans against
	// (hostsched.go); 0: what the host has available.
	hostMemory int64
}

// WithCapacity sets the device's memory capacity in bytes (0: unlimited).
func WithCapacity(bytes int64) Option {
	return func(c *config) error {
		if bytes < 0 {
			return fmt.Errorf("cpu: WithCapacity(%d): capacity must not be negative", bytes)
		}
		c.capacity = bytes
		return nil
	}
}

// WithID sets the device number used in the backend's name ("cpu:ID").
func WithID(id int) Option {
	return func(c *config) error {
		if id < 0 {
			return fmt.Errorf("cpu: WithID(%d): id must not be negative", id)
		}
		c.id = id
		return nil
	}
}

// WithTasks sets how many goroutines one MSM or NTT may use (default: the
// number of CPUs).
func WithTasks(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("cpu: WithTasks(%d): need at least one task", n)
		}
		c.tasks = n
		return nil
	}
}

// WithHook runs h before every operation.
func WithHook(h Hook) Option {
	return func(c *config) error {
		c.hook = h
		return nil
	}
}

// Backend is the CPU backend. The zero value is not usable; call New.
type Backend struct {
	cfg  config
	name string

	mu       sync.Mutex
	cond     *sync.Cond // signalled when inflight drops to zero
	inflight int
	closed   bool
	lost     error // the hook's ErrDeviceLost error, once one was injected
	inUse    int64
	cached   int64

	kernels   map[ecc.ID]kernels // by curve
	msmActive atomic.Int32       // MSMs running now
}

var _ backend.Backend = (*Backend)(nil)

// New returns a CPU backend.
func New(opts ...Option) (*Backend, error) {
	cfg := config{tasks: runtime.NumCPU(), scratchPerPoint: DefaultMSMScratch, scratchPass: DefaultMSMPass}
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	b := &Backend{cfg: cfg, name: fmt.Sprintf("cpu:%d", cfg.id), kernels: newKernels()}
	b.cond = sync.NewCond(&b.mu)
	return b, nil
}

// MustNew is New for callers whose options cannot fail.
func MustNew(opts ...Option) *Backend {
	b, err := New(opts...)
	if err != nil {
		panic(err)
	}
	return b
}

func (b *Backend) String() string { return b.name }

// HostBound is true: the CPU backend computes on the host's cores.
func (b *Backend) HostBound() bool { return true }

// errorf is an error naming the device and op; format's %w wraps as
// fmt.Errorf's does.
func (b *Backend) errorf(op Op, format string, args ...any) error {
	return fmt.Errorf("%s: %s: "+format, append([]any{b.name, op}, args...)...)
}

// begin registers an operation as in flight and runs the hook. The caller
// must call end if begin returns nil. A hook error that matches
// backend.ErrDeviceLost loses the device: every later operation fails
// with it.
func (b *Backend) begin(op Op, size int64) error {
	b.mu.Lock()
	if err := b.usableLocked(op); err != nil {
		b.mu.Unlock()
		return err
	}
	b.inflight++
	b.mu.Unlock()
	if b.cfg.hook != nil {
		if err := b.cfg.hook(op, size); err != nil {
			err = fmt.Errorf("%s: %s: %w", b.name, op, err)
			if errors.Is(err, backend.ErrDeviceLost) {
				b.mu.Lock()
				if b.lost == nil {
					b.lost = err
				}
				b.mu.Unlock()
			}
			b.end()
			return err
		}
	}
	return nil
}

// usableLocked fails when the device is closed or lost.
func (b *Backend) usableLocked(op Op) error {
	switch {
	case b.closed:
		return fmt.Errorf("%s: %s: %w", b.name, op, backend.ErrClosed)
	case b.lost != nil:
		return fmt.Errorf("%s: %s: %w since: %v", b.name, op, backend.ErrDeviceLost, b.lost)
	}
	return nil
}

func (b *Backend) end() {
	b.mu.Lock()
	b.inflight--
	if b.inflight == 0 {
		b.cond.Broadcast()
	}
	b.mu.Unlock()
}

// buffer is device memory: a Go allocation of 8-byte words, made when
// something first writes or reads the buffer outside its views
// (hostview.go).
type buffer struct {
	owner  *Backend
	bytes  int64
	pooled bool
	freed  atomic.Bool

	mu    sync.Mutex
	words []uint64   // nil until made
	views []hostView // spans read in place from the caller's memory
}

func (x *buffer) Bytes() int64 { return x.bytes }

// data is the buffer's own memory, all of it.
func (x *buffer) data() []byte { return x.span(0, x.bytes) }

// own returns buf, the argument named arg of op, as this device's buffer.
func (b *Backend) own(op Op, arg string, buf backend.Buffer) (*buffer, error) {
	x, ok := buf.(*buffer)
	switch {
	case buf == nil || (ok && x == nil):
		return nil, b.errorf(op, "%s: nil buffer", arg)
	case !ok || x.owner != b:
		return nil, b.errorf(op, "%s: buffer %T does not belong to this device", arg, buf)
	case x.freed.Load():
		return nil, b.errorf(op, "%s: buffer used after Free", arg)
	}
	return x, nil
}

// Alloc takes bytes from the pool: cached bytes first, then new capacity.
func (b *Backend) Alloc(q backend.Queue, bytes int64) (backend.Buffer, error) {
	if err := b.checkQueue(OpAlloc, q); err != nil {
		return nil, err
	}
	return b.alloc(OpAlloc, bytes, true)
}

// AllocDirect takes bytes that the pool does not cache.
func (b *Backend) AllocDirect(bytes int64) (backend.Buffer, error) {
	return b.alloc(OpAllocDirect, bytes, false)
}

func (b *Backend) alloc(op Op, bytes int64, pooled bool) (backend.Buffer, error) {
	if bytes < 0 {
		return nil, b.errorf(op, "bytes: negative size %d", bytes)
	}
	if err := b.begin(op, bytes); err != nil {
		return nil, err
	}
	defer b.end()
	b.mu.Lock()
	capacity := b.cfg.capacity
	if limit := hostMemory(); (capacity == 0 || capacity > limit) && bytes > limit {
		// Beyond the host's memory a Go allocation would kill the
		// process instead of failing.
		b.mu.Unlock()
		return nil, fmt.Errorf("%s: %s: bytes: %d: %w (the host has %d bytes)",
			b.name, op, bytes, backend.ErrOutOfMemory, limit)
	}
	if pooled {
		// The pool reuses its cache: only bytes beyond it are new.
		fresh := bytes - min(bytes, b.cached)
		if capacity > 0 && b.inUse+b.cached+fresh > capacity {
			st := b.memLocked()
			b.mu.Unlock()
			return nil, fmt.Errorf("%s: Alloc(%d): %w (in use %d, cached %d, capacity %d)",
				b.name, bytes, backend.ErrOutOfMemory, st.InUse, st.Cached, st.Capacity)
		}
		b.cached -= bytes - fresh
	} else if capacity > 0 && b.inUse+b.cached+bytes > capacity {
		st := b.memLocked()
		b.mu.Unlock()
		return nil, fmt.Errorf("%s: AllocDirect(%d): %w (in use %d, cached by the pool %d, capacity %d)",
			b.name, bytes, backend.ErrOutOfMemory, st.InUse, st.Cached, st.Capacity)
	}
	b.inUse += bytes
	b.mu.Unlock()
	return &buffer{owner: b, bytes: bytes, pooled: pooled}, nil
}

// Free returns a pooled buffer's bytes to the pool's cache, and a direct
// buffer's to the device.
func (b *Backend) Free(q backend.Queue, buf backend.Buffer) error {
	if err := b.checkQueue(OpFree, q); err != nil {
		return err
	}
	x, err := b.own(OpFree, "buf", buf)
	if err != nil {
		return err
	}
	b.mu.Lock()
	err = b.usableLocked(OpFree)
	b.mu.Unlock()
	if err != nil {
		return err
	}
	if !x.freed.CompareAndSwap(false, true) {
		return b.errorf(OpFree, "buf: buffer freed twice")
	}
	b.mu.Lock()
	if !x.pooled {
		// cudaFree waits for the whole device.
		for b.inflight > 0 {
			b.cond.Wait()
		}
	}
	b.inUse -= x.bytes
	if x.pooled {
		b.cached += x.bytes
	}
	b.mu.Unlock()
	x.release()
	return nil
}

// TrimPool releases cached bytes until at most keep remain.
func (b *Backend) TrimPool(keep int64) error {
	if keep < 0 {
		return b.errorf(OpTrimPool, "keep: negative size %d", keep)
	}
	if err := b.begin(OpTrimPool, keep); err != nil {
		return err
	}
	defer b.end()
	b.mu.Lock()
	b.cached = min(b.cached, keep)
	b.mu.Unlock()
	return nil
}

// Sync waits until no operation is in flight on the device.
func (b *Backend) Sync() error {
	if err := b.begin(OpSync, 0); err != nil {
		return err
	}
	b.mu.Lock()
	b.inflight-- // Sync does not wait for itself
	for b.inflight > 0 {
		b.cond.Wait()
	}
	b.inflight++
	b.mu.Unlock()
	b.end()
	return nil
}

// Memory reports the device's accounting.
func (b *Backend) Memory() backend.MemStats {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.memLocked()
}

func (b *Backend) memLocked() backend.MemStats {
	return backend.MemStats{Capacity: b.cfg.capacity, InUse: b.inUse, Cached: b.cached}
}

// queue records the first error of its operations.
type queue struct {
	owner *Backend
	mu    sync.Mutex
	err   error
	shut  bool
}

func (q *queue) Wait() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.err
}

func (q *queue) Close() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.shut = true
	return q.err
}

func (q *queue) fail(err error) error {
	q.mu.Lock()
	if q.err == nil {
		q.err = err
	}
	q.mu.Unlock()
	return err
}

// NewQueue returns a queue on this device.
func (b *Backend) NewQueue() (backend.Queue, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.usableLocked("NewQueue"); err != nil {
		return nil, err
	}
	return &queue{owner: b}, nil
}

// checkQueue fails when q, op's queue argument, is neither nil (the
// device's own queue) nor an open queue of this device.
func (b *Backend) checkQueue(op Op, q backend.Queue) error {
	if q == nil {
		return nil
	}
	qq, ok := q.(*queue)
	switch {
	case ok && qq == nil:
		return b.errorf(op, "q: nil *queue")
	case !ok || qq.owner != b:
		return b.errorf(op, "q: queue %T does not belong to this device", q)
	}
	qq.mu.Lock()
	shut := qq.shut
	qq.mu.Unlock()
	if shut {
		return fmt.Errorf("%s: %s: q: %w", b.name, op, backend.ErrClosed)
	}
	return nil
}

// run executes one operation on q (checked by checkQueue): in flight from
// begin to end, its error recorded on q.
func (b *Backend) run(q backend.Queue, op Op, size int64, f func() error) error {
	fail := func(err error) error { return err }
	if qq, ok := q.(*queue); ok {
		fail = qq.fail
	}
	if err := b.begin(op, size); err != nil {
		return fail(err)
	}
	defer b.end()
	if err := f(); err != nil {
		return fail(err)
	}
	return nil
}

// uploadTarget checks an upload's queue and its span of dst, and returns
// dst's buffer.
func (b *Backend) uploadTarget(q backend.Queue, dst backend.Buffer, off int64, src []byte) (*buffer, error) {
	if err := b.checkQueue(OpUpload, q); err != nil {
		return nil, err
	}
	x, err := b.own(OpUpload, "dst", dst)
	if err != nil {
		return nil, err
	}
	if err := backend.CheckSpan("dst", x.bytes, "off", off, "src", int64(len(src)), 1); err != nil {
		return nil, b.errorf(OpUpload, "%v", err)
	}
	return x, nil
}

// Upload copies src into dst at byte offset off.
func (b *Backend) Upload(q backend.Queue, dst backend.Buffer, off int64, src []byte) error {
	x, err := b.uploadTarget(q, dst, off, src)
	if err != nil {
		return err
	}
	return b.run(q, OpUpload, int64(len(src)), func() error {
		copyParallel(x.data()[off:], src, b.cfg.tasks)
		return nil
	})
}

// Download copies len(dst) bytes of src from byte offset off.
func (b *Backend) Download(q backend.Queue, dst []byte, src backend.Buffer, off int64) error {
	if err := b.checkQueue(OpDownload, q); err != nil {
		return err
	}
	x, err := b.own(OpDownload, "src", src)
	if err != nil {
		return err
	}
	if err := backend.CheckSpan("src", x.bytes, "off", off, "dst", int64(len(dst)), 1); err != nil {
		return b.errorf(OpDownload, "%v", err)
	}
	return b.run(q, OpDownload, int64(len(dst)), func() error {
		copyParallel(dst, x.data()[off:off+int64(len(dst))], b.cfg.tasks)
		return nil
	})
}

// Close marks the device closed after waiting for its operations.
func (b *Backend) Close() error {
	b.mu.Lock()
	for b.inflight > 0 {
		b.cond.Wait()
	}
	b.closed = true
	b.mu.Unlock()
	return nil
}

// span returns the bytes of n values of size bytes stored in x, op's
// argument bufArg, from byte offset off (argument offArg, a multiple of
// backend.BaseAlign; "" when always 0); n is argument countArg.
func (b *Backend) span(op Op, x *buffer, bufArg, offArg string, off int64, countArg string, n int, size int64) ([]byte, error) {
	if err := backend.CheckSpan(bufArg, x.bytes, offArg, off, countArg, int64(n), size); err != nil {
		return nil, b.errorf(op, "%v", err)
	}
	if off%backend.BaseAlign != 0 {
		return nil, b.errorf(op, "%s: offset %d is not a multiple of %d", offArg, off, backend.BaseAlign)
	}
	if n == 0 {
		return nil, nil
	}
	return x.span(off, int64(n)*size), nil
}

// scalars returns the first n (argument countArg) scalars of buf, op's
// argument arg, each size bytes.
func (b *Backend) scalars(op Op, arg string, buf backend.Buffer, countArg string, n int, size int64) ([]byte, error) {
	x, err := b.own(op, arg, buf)
	if err != nil {
		return nil, err
	}
	return b.span(op, x, arg, "", 0, countArg, n, size)
}
