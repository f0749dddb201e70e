// Package cuda is g16's GPU backend: a backend.Backend for one NVIDIA GPU,
// with our own CUDA kernels for BLS12-381 field and curve arithmetic, a
// Pippenger multi-scalar multiplication on G1 and G2, the NTT over Fr and the
// quotient step of the prover's H computation.
//
// It is built only with the build tag cuda, once the kernel library
// libg16cuda is installed with its pkg-config file, g16cuda.pc, which cgo
// reads (#cgo pkg-config: g16cuda):
//
//	go run github.com/g16prover/g16/cmd/g16-cuda-install [-prefix DIR]
//
// builds it with nvcc from the kernel sources of the g16 version in use and
// installs it under DIR (in the repository, `make cuda` installs it into
// kernels/build). When pkg-config reports that g16cuda is not found, run
// that command, and put DIR/lib/pkgconfig on PKG_CONFIG_PATH. New refuses
// a library built from other kernel sources than this package's (one left
// from another g16 version), with an error that says to rebuild it. Without the
// tag the package still compiles, with the same API: New, DeviceCount and
// every method return ErrNotBuilt.
//
// # Guarantees
//
// Data crosses the boundary in gnark-crypto's layout: scalars are fr.Elements
// in Montgomery form (converted on the device), points are gnark affine
// points, and results come back as gnark Jacobian points. Every CUDA error
// becomes a Go error of type *Error naming the call and the device; running
// out of memory, or past the limit set with WithMemoryLimit, matches
// backend.ErrOutOfMemory. Device memory comes from the backend's
// stream-ordered pool of its own (cudaMemPoolCreate and
// cudaMallocFromPoolAsync: the device's default pool, which other CUDA users
// of the process share, is left alone; release threshold at its maximum, so
// freed memory stays cached until TrimPool) or, for AllocDirect, from
// cudaMalloc. Scratch reports what an MSM pass takes from the pool; a pass
// that runs out of memory is halved and run again. Queues are CUDA streams.
//
// PrecomputeBases keeps a table of c copies of resident bases beside them,
// copy q holding 2^(w·q)·P (kernels/msm_table.h): MSMG1 and MSMG2 over a
// range it covers read window j from copy j mod c and reduce ⌈nw/c⌉ bucket
// sets instead of nw, with the same results. The table takes c times the
// bases' memory from the pool, is retired by an Upload (or an NTT or
// QuotientStep in place) into its range and freed with its buffer or at
// Close; it is built by default for the window WithMSMWindow set, else
// TableWindow's, and TableScratch is an MSM's scratch over it.
//
// # Not guaranteed
//
// The MSM's running time depends on the scalars (it is not constant-time);
// Groth16 blinds the proof afterwards, so the prover's MSMs need not be.
//
// # Layout
//
// kernels/ holds the CUDA sources: field.cuh (Montgomery arithmetic on 32-bit
// limbs for Fp and Fr, with double-width products and a separate reduction),
// fp2.cuh (Fp2, with lazily reduced products), curve.cuh (XYZZ point
// arithmetic), msm.cu
// (the MSM pipeline; the slot kernels in msm_slots_*.cu), msm_table.cu (the
// tables of precomputed multiples of resident bases that PrecomputeBases
// builds and the MSMs read), ntt.cu (the NTT and quotient kernels; twiddle tables
// are built in Go from gnark-crypto's generator and cached per backend until
// Close), device.cu (memory, streams, copies), and g16cuda.h, the C
// interface that cgo sees.
package cuda
