package backend

import (
	"errors"
	"fmt"
)

// ErrDeviceLost is matched (errors.Is) by every error a Backend returns
// once its device has failed in a way no later call can recover from: on a
// GPU, a sticky CUDA error (an illegal address, a launch failure) that
// poisons the context. Every later call on that Backend fails with it; the
// device works again only after the Backend is closed and a new one opened.
var ErrDeviceLost = errors.New("device lost")

// BaseAlign is the byte alignment MSMG1 and MSMG2 require of basesOff.
const BaseAlign = 16

// CheckSpan says whether count values of size bytes, from byte offset off,
// lie inside a buffer of bufBytes bytes, and returns nil when they do. The
// check cannot overflow, whatever the arguments. Otherwise the error names
// the argument at fault, offArg or countArg (the caller's parameter names,
// "basesOff", "n"), and bufArg, the buffer's; offArg "" means an offset
// that is always 0.
func CheckSpan(bufArg string, bufBytes int64, offArg string, off int64, countArg string, count, size int64) error {
	switch {
	case off < 0:
		return fmt.Errorf("%s: negative offset %d", offArg, off)
	case count < 0:
		return fmt.Errorf("%s: negative length %d", countArg, count)
	case size <= 0:
		return fmt.Errorf("internal error: element size %d", size)
	case off > bufBytes:
		return fmt.Errorf("%s: offset %d beyond the %d-byte %s buffer", offArg, off, bufBytes, bufArg)
	case count > (bufBytes-off)/size:
		return fmt.Errorf("%s: %d values of %d bytes at offset %d overrun the %d-byte %s buffer",
			countArg, count, size, off, bufBytes, bufArg)
	}
	return nil
}
