// Package cuda is g16's GPU backend: a backend.Backend for one NVIDIA GPU,
// with CUDA kernels of our own for the MSMs, the NTTs and the quotient step
// of a Groth16 proof over BLS12-381, BN254, BLS12-377 or BW6-761 (Supports; every compute call
// takes the curve of its values).
//
//	gpu, err := cuda.New(0) // GPU 0 of those CUDA_VISIBLE_DEVICES shows
//	defer gpu.Close()
//	prover, err := groth16.NewProver(ccs, pk, groth16.WithBackend(gpu))
//
// groth16.NewProver without WithBackend opens every visible GPU itself
// (OpenAll). The options (WithMemoryLimit, and the MSM's tuning) and the
// methods beyond backend.Backend's are for tuning and g16's own tests and
// benchmarks.
//
// # Building
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
// from another g16 version), with an error that says to rebuild it. Without
// the tag the package still compiles, with the same API: New, DeviceCount
// and every method return ErrNotBuilt.
//
// # Guarantees
//
// Data crosses the boundary in gnark-crypto's layout: scalars are
// fr.Elements in Montgomery form (converted on the device), points are
// gnark affine points, and results come back as gnark Jacobian points.
// Every CUDA error becomes a Go error of type *Error naming the call and
// the device; running out of memory, or past the limit set with
// WithMemoryLimit, matches backend.ErrOutOfMemory. New on a GPU that
// cannot be opened (no driver, an ordinal CUDA does not know, memory short
// at open) returns "cuda:N: cannot open the device: " and the cause, having
// released what it had created. Device memory comes from a stream-ordered
// pool of the backend's own (the device's default pool, which other CUDA
// users of the process share, is left alone), or for AllocDirect from
// cudaMalloc; freed memory stays cached until TrimPool. An MSM pass that
// runs out of memory is halved and run again. Queues are CUDA streams.
//
// # Not guaranteed
//
// The MSM's running time depends on the scalars (it is not constant-time);
// Groth16 blinds the proof afterwards, so the prover's MSMs need not be.
//
// # Kernels
//
// The kernels, the tables of precomputed multiples of resident bases that
// PrecomputeBases keeps, and the files of kernels/ are described in the
// repository's docs/design.md (section 5).
package cuda
