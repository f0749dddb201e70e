//go:build cuda

package cuda

import (
	"fmt"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
)

// Supports returns nil for BLS12-381 and an error matching
// backend.ErrUnsupportedCurve for any other curve.
func (b *Backend) Supports(c ecc.ID) error { return b.supportsArg("Supports", "curve", c) }

func (b *Backend) supports(op string, c ecc.ID) error { return b.supportsArg(op, "curve", c) }

// supportsArg is nil when op's argument arg, the curve c, is one the
// kernels compute on.
func (b *Backend) supportsArg(op, arg string, c ecc.ID) error {
	if err := SupportsCurve(c); err != nil {
		return fmt.Errorf("%v: %s: %s: %w", b, op, arg, err)
	}
	return nil
}

// SupportsCurve returns nil when the kernels compute on the curve c
// (BLS12-381), and otherwise an error matching backend.ErrUnsupportedCurve,
// without opening a device.
func SupportsCurve(c ecc.ID) error {
	if c != kernelCurve {
		return fmt.Errorf("%s: %w (the CUDA kernels compute on %s)", curve.Name(c), backend.ErrUnsupportedCurve, curve.Name(kernelCurve))
	}
	return nil
}

// resultOf checks an MSM's curve and result bytes and returns where the
// result goes: a G1 (or, with g2, G2) Jacobian point of kernelCurve.
func (b *Backend) resultOf(op string, c ecc.ID, out []byte, g2 bool) (unsafe.Pointer, error) {
	if err := b.supports(op, c); err != nil {
		return nil, err
	}
	p := curve.Must(c)
	want := p.G1JacBytes
	if g2 {
		want = p.G2JacBytes
	}
	if out == nil {
		return nil, fmt.Errorf("%v: %s: out: nil result", b, op)
	}
	if int64(len(out)) != want {
		return nil, fmt.Errorf("%v: %s: out: %d bytes, a %s Jacobian point takes %d", b, op, len(out), p.Name, want)
	}
	return unsafe.Pointer(&out[0]), nil
}
