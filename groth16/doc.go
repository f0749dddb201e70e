// Package groth16 proves gnark Groth16 circuits over BLS12-381 on a
// backend.Backend.
//
// It takes gnark's types in and gives gnark's types out: a BLS12-381 R1CS
// (constraint.ConstraintSystem), a groth16.ProvingKey and a full
// witness.Witness go in; a groth16.Proof comes out that gnark's Verify
// accepts. Reading the same randomness (WithRandomness), the proof is
// byte-identical to the one gnark's own groth16.Prove writes, whichever
// backend computes it.
//
// # The computation
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
// package hands back (PhaseTimes.SolverFallback says why). BSB22 commitments (eprint 2022/1072) are
// computed as gnark computes them, their two MSMs (the Pedersen commitment
// and its proof of knowledge) on the Backend, from inside the solve; their
// bases stay resident on each device with the proving key's.
//
// # A long-lived Prover
//
// NewProver prepares a circuit and key once and holds, for its lifetime,
// the devices and the key's bases resident on each (uploaded on a device's
// first use); its Prove and ProveBatch take a context and are safe for
// concurrent use; Close gives everything back. The package-level Prove and
// ProveBatch are NewProver, one call and Close.
//
// ProveBatch proves many witnesses of one circuit (partitions) on one or
// several devices through the scheduler in package pool: while one
// partition's NTTs and MSMs run on a device, the next is solved on the host
// and staged. Each proof is byte-identical to what Prove gives for the same
// witness and randomness. A DeviceKey is a key resident on a device that the
// caller owns, for Provers to share (WithDeviceKey); NewDeviceKeyFrom fills
// one block by block from a BaseSource, with no host copy of the bases.
//
// # Options
//
// Every Option says which calls it applies to (NewProver, Prove,
// ProveBatch); given to another call it is an error naming it, never
// silently dropped. WithVerify checks each proof with gnark's verifier
// before it is returned; WithLogger receives the Prover's records, such as
// which devices it chose and why.
//
// The prover's arithmetic is not constant-time: its timing depends on the
// witness.
package groth16
