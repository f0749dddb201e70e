// Package bls12381 is g16's witness solver for gnark v0.16.1 BLS12-381
// R1CS (constraint/bls12-381's *cs.R1CS). It is written once, as the
// reference that internal/generator copies for every other curve g16
// proves on; package solver chooses a curve's solver for a constraint
// system.
//
// New decodes a compiled circuit once: it walks gnark's Levels in order,
// decodes every instruction, finds which wire each R1C solves (that
// depends on the circuit's structure only; the R1Cs whose wires are all
// known by their level, most of a hash's or a signature's, solve nothing
// and are checks), indexes the constant tables of log-derivative count
// hints, and schedules the instructions on the workers of a solve.
//
// # The schedule
//
// A solve runs on one goroutine a core (runtime.GOMAXPROCS, at most the
// options' NbTasks; one on a single core), the caller's included.
// Each level's instructions are split among them by estimated cost, each
// instruction preferring the worker that solved the latest wire it reads;
// what one worker gets of one level is a chunk, and a worker runs its
// chunks in level order. There is no barrier between levels: before a
// chunk, a worker waits only for the chunks of other workers that solve a
// wire the chunk reads (counted once per circuit and worker count; a
// lookup, or a blueprint this package does not know, waits for every
// earlier level), each worker publishing how many chunks it has finished
// in a counter of its own (a waiter yields, then sleeps until woken). A
// worker writes only its instructions' output wires and rows of A, B and
// C: no atomics or locks per wire. The schedule is built by New for the
// default worker count, and on first use for another.
//
// Within a chunk:
//
//   - every instruction is solved or checked in rank order, its R1C rows
//     of A, B and C evaluated from the rows New compiled (rows.go: runs of
//     wires of coefficient 1 and −1 added with no test per term, a product
//     only for the other coefficients but 2 and values other than 0 and 1,
//     terms of coefficient 0 and the unknown's left out), and a·b, of a
//     check or of an R1C solving its output, costing no product when a
//     factor is 0 or 1;
//   - the R1Cs of a chunk whose unknown wire needs a division share one
//     field inversion (Montgomery's batch inversion);
//   - hints get big.Int inputs and outputs from per-goroutine buffers
//     reused across calls and solves; bits.nBits, rangecheck.DecomposeHint
//     and logderivarg.countHint, which gnark v0.16.1 also solves natively,
//     are solved on field elements here, and so are gnark's
//     solver.InvZeroHint and, for inputs of one word (others go to the hint
//     function), the word hints of std/math/uints (xorHint, andHint,
//     orHint, toBytes) and bitslice's partitionHint, unless the caller
//     replaced them (gnark's fourth native hint,
//     logderivarg.batchDivBySubHint, is for PLONK tables and goes through
//     big.Ints here);
//   - three of the emulated-arithmetic hints, unless replaced, are computed
//     here with the same outputs: sw_emulated.rationalReconstructExt (the
//     GLV scalar decomposition, an LLL reduction that gnark-crypto runs on
//     fractions, here on integers: solver/internal/lattice), emulated.mulHint and
//     emulated.polyMvHint (on 64-bit words, for 64-bit limbs below 2^120
//     and, for polyMvHint, terms of degree 4 at most; other calls go to the
//     hint function);
//   - gnark's batch-inverse and log-derivative lookup blueprints are solved
//     here (a batch inverse's expressions α − q of a word q noted this
//     solve are inverted once per distinct q); any other blueprint that
//     solves itself is called through gnark's constraint.Solver interface,
//     implemented by the solve's state;
//   - the context is checked before each chunk and while a worker waits.
//
// # Guarantees
//
// Solve returns what (*cs.R1CS).Solve returns for the same witness and
// options: W, A, B and C equal element for element (A, B and C of length
// the constraint count and capacity its next power of two); the hints
// (registered ones, WithHints, OverrideHint) called with the same inputs;
// the same errors: a *cs.UnsatisfiedConstraintError naming the same
// constraint with the same message and debug information, the same
// messages for a missing hint, a wrong witness size, or a failing hint.
// Where gnark's parallel solver reports whichever failing instruction of a
// level its goroutines reach first, Solve reports the first in level order,
// on any number of goroutines, as gnark's does on one (WithNbTasks(1)): a
// worker stops at its first failure, and the others still run every chunk
// of the levels up to the lowest failing one, so the failure of lowest rank
// is found; the wires of instructions after it read "<unsolved>" in the
// circuit's logs, as in gnark. The tests compare
// all of this with gnark's solver on gnark's std circuits.
//
// # Fallback
//
// A circuit this package cannot solve itself is solved by gnark's Solve as
// a whole, never partly: one with a stateful blueprint other than the
// lookup (gnark's GKR blueprints, for instance: gnark resets their state
// in the blueprint itself, on every solve), an R1C with a constant term or
// with more than one unsolved wire, or levels that do not cover the
// instructions, or a wire that two instructions solve. Fallback says why,
// and the prover reports it.
//
// A hint function that panics panics out of Solve on the caller's
// goroutine, whichever goroutine called it, as gnark's solver does on one
// task.
//
// New fails when the linked gnark is not v0.16.1, whose instruction layout
// this package reads.
//
// Solve does not print gnark's per-solve debug log line; the circuit's
// Println entries are printed through the options' logger, as gnark does.
package bls12381
