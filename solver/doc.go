// Package solver is g16's witness solver for gnark v0.16.1 BLS12-381
// R1CS (constraint/bls12-381's *cs.R1CS).
//
// New decodes a compiled circuit once: it walks gnark's Levels in order,
// decodes every instruction, finds which wire each R1C solves (that
// depends on the circuit's structure only), and indexes the constant tables
// of log-derivative count hints. Solve then solves one full witness in two
// passes:
//
//   - the instructions that solve wires (R1Cs with an unknown wire, hints,
//     blueprints), level by level; the R1Cs whose wires are all known by
//     then (most of a hash's or a signature's) solve nothing and wait for
//     the second pass;
//   - those R1Cs, evaluated into A, B and C and checked: with more than
//     one task, a checker goroutine takes them in order while the wires
//     are solved, each block of them once the levels it reads are done;
//     the rest, once every wire is solved, cut into blocks that every task
//     takes in turn;
//
// and in the first pass:
//
//   - a level large enough is cut into contiguous runs of
//     about equal estimated cost, one per goroutine (runtime.GOMAXPROCS, at
//     most the options' NbTasks; with one core a solve uses one goroutine,
//     and no checker); small levels run on the caller's
//     goroutine. Every run writes only its own instructions' output wires
//     and R1C rows: no atomics or locks per wire;
//   - the R1Cs of a run whose unknown wire needs a division share one
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
//     fractions, here on integers: lattice.go), emulated.mulHint and
//     emulated.polyMvHint (on 64-bit words, for 64-bit limbs below 2^120
//     and, for polyMvHint, terms of degree 4 at most; other calls go to the
//     hint function);
//   - gnark's batch-inverse and log-derivative lookup blueprints are solved
//     here; any other blueprint that solves itself is called through
//     gnark's constraint.Solver interface, implemented by the solve's state;
//   - the context is checked between levels.
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
// check of the second pass is reported before a failure of the first pass
// of a higher rank, and the wires of instructions after the reported one
// read "<unsolved>" in the circuit's logs, as in gnark. The tests compare
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
package solver
