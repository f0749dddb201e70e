package backend

import "fmt"

// Copier is implemented by backends that copy bytes from one device buffer
// to another (or within one) on the device, without a round trip through
// the host: a prover moves h, which the H computation leaves in one
// buffer, next to the K MSM's wire values in another, so that one MSM
// computes ΣK + ΣZ over the key's adjacent K and Z bases.
type Copier interface {
	// Copy copies bytes bytes of src, from byte offset srcOff, into dst at
	// byte offset dstOff, ordered on q (cudaMemcpyAsync, device to
	// device). dst and src may be one buffer when the two spans do not
	// overlap. Bad arguments (as CheckCopy says) fail the call before any
	// work is enqueued, with an error naming the device, Copy and the
	// argument at fault.
	Copy(q Queue, dst Buffer, dstOff int64, src Buffer, srcOff int64, bytes int64) error
}

// CheckCopy says whether a Copy of n bytes from byte srcOff of a buffer of
// srcBytes bytes to byte dstOff of one of dstBytes bytes is well formed,
// and returns nil when it is: both spans inside their buffers (checked
// without overflow, whatever the arguments) and, when same says the two
// buffers are one, the spans apart. Otherwise the error names the argument
// at fault: "dstOff", "srcOff", "bytes", or "src" for overlapping spans.
func CheckCopy(dstBytes, dstOff, srcBytes, srcOff, n int64, same bool) error {
	if err := CheckSpan("dst", dstBytes, "dstOff", dstOff, "bytes", n, 1); err != nil {
		return err
	}
	if err := CheckSpan("src", srcBytes, "srcOff", srcOff, "bytes", n, 1); err != nil {
		return err
	}
	// Both spans lie in their buffers: the ends below cannot overflow.
	if same && n > 0 && srcOff < dstOff+n && dstOff < srcOff+n {
		return fmt.Errorf("src: bytes [%d, %d) overlap dst's [%d, %d) in the same buffer", srcOff, srcOff+n, dstOff, dstOff+n)
	}
	return nil
}
