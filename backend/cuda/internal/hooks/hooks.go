// Package hooks hands the kernels' host emulation to the tests of the
// per-curve packages (internal/bls12381's cuda-tagged tests and their
// generated copies), which cannot reach package cuda's unexported test
// entry points: package cuda, built with the cuda tag, sets these at
// init; without it they stay nil. Values cross as bytes in the curve's
// gnark-crypto layout.
package hooks

import (
	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
)

var (
	// HostMSM runs the MSM pipeline of curve c's G1 (G2 with g2) on the
	// host over the affine points bases and as many scalars, with the
	// window and task cap given (0: automatic) and flags (NoSplit, Fanin8,
	// HostTail), and returns the result, a Jacobian point.
	HostMSM func(c ecc.ID, g2 bool, bases, scalars []byte, window, maxTask, flags int) ([]byte, error)

	// HostTable builds, on the host, the table of copies copies of points
	// with window w that PrecomputeBases builds on the device.
	HostTable func(c ecc.ID, g2 bool, points []byte, copies, w int) ([]byte, error)

	// HostTableMSM runs the MSM pipeline on the host over a table of
	// copies copies with window w (its stride a copy's points) for the
	// first points, one a scalar, and returns the Jacobian result.
	HostTableMSM func(c ecc.ID, g2 bool, table []byte, copies, w int, scalars []byte, maxTask, flags int) ([]byte, error)

	// HostMSMPeak runs the MSM pipeline on the host over table (copies
	// copies of stride points; 1 copy: the bases) and returns the most
	// bytes its buffers held at once, as the device's pool counts them
	// (less CUB's temporaries).
	HostMSMPeak func(c ecc.ID, g2 bool, table []byte, stride, copies, window int, scalars []byte, maxTask, flags int) (int64, error)

	// ScratchModel is the scratch the backend budgets for one MSM pass of
	// n points with the window (0: automatic), over a table of copies
	// copies (1: none), with the task cap (0: automatic); it includes
	// ScratchCUB for CUB's temporaries.
	ScratchModel func(c ecc.ID, g2 bool, n, window, copies, maxTask int) int64
	ScratchCUB   int64

	// HostNTT runs the NTT's passes on the host over data (2^spec.LogN
	// scalars, at most 2^20), with the pass shape maxK, logBlock, threads
	// (0: the kernels' defaults).
	HostNTT func(data []byte, spec backend.NTTSpec, maxK, logBlock, threads int) error

	// HostQuotient runs QuotientStep's kernel on the host: a[i] =
	// (a[i]·b[i] − c[i])·zInv over scalars of curve cv.
	HostQuotient func(cv ecc.ID, a, b, c, zInv []byte) error

	// The MSM flags of g16cuda.h: no 0/1 split, fan-in 8 reduction, the
	// last pairs summed on the host.
	NoSplit, Fanin8, HostTail int
)
