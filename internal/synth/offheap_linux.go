package synth

import (
	"fmt"
	"syscall"
	"unsafe"
)

// offHeapMapped says that offHeap's values lie outside the Go heap.
const offHeapMapped = true

// offHeap returns n zero values in anonymous memory mapped outside the Go
// heap: the collector neither counts it in its heap goal nor scans it
// (the values hold no pointers). Pages are taken as they are written. It
// is never unmapped.
func offHeap[T any](n int) ([]T, error) {
	if n == 0 {
		return nil, nil
	}
	var zero T
	size := uintptr(n) * unsafe.Sizeof(zero)
	if size/unsafe.Sizeof(zero) != uintptr(n) || size > uintptr(int(^uint(0)>>1)) {
		return nil, fmt.Errorf("random key: %d values overflow the address space", n)
	}
	mem, err := syscall.Mmap(-1, 0, int(size), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, fmt.Errorf("random key: mapping %d bytes: %w", size, err)
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&mem[0])), n), nil
}
