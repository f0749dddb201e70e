package backend

import "github.com/consensys/gnark-crypto/ecc"

// Gatherer is implemented by backends that pick field elements by index
// on the device. A prover whose wire vector W is on the device already
// builds an MSM's scalars from it with an index list, rather than
// filtering the wires on the host and uploading that MSM's own copy.
type Gatherer interface {
	// Gather sets dst[i] = src[idx[i]] for i < n, ordered on q: dst and src
	// hold scalars of curve c and idx uint32 indices, each from byte 0; dst
	// must not be src or idx. Every idx[i] must be below src's element
	// count (src.Bytes() / the curve's FrBytes): the CPU backend fails the call for one
	// that is not, before it writes dst; the CUDA backend, which does not
	// read the indices before its kernel runs, writes zero there and reads
	// nothing past src.
	Gather(q Queue, c ecc.ID, dst, src, idx Buffer, n int) error
}

// IndexBytes is the size of one index of a Gather list.
const IndexBytes = int64(4)
