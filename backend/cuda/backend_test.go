//go:build cuda

package cuda

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/g16prover/g16/backend"
)

// TestMemoryAndCopies: pooled and direct allocations, copies larger than
// the staging buffers, the accounting, and errors after Close.
func TestMemoryAndCopies(t *testing.T) {
	b := newTestBackend(t)
	rng := testRand(t)
	q, err := b.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	const size = 80<<20 + 12345 // several staging chunks and a ragged tail
	src := make([]byte, size)
	for i := range src {
		src[i] = byte(rng.Uint32())
	}
	for _, direct := range []bool{false, true} {
		var buf backend.Buffer
		if direct {
			buf, err = b.AllocDirect(size + 100)
		} else {
			buf, err = b.Alloc(q, size+100)
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Upload(q, buf, 100, src); err != nil {
			t.Fatal(err)
		}
		got := make([]byte, size)
		if err := b.Download(q, got, buf, 100); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, src) {
			t.Fatalf("direct=%v: download differs from upload", direct)
		}
		if st := b.Memory(); st.InUse != size+100 {
			t.Errorf("InUse = %d, want %d", st.InUse, size+100)
		}
		if err := b.Upload(q, buf, 101, src); err == nil {
			t.Errorf("upload past the end succeeded")
		}
		if err := b.Free(q, buf); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.Wait(); err != nil {
		t.Fatal(err)
	}
	if st := b.Memory(); st.InUse != 0 || st.Cached < size {
		t.Errorf("after frees: %+v, want nothing in use and the pooled buffer cached", st)
	}
	if err := b.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := b.TrimPool(0); err != nil {
		t.Fatal(err)
	}
	if st := b.Memory(); st.Cached != 0 {
		t.Errorf("after TrimPool(0): %+v", st)
	}
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	if err := q.Wait(); !errors.Is(err, backend.ErrClosed) {
		t.Errorf("Wait on a closed queue: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Alloc(nil, 8); !errors.Is(err, backend.ErrClosed) || !strings.Contains(err.Error(), "cuda:0") {
		t.Errorf("Alloc after Close: %v", err)
	}
}

// TestNoSuchDevice: an error naming the device, not a crash.
func TestNoSuchDevice(t *testing.T) {
	newTestBackend(t)
	if _, err := New(1000); err == nil || !strings.Contains(err.Error(), "cuda:1000") {
		t.Errorf("New(1000): %v", err)
	}
}
