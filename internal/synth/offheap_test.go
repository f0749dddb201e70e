package synth

import (
	"runtime"
	"slices"
	"testing"
)

// TestKeyOutsideHeap: the key drawn outside the Go heap has Key's bases,
// point for point, and the rest of its fields; the bytes it reports are
// its five vectors' on Linux, where the Go heap does not hold them, and 0
// elsewhere.
func TestKeyOutsideHeap(t *testing.T) {
	_, s, _ := testKeySource(t)
	want, err := s.Key()
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	got, bytes, err := s.KeyOutsideHeap()
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.GC() // the conversion scratch pools' victims too
	runtime.ReadMemStats(&after)
	if !slices.Equal(got.G1.A, want.G1.A) || !slices.Equal(got.G1.B, want.G1.B) || !slices.Equal(got.G1.K, want.G1.K) ||
		!slices.Equal(got.G1.Z, want.G1.Z) || !slices.Equal(got.G2.B, want.G2.B) {
		t.Fatal("the bases outside the heap differ from Key's")
	}
	if !got.G1.Alpha.Equal(&want.G1.Alpha) || !got.G2.Delta.Equal(&want.G2.Delta) || len(got.CommitmentKeys) != len(want.CommitmentKeys) ||
		len(got.InfinityA) != len(want.InfinityA) || got.Domain.Cardinality != want.Domain.Cardinality {
		t.Fatal("the key outside the heap has other fields than Key's")
	}
	wantBytes := int64(len(want.G1.A)+len(want.G1.B)+len(want.G1.K)+len(want.G1.Z))*96 + int64(len(want.G2.B))*192
	if !offHeapMapped {
		wantBytes = 0 // the vectors are Go memory: nothing to take off a memory limit
	}
	if bytes != wantBytes {
		t.Errorf("KeyOutsideHeap reports %d bytes outside the heap, want %d", bytes, wantBytes)
	}
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); runtime.GOOS == "linux" && grew > bytes/2 {
		t.Errorf("the Go heap grew by %d bytes for %d bytes of bases outside it", grew, bytes)
	}
	runtime.KeepAlive(got)
}
