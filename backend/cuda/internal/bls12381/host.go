package bls12381

import (
	"math/big"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// Host is the kernels' host side on this curve. It holds no state; the
// zero value is ready and safe for concurrent use.
type Host struct{}

// maxLogN is the largest transform size, 2^maxLogN, of the scalar field:
// the 2-adicity of r − 1.
var maxLogN = func() int {
	var r big.Int
	r.Sub(fr.Modulus(), big.NewInt(1))
	return int(r.TrailingZeroBits())
}()

// MaxLogN is the largest transform size, 2^MaxLogN, the scalar field has
// roots of unity for.
func (Host) MaxLogN() int { return maxLogN }

// ScalarIsZero reports whether s, one scalar, is zero.
func (Host) ScalarIsZero(s []byte) bool { return as[fr.Element](s).IsZero() }

// as views b, exactly one T long, as a T.
func as[T any](b []byte) *T {
	var zero T
	if len(b) != int(unsafe.Sizeof(zero)) {
		panic("bls12381: internal error: a value of the wrong size")
	}
	return (*T)(unsafe.Pointer(&b[0]))
}

// view views b as values of type T; len(b) is a multiple of their size.
func view[T any](b []byte) []T {
	if len(b) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/int(unsafe.Sizeof(zero)))
}

// bytesOf is the memory of s.
func bytesOf[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(zero)))
}
