package bls12381

import (
	"encoding/binary"
	"errors"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	groth16bls "github.com/consensys/gnark/backend/groth16/bls12-381"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"
	cs "github.com/consensys/gnark/constraint/bls12-381"

	g16curve "github.com/g16prover/g16/curve"
	"github.com/g16prover/g16/groth16/internal/core"
)

// concrete returns the constraint system and key as this curve's types.
// Package groth16 has checked that both are non-nil, over this package's
// curve, and that the system is an R1CS.
func concrete(ccs constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey) (*cs.R1CS, *groth16bls.ProvingKey, error) {
	r1cs, ok := ccs.(*cs.R1CS)
	if !ok {
		return nil, nil, inputErr("constraint system is a %T over %s, not an R1CS over %s", ccs, core.FieldName(ccs.Field()), g16curve.Name(proverCurve))
	}
	if r1cs.Type == constraint.SystemSparseR1CS {
		// gnark's R1CS and SparseR1CS are one Go type: the system says.
		return nil, nil, inputErr("constraint system is a PLONK system (SparseR1CS), not an R1CS: g16 proves Groth16, whose systems are R1CS (frontend.Compile with r1cs.NewBuilder)")
	}
	key, ok := pk.(*groth16bls.ProvingKey)
	if !ok {
		return nil, nil, inputErr("proving key is a %T for %s, not a Groth16 key over %s", pk, g16curve.Name(pk.CurveID()), g16curve.Name(proverCurve))
	}
	return r1cs, key, nil
}

// checkKey reports a key that cannot belong to the circuit: an empty
// system, or domain size and wire counts that differ.
func checkKey(r1cs *cs.R1CS, pk *groth16bls.ProvingKey) error {
	nbConstraints := r1cs.GetNbConstraints()
	if nbConstraints == 0 {
		return inputErr("constraint system has no constraints")
	}
	n := pk.Domain.Cardinality
	if n == 0 {
		return inputErr("proving key is empty (domain size 0)")
	}
	if n&(n-1) != 0 {
		return inputErr("proving key's domain size %d is not a power of two", n)
	}
	if want := ecc.NextPowerOfTwo(uint64(nbConstraints)); n != want {
		return inputErr("proving key's domain has %d points, the circuit's %d constraints need %d: key made for another circuit", n, nbConstraints, want)
	}
	nbWires := r1cs.NbInternalVariables + r1cs.GetNbPublicVariables() + r1cs.GetNbSecretVariables()
	if len(pk.InfinityA) != nbWires || len(pk.InfinityB) != nbWires {
		return inputErr("proving key covers %d wires, the circuit has %d: key made for another circuit", len(pk.InfinityA), nbWires)
	}
	if got, want := len(pk.G1.A), nbWires-int(pk.NbInfinityA); got != want || pk.NbInfinityA > uint64(nbWires) {
		return inputErr("proving key has %d A points, expected %d: corrupt key", got, want)
	}
	if got, want := len(pk.G1.B), nbWires-int(pk.NbInfinityB); got != want || pk.NbInfinityB > uint64(nbWires) {
		return inputErr("proving key has %d B points in G1, expected %d: corrupt key", got, want)
	}
	if len(pk.G2.B) != len(pk.G1.B) {
		return inputErr("proving key has %d B points in G2 and %d in G1: corrupt key", len(pk.G2.B), len(pk.G1.B))
	}
	if got, want := len(pk.G1.Z), int(n)-1; got != want {
		return inputErr("proving key has %d Z points, expected %d: corrupt key", got, want)
	}
	if got := countTrue(pk.InfinityA); got != int(pk.NbInfinityA) {
		return inputErr("proving key marks %d A points at infinity but counts %d: corrupt key", got, pk.NbInfinityA)
	}
	if got := countTrue(pk.InfinityB); got != int(pk.NbInfinityB) {
		return inputErr("proving key marks %d B points at infinity but counts %d: corrupt key", got, pk.NbInfinityB)
	}
	ci, ok := r1cs.CommitmentInfo.(constraint.Groth16Commitments)
	if !ok {
		return inputErr("constraint system's commitment info is a %T, not Groth16's", r1cs.CommitmentInfo)
	}
	if len(pk.CommitmentKeys) != len(ci) {
		return inputErr("proving key has %d commitment keys, the circuit has %d commitments: key made for another circuit", len(pk.CommitmentKeys), len(ci))
	}
	for i := range ci {
		if got, want := len(pk.CommitmentKeys[i].Basis), len(ci[i].PrivateCommitted); got != want {
			return inputErr("commitment key %d has %d bases, the circuit commits %d values: key made for another circuit", i, got, want)
		}
	}
	return nil
}

func countTrue(v []bool) int {
	n := 0
	for _, b := range v {
		if b {
			n++
		}
	}
	return n
}

// checkWitness reports a witness that is not a full BLS12-381 witness of
// the circuit: wrong field, or wrong number of public or secret values.
func checkWitness(r1cs *cs.R1CS, w witness.Witness) error {
	if isNil(w) {
		return inputErr("nil witness")
	}
	vec, ok := w.Vector().(fr.Vector)
	if !ok {
		return inputErr("witness holds %s scalars, not %s ones: a witness built for another curve (frontend.NewWitness takes the circuit's field, ecc.BLS12_381.ScalarField())",
			core.VectorField(w.Vector()), g16curve.Name(proverCurve))
	}
	total := len(vec)
	// The counts come from the witness's header; a corrupt one must not
	// reach w.Public, which allocates what the header says.
	nbPub, nbSec, err := witnessCounts(w)
	if err != nil {
		return inputErr("witness: %v", err)
	}
	if nbPub+nbSec != total {
		return inputErr("witness header says %d public and %d secret values but holds %d: corrupt witness", nbPub, nbSec, total)
	}
	wantPub := r1cs.GetNbPublicVariables() - 1 // wire 0 is the constant ONE
	wantSec := r1cs.GetNbSecretVariables()
	if nbPub != wantPub || total-nbPub != wantSec {
		return inputErr("witness has %d public and %d secret values, the circuit takes %d public and %d secret (is it a full witness of this circuit?)",
			nbPub, total-nbPub, wantPub, wantSec)
	}
	return nil
}

// witnessCounts reads the public and secret counts of w from the header
// its WriteTo writes first (two big-endian uint32s), without copying the
// values.
func witnessCounts(w witness.Witness) (nbPublic, nbSecret int, err error) {
	var h headerWriter
	if _, err := w.WriteTo(&h); err != nil && !errors.Is(err, errHeaderDone) {
		return 0, 0, err
	}
	if h.n < 8 {
		return 0, 0, errors.New("witness header too short")
	}
	return int(binary.BigEndian.Uint32(h.buf[:4])), int(binary.BigEndian.Uint32(h.buf[4:])), nil
}

var errHeaderDone = errors.New("header read")

// headerWriter keeps the first 8 bytes written to it, then refuses more.
type headerWriter struct {
	buf [8]byte
	n   int
}

func (h *headerWriter) Write(p []byte) (int, error) {
	if h.n >= len(h.buf) {
		return 0, errHeaderDone
	}
	k := copy(h.buf[h.n:], p)
	h.n += k
	if k < len(p) {
		return k, errHeaderDone
	}
	return k, nil
}

// Owns reports whether ccs is a constraint system over this package's
// curve (gnark's R1CS and SparseR1CS are one Go type per curve).
func Owns(ccs constraint.ConstraintSystem) bool {
	_, ok := ccs.(*cs.R1CS)
	return ok
}
