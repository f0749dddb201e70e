// Package pool schedules many jobs (proof partitions) over one or more
// compute devices, written once against backend.Backend.
//
// Solvers run Job.Prepare (solving the circuit), as many at once as
// WithSolvers says or, by default, as the measured prepare and compute
// times call for, up to a quarter of the host's CPUs (solve.go). WithHostSlots bounds
// how many jobs are prepared and not yet finished at once, so that their
// host memory (a solved partition's vectors) stays within what the host
// has: a solver waits for a slot. Each device runs N
// workers (WithWorkers, default 2) that take prepared jobs, and has two
// regions, each held by at most one worker at a time:
//
//   - the staging region, where a worker allocates its job's buffers from
//     the device's caching pool and uploads the job's inputs while another
//     worker computes;
//   - the compute region, where the device work runs, and where the
//     fallback runs when staging was skipped.
//
// The rules, from the design notes (docs/design.md: the failures of the
// scheduler that inspired g16):
//
//   - Sync, TrimPool and the Free of a direct (AllocDirect) buffer are
//     device-global. The pool calls them only while holding the compute
//     region (or when the device is idle at the end of a Run), never while
//     holding only the staging region: staging frees only pooled idle sets.
//   - Staging calls Alloc directly: no free-memory probing, no Sync. If
//     Alloc reports backend.ErrOutOfMemory, staging is skipped.
//   - Admission is by budget (WithMemoryBudget; default: the device's
//     capacity less what is in use at the start, less a margin). The budget
//     counts the resident state, the scratch its jobs' kernels take while
//     one computes (Resident.Scratch, reserved once per device) and every
//     buffer set. Staging is attempted only when the budget says the job's
//     buffers fit beside everything the device already holds for the Run;
//     otherwise the worker waits, outside both regions, for a running job
//     to release its buffers. Resident.Fit chooses the resident state per
//     device from its budget (a key streamed rather than resident, say).
//   - Buffers are kept per device and reused by the next job of the same
//     sizes, so a steady batch allocates only its first sets.
//   - The fallback, inside the compute region: take an idle set of buffers
//     if one fits; otherwise release idle sets, Sync, TrimPool, and
//     AllocDirect; then upload and compute. A compute that runs out of
//     memory is run again there after the same trim, then through the
//     fallback once other jobs release memory. A fallback is slower, never
//     an error the caller sees while a smaller plan exists.
//   - Host work (Job.Prepare, Job.Finish) runs outside both regions, so it
//     overlaps device work. Device work inside Prepare (groth16's BSB22
//     commitment MSMs, which the solve waits for) keeps to a queue of its
//     own and to memory allocated before the Run: it never allocates,
//     frees, syncs or trims while the Run holds the device, so it needs
//     no region.
//
// Jobs go to whichever device has a free worker. A job whose device work
// fails is retried once on another device (WithRetry). A device that fails
// twice in a row is quarantined: it runs only jobs that no healthy device
// may take (so none is stranded), until it succeeds again. A per-device
// Resident (the proving key's bases) is loaded once per device, in the
// compute region, and counted in the budget.
//
// A Run owns its devices while it runs: regions and budgets are per Run,
// so two Runs sharing a device would each count the device as theirs.
//
// A Trace (WithTrace) records every region acquire and release, every
// Backend call and every outcome; it is cheap enough to leave on, encodes as
// JSON and summarises itself (Trace.Summary).
package pool
