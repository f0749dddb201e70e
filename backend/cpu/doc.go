// Package cpu is the reference Backend: NTTs and MSMs from gnark-crypto,
// run on the host, behind a model of device memory.
//
// The model is what lets plain CI reproduce the scheduling failures that
// package pool guards against (see the design notes, docs/design.md):
//
//   - A capacity (WithCapacity; default unlimited) bounds what the device
//     holds: live buffers plus bytes cached by the pool.
//   - Alloc draws from a caching pool, as cudaMallocAsync does. Free returns
//     the bytes to the pool, where they stay held until TrimPool. A pooled
//     allocation may reuse cached bytes.
//   - AllocDirect is cudaMalloc: it cannot use cached bytes, so it fails
//     while the pool caches what it would need, and succeeds after a trim.
//     Freeing a direct buffer waits, as cudaFree does, for every operation
//     in flight on the device.
//   - An MSM takes scratch from the pool while it runs (WithMSMScratch;
//     by default what the CUDA backend's MSM takes, about 320 bytes a
//     point for passes of up to 2^25 points), reported by Scratch; when it
//     does not fit, the MSM runs in shorter passes.
//   - Sync waits for every operation in flight on the device, started from
//     any goroutine on any queue.
//
// Operations run in the calling goroutine; a Queue therefore never holds
// unfinished work, and its Wait only reports errors. WithHook runs a
// function before each operation, to inject faults or simulated latency in
// tests.
//
// An MSM sets the terms whose scalar is 0 or ±1 apart: the zeros drop out,
// the ±1 terms are summed with batched affine additions (one field
// inversion for a batch, sumsigned.go), and gnark-crypto's MultiExp takes
// the small scalars (below 2^16: bytes, limbs) and then the others, each
// set compacted and on its own. The result is the same group element.
//
// Two choices trade the host's memory for speed (hostsched.go): whether a
// proof's MSMs run side by side, as gnark's prover runs them, or one at a
// time (HostSchedule, which package groth16 asks and names in
// PhaseTimes.Plan), and whether a transform's domain above 2^18 keeps its
// twiddle and coset tables. Both are taken when the host memory budget
// (WithHostMemory; by default what the host has available) has the room,
// the MSMs side by side only with 8 tasks or more; the results are the
// same either way.
//
// The field and curve arithmetic is gnark-crypto's. Execution time depends
// on the inputs.
package cpu
