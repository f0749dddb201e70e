// Package groth16 proves gnark Groth16 circuits over BLS12-381, BN254,
// BLS12-377 and BW6-761 on a backend.Backend (a GPU, or the CPU), with gnark's types in and out:
//
//	prover, err := groth16.NewProver(ccs, pk) // every GPU a cuda build sees, else the CPU
//	defer prover.Close()
//	proof, err := prover.Prove(ctx, fullWitness, groth16.WithVerify(vk))
//
// ccs, pk and vk are gnark's: an R1CS (frontend.Compile over
// the scalar field of ecc.BLS12_381, ecc.BN254, ecc.BLS12_377 or ecc.BW6_761 with
// r1cs.NewBuilder) and the keys of gnark's groth16.Setup. A circuit on a
// curve the CUDA kernels do not compute on (cuda.SupportsCurve), given no
// backend, proves on the CPU. The proof is a gnark groth16.Proof that gnark's
// Verify accepts; reading the same randomness (WithRandomness) it is
// byte-identical to the one gnark's own groth16.Prove writes, whichever
// backend computes it.
//
// # What a program needs
//
// NewProver prepares a circuit and key once and holds, for its lifetime,
// the devices and the key's bases resident on each (uploaded on a device's
// first use). Its Prove proves one witness; its ProveBatch many witnesses
// of the circuit (partitions), spread over the devices, each proof
// byte-identical to what Prove gives for the same witness and randomness.
// Both take a context and are safe for concurrent use; Close gives
// everything back. The package-level Prove and ProveBatch are NewProver,
// one call and Close.
//
// The options a program uses: WithVerify (each proof checked with gnark's
// verifier before it is returned; ErrVerify when it fails), WithBackend or
// WithBackends (the devices; by default every GPU a cuda build sees, else
// one CPU backend), WithProverOptions (gnark's prover options: a circuit's
// own hints), WithLogger, and for reproducible proofs, timings and proofs
// as they finish, WithRandomness, WithPhaseTimes and WithProofDone. Every
// Option says which calls it applies to (NewProver, Prove, ProveBatch);
// given to another call it is an error naming it, never silently dropped.
//
// Bad input (a wrong curve, a key of another circuit, a malformed
// witness, a witness that does not satisfy the circuit) returns an error
// matching ErrInput; a proof gnark's verifier rejects, ErrVerify; the
// rest are the context's errors and device or internal failures.
//
// Importing the package turns gnark's global logger off (gnark prints
// colour-coded debug lines to standard output by default): the Prover's
// records, and a circuit's api.Println lines, go to WithLogger's logger. A
// program that wants gnark's own lines sets gnark's logger after import.
//
// # Tuning and benchmarks
//
// The rest of the package tunes a deployment or serves g16's own
// benchmarks; the defaults need none of it.
//
//   - A batch's scheduling: WithWorkersPerDevice, WithSolvers,
//     WithMemoryBudget (a cap on each device's memory), WithPoolOptions,
//     WithTrace, WithBatchRandomness, and WithB2Placement (where the G2
//     MSM runs: B2Placement).
//   - Keys resident on a device the caller owns, for Provers to share:
//     DeviceKey, NewDeviceKey and WithDeviceKey; NewDeviceKeyFrom fills one
//     block by block from a BaseSource (vectors BasesA … BasesZ), with no
//     host copy of the bases (ErrHostKeyNeeded when the key must be
//     streamed and so needs one).
//   - A proof's device steps, PhaseTimes.Spans, written by FormatSpans
//     (Span).
//   - ReleasePrepared drops the prepared circuits the package-level Prove
//     and ProveBatch keep for their next calls.
//
// # How a proof is computed
//
// Notation follows Groth16 (eprint 2016/260, section 3.2) as gnark lays it
// out. With the solved wires w, the constraint evaluations a, b, c over the
// domain ⟨ω⟩ of size n, and r, s random:
//
//	h   = (A·B − C) / (Xⁿ − 1), computed on the coset g·⟨ω⟩:
//	      a, b, c ← iNTT (natural → bit-reversed coefficients)
//	      a, b, c ← NTT on g·⟨ω⟩ (→ natural evaluations)
//	      a       ← (a·b − c)·(gⁿ − 1)⁻¹
//	      h       ← iNTT on g·⟨ω⟩ (→ bit-reversed, as pk.G1.Z is)
//	Ar  = [α]₁ + Σ wᵢ[Aᵢ]₁ + r[δ]₁
//	Bs  = [β]₂ + Σ wᵢ[Bᵢ]₂ + s[δ]₂        (and Bs₁ likewise in G1)
//	Krs = Σ wᵢ[Kᵢ]₁ + Σ hᵢ[Zᵢ]₁ + s·Ar + r·Bs₁ − rs[δ]₁
//
// Every NTT and MSM runs on the Backend; solving, wire filtering and the
// final assembly run on the host. Witnesses are solved by package solver
// (gnark's results, faster), or by gnark's solver for a circuit that
// package hands back (PhaseTimes.SolverFallback says why). BSB22
// commitments (eprint 2022/1072) are computed as gnark computes them, their two MSMs (the Pedersen commitment
// and its proof of knowledge) on the Backend, from inside the solve; their
// bases stay resident on each device with the proving key's.
//
// ProveBatch runs its partitions through the scheduler in package pool:
// while one partition's NTTs and MSMs run on a device, the next is solved
// on the host and staged.
//
// The prover's arithmetic is not constant-time: its timing depends on the
// witness.
package groth16
