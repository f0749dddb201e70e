package cpu

import (
	"unsafe"

	"github.com/g16prover/g16/backend"
)

// hostView is a span of a buffer, [off, off+len(src)), whose bytes are the
// caller's memory src, read in place (UploadReadOnly).
type hostView struct {
	off int64
	src []byte
}

// UploadReadOnly is Upload under backend.ReadOnlyUploader's promise: src is
// not copied but read in place for as long as dst lives, so that a proving
// key on this device does not take host memory twice. The device's
// accounting counts dst in full all the same. src is copied instead when
// dst's own memory already exists, when the span overlaps an earlier
// view, or when src is not 8-byte aligned.
func (b *Backend) UploadReadOnly(q backend.Queue, dst backend.Buffer, off int64, src []byte) error {
	x, err := b.uploadTarget(q, dst, off, src)
	if err != nil {
		return err
	}
	return b.run(q, OpUpload, int64(len(src)), func() error {
		if len(src) == 0 {
			return nil
		}
		x.mu.Lock()
		defer x.mu.Unlock()
		if x.words != nil || off%8 != 0 || uintptr(unsafe.Pointer(&src[0]))%8 != 0 || x.overlapsLocked(off, int64(len(src))) {
			copy(x.memLocked()[off:], src)
			return nil
		}
		x.views = append(x.views, hostView{off: off, src: src[:len(src):len(src)]})
		return nil
	})
}

// span returns the buffer's bytes [off, off+n), n > 0: the caller's memory
// when a view holds the whole span, else the buffer's own memory (made,
// with the views copied in, if it was not yet).
func (x *buffer) span(off, n int64) []byte {
	if n <= 0 {
		return nil
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.words == nil {
		for _, v := range x.views {
			if off >= v.off && off+n <= v.off+int64(len(v.src)) {
				return v.src[off-v.off : off-v.off+n]
			}
		}
	}
	return x.memLocked()[off : off+n]
}

// memLocked returns the buffer's own memory, making it on first use from
// the views, which it then replaces.
func (x *buffer) memLocked() []byte {
	if x.words == nil {
		x.words = make([]uint64, (x.bytes+7)/8)
		mem := unsafe.Slice((*byte)(unsafe.Pointer(&x.words[0])), x.bytes)
		for _, v := range x.views {
			copy(mem[v.off:], v.src)
		}
		x.views = nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&x.words[0])), x.bytes)
}

// overlapsLocked reports whether [off, off+n) meets a view.
func (x *buffer) overlapsLocked(off, n int64) bool {
	for _, v := range x.views {
		if off < v.off+int64(len(v.src)) && v.off < off+n {
			return true
		}
	}
	return false
}

// release drops the buffer's memory and views (Free).
func (x *buffer) release() {
	x.mu.Lock()
	x.words, x.views = nil, nil
	x.mu.Unlock()
}
