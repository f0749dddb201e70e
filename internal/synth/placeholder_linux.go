package synth

import (
	"fmt"
	"syscall"
	"unsafe"
)

// placeholder returns n values of zero in read-only address space that no
// page backs until it is read (and then the kernel's shared zero page): a
// vector that has its length and takes no memory. It is never unmapped.
func placeholder[T any](n int) ([]T, error) {
	if n == 0 {
		return nil, nil
	}
	var zero T
	size := uintptr(n) * unsafe.Sizeof(zero)
	if size/unsafe.Sizeof(zero) != uintptr(n) {
		return nil, fmt.Errorf("random key: %d placeholder values overflow the address space", n)
	}
	mem, err := syscall.Mmap(-1, 0, int(size), syscall.PROT_READ, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		return nil, fmt.Errorf("random key: reserving %d bytes of address space: %w", size, err)
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&mem[0])), n), nil
}
