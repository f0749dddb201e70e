package cpu

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/g16prover/g16/backend"
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

// randomBytes is n bytes from rng, none of them all zero in a row of 8.
func randomBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32()) | 1
	}
	return b
}

// TestCopy: Copy between buffers and within one copies the span and
// nothing else, on a queue and on the nil queue; a destination holding
// spans read in place from the caller's memory (UploadReadOnly) takes the
// copy in its own memory, beside those spans or over one, and the caller's
// memory is never written; the hook sees each Copy with its bytes; bad
// calls fail before the hook runs and leave dst as it was.
func TestCopy(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 5))
	var hooked atomic.Int64
	var calls atomic.Int32
	b := MustNew(WithTasks(3), WithHook(func(op Op, size int64) error {
		if op == OpCopy {
			calls.Add(1)
			hooked.Add(size)
		}
		return nil
	}))
	defer b.Close()
	q, err := b.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	const size = 3*minCopyPerTask + 4321 // copied by three tasks
	srcData := randomBytes(rng, size)
	alloc := func(n int64) backend.Buffer {
		x, err := b.Alloc(q, n)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	download := func(x backend.Buffer) []byte {
		got := make([]byte, x.Bytes())
		if err := b.Download(q, got, x, 0); err != nil {
			t.Fatal(err)
		}
		return got
	}
	src := alloc(size)
	if err := b.Upload(q, src, 0, srcData); err != nil {
		t.Fatal(err)
	}

	// Between buffers, on q and on the nil queue.
	dstData := randomBytes(rng, size+100)
	dst := alloc(size + 100)
	if err := b.Upload(q, dst, 0, dstData); err != nil {
		t.Fatal(err)
	}
	want := append([]byte(nil), dstData...)
	if err := b.Copy(q, dst, 57, src, 11, size-11); err != nil {
		t.Fatal(err)
	}
	copy(want[57:], srcData[11:])
	if err := b.Copy(nil, dst, 0, src, 0, 5); err != nil {
		t.Fatal(err)
	}
	copy(want, srcData[:5])
	if err := q.Wait(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(download(dst), want) {
		t.Fatalf("seed %d: dst differs from the copies of src", seed)
	}
	if !bytes.Equal(download(src), srcData) {
		t.Fatalf("seed %d: Copy changed src", seed)
	}
	if c, h := calls.Load(), hooked.Load(); c != 2 || h != size-11+5 {
		t.Errorf("the hook saw %d copies of %d bytes, want 2 of %d", c, h, size-11+5)
	}

	// Within one buffer: spans that meet without overlapping.
	if err := b.Copy(q, dst, 0, dst, 64, 64); err != nil {
		t.Fatal(err)
	}
	copy(want[:64], want[64:128])
	if !bytes.Equal(download(dst), want) {
		t.Fatalf("seed %d: a copy within the buffer wrote other bytes", seed)
	}

	// Beside and over spans read in place: the caller's bytes stay as
	// they are, the buffer reads the copy.
	host := randomBytes(rng, 256)
	hostCopy := append([]byte(nil), host...)
	viewed := alloc(512)
	if err := b.UploadReadOnly(q, viewed, 0, host); err != nil {
		t.Fatal(err)
	}
	if err := b.Copy(q, viewed, 256, src, 0, 256); err != nil {
		t.Fatal(err)
	}
	if err := b.Copy(q, viewed, 16, src, 300, 32); err != nil {
		t.Fatal(err)
	}
	wantViewed := append(append([]byte(nil), host...), srcData[:256]...)
	copy(wantViewed[16:], srcData[300:332])
	if !bytes.Equal(download(viewed), wantViewed) {
		t.Fatalf("seed %d: a buffer with a read-only span reads other bytes than the copies", seed)
	}
	if !bytes.Equal(host, hostCopy) {
		t.Fatalf("seed %d: Copy wrote the caller's memory behind a read-only span", seed)
	}

	// Bad calls: an error naming Copy and the argument, no hook call, dst
	// unchanged.
	calls.Store(0)
	freed := alloc(64)
	if err := b.Free(q, freed); err != nil {
		t.Fatal(err)
	}
	closed, err := b.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	closed.Close()
	for _, c := range []struct {
		name           string
		q              backend.Queue
		dst            backend.Buffer
		dstOff, srcOff int64
		n              int64
		arg            string
	}{
		{"negative bytes", q, dst, 0, 0, -1, "bytes:"},
		{"negative dstOff", q, dst, -1, 0, 8, "dstOff:"},
		{"negative srcOff", q, dst, 0, -8, 8, "srcOff:"},
		{"dst overrun", q, dst, size + 100 - 7, 0, 8, "bytes:"},
		{"src overrun", q, dst, 0, size - 7, 8, "bytes:"},
		{"overflowing end", q, dst, 8, 0, 1<<63 - 8, "bytes:"},
		{"overlap", q, src, 8, 0, 16, "src:"},
		{"freed dst", q, freed, 0, 0, 8, "dst:"},
		{"closed queue", closed, dst, 0, 0, 8, "q:"},
	} {
		err := b.Copy(c.q, c.dst, c.dstOff, src, c.srcOff, c.n)
		if err == nil || !strings.Contains(err.Error(), "Copy") || !strings.Contains(err.Error(), c.arg) {
			t.Errorf("%s: %v, want an error naming Copy and %q", c.name, err, c.arg)
		}
		if c.name == "closed queue" && !errors.Is(err, backend.ErrClosed) {
			t.Errorf("%s: %v, want ErrClosed", c.name, err)
		}
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("the hook saw %d of the bad copies", n)
	}
	if !bytes.Equal(download(dst), want) || !bytes.Equal(download(src), srcData) {
		t.Errorf("seed %d: a bad copy changed a buffer", seed)
	}
	if err := q.Wait(); err != nil {
		t.Errorf("q holds an error after bad calls: %v", err)
	}
}
