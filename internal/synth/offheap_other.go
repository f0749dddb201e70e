//go:build !linux

package synth

// offHeapMapped says that offHeap's values lie outside the Go heap: not
// here.
const offHeapMapped = false

// offHeap returns n zero values. Off Linux they are ordinary Go memory.
func offHeap[T any](n int) ([]T, error) {
	return make([]T, n), nil
}
