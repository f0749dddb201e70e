package gnarkio

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"

	"github.com/consensys/gnark"
	"github.com/consensys/gnark-crypto/ecc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/constraint"
	"github.com/fxamacker/cbor/v2"

	"github.com/g16prover/g16/curve"
	"github.com/g16prover/g16/internal/gnarkio/internal/bls12377"
	"github.com/g16prover/g16/internal/gnarkio/internal/bls12381"
	"github.com/g16prover/g16/internal/gnarkio/internal/bn254"
	"github.com/g16prover/g16/internal/gnarkio/internal/bw6761"
)

// ErrUnsupported is matched by the errors for a well-formed file that g16
// does not prove with: a constraint system or key over a curve the reader
// does not take, or a PLONK (SparseR1CS) constraint system.
var ErrUnsupported = errors.New("not supported by g16")

// SystemHeader reads, from data (a whole constraint-system file as gnark's
// WriteTo writes it), the curve of the system's scalar field and the kind
// of system (R1CS for Groth16, SparseR1CS for PLONK), from the CBOR body
// that gnark's decoder would read, without decoding the rest. A field of
// no curve gnark proves on (gnark.Curves; gnark compiles R1CS over other
// fields too, e.g. Grumpkin's) is an error matching ErrUnsupported.
func SystemHeader(data []byte) (ecc.ID, constraint.SystemType, error) {
	body, err := systemBody(data)
	if err != nil {
		return ecc.UNKNOWN, 0, err
	}
	// The body is a CBOR map of constraint.System's exported fields: keep
	// the two that say what the system is.
	var head struct {
		ScalarField string
		Type        constraint.SystemType
	}
	dm, err := cbor.DecOptions{MaxArrayElements: 1 << 27, MaxMapPairs: 1 << 27, MaxNestedLevels: 64}.DecMode()
	if err != nil {
		return ecc.UNKNOWN, 0, fmt.Errorf("internal error: %w", err)
	}
	if err := dm.Unmarshal(body, &head); err != nil {
		return ecc.UNKNOWN, 0, fmt.Errorf("system body: %v: %w", err, ErrCorrupt)
	}
	q, ok := new(big.Int).SetString(head.ScalarField, 16)
	if !ok {
		return ecc.UNKNOWN, 0, fmt.Errorf("system body: scalar field %q is not a number: %w", head.ScalarField, ErrCorrupt)
	}
	for _, id := range gnark.Curves() {
		if id.ScalarField().Cmp(q) == 0 {
			return id, head.Type, nil
		}
	}
	return ecc.UNKNOWN, head.Type, fmt.Errorf("a constraint system over a field that is no scalar field of a curve gnark proves on (modulus %s…): %w", head.ScalarField[:min(len(head.ScalarField), 16)], ErrUnsupported)
}

// systemBody returns the CBOR body of a constraint-system file, its
// headers' lengths checked against the data.
func systemBody(data []byte) ([]byte, error) {
	if len(data) < r1csHeader+sectionsHeader {
		return nil, fmt.Errorf("%d bytes, shorter than the headers: %w", len(data), ErrCorrupt)
	}
	body := data[r1csHeader:]
	var lens [4]uint64
	rest := uint64(len(body) - sectionsHeader)
	at := uint64(sectionsHeader)
	for i := range lens {
		lens[i] = binary.LittleEndian.Uint64(body[8*i:])
		if lens[i] > rest {
			return nil, fmt.Errorf("section %d of %d bytes overruns the %d left: %w", i, lens[i], rest, ErrCorrupt)
		}
		rest -= lens[i]
		if i < 3 {
			at += lens[i]
		}
	}
	return body[at : at+lens[3]], nil
}

// checkSystemKind returns the curve of data when it is a Groth16
// constraint system (an R1CS) over a curve g16 proves on, and otherwise an
// error that names what it is, matching ErrUnsupported.
func checkSystemKind(data []byte) (ecc.ID, error) {
	id, typ, err := SystemHeader(data)
	if err != nil {
		return ecc.UNKNOWN, err
	}
	if typ == constraint.SystemSparseR1CS {
		return ecc.UNKNOWN, fmt.Errorf("a PLONK constraint system (SparseR1CS) over %s: g16 proves Groth16, whose systems are R1CS (frontend.Compile with r1cs.NewBuilder): %w", curve.Name(id), ErrUnsupported)
	}
	if _, err := readerOf(id); err != nil {
		return ecc.UNKNOWN, fmt.Errorf("an R1CS over %s: %w", curve.Name(id), err)
	}
	return id, nil
}

// KeyCurve identifies the curve of a Groth16 proving key from head, the
// first bytes of its file (at least 256 of them, or the whole file if it
// is shorter): the key opens with its domain, the cardinality n and then
// n⁻¹ in the scalar field, so the curve is the one whose r makes
// n·n⁻¹ ≡ 1. It returns an error matching ErrCorrupt when no curve gnark
// knows fits.
func KeyCurve(head []byte) (ecc.ID, error) {
	if len(head) < 8 {
		return ecc.UNKNOWN, fmt.Errorf("%d bytes, no domain: %w", len(head), ErrCorrupt)
	}
	n := new(big.Int).SetUint64(binary.BigEndian.Uint64(head))
	for _, id := range gnark.Curves() {
		r := id.ScalarField()
		size := (r.BitLen() + 7) / 8
		if len(head) < 8+size {
			continue
		}
		inv := new(big.Int).SetBytes(head[8 : 8+size])
		if inv.Cmp(r) >= 0 {
			continue
		}
		if inv.Mul(inv, n).Mod(inv, r).Cmp(big.NewInt(1)) == 0 {
			return id, nil
		}
	}
	return ecc.UNKNOWN, fmt.Errorf("its domain (size %s) is not one of any curve gnark knows: %w", n, ErrCorrupt)
}

// curveReader is what the readers do differently on one curve: the
// package internal/<curve> that internal/generator writes from
// internal/bls12381.
type curveReader struct {
	g1Compressed, g2Compressed int64
	// A point's encoding starts with a flag (its first byte's bits in
	// flagMask): compressed[flag] says a compressed point, false a raw one;
	// a flag not in the map is invalid.
	flagMask   byte
	compressed map[byte]bool
	// system returns a decoded system's curve-neutral part and the length
	// of its coefficient table.
	system func(constraint.ConstraintSystem) (*constraint.System, int, bool)
	// checkKeyPoints names the first base of a key that is off the curve.
	checkKeyPoints func(gnarkgroth16.ProvingKey, func(int, func(int) bool) int) error
	// sameSetup says whether a verifying key is a proving key's twin.
	sameSetup func(gnarkgroth16.ProvingKey, gnarkgroth16.VerifyingKey) error
}

// readers holds a reader for every curve g16 proves on (package curve's
// table; the tests check the two agree).
var readers = map[ecc.ID]curveReader{
	bls12381.ID: newReader(bls12381.G1Compressed, bls12381.G2Compressed, bls12381.PointFlags, bls12381.System, bls12381.CheckKeyPoints, bls12381.SameSetup),
	bn254.ID:    newReader(bn254.G1Compressed, bn254.G2Compressed, bn254.PointFlags, bn254.System, bn254.CheckKeyPoints, bn254.SameSetup),
	bls12377.ID: newReader(bls12377.G1Compressed, bls12377.G2Compressed, bls12377.PointFlags, bls12377.System, bls12377.CheckKeyPoints, bls12377.SameSetup),
	bw6761.ID:   newReader(bw6761.G1Compressed, bw6761.G2Compressed, bw6761.PointFlags, bw6761.System, bw6761.CheckKeyPoints, bw6761.SameSetup),
}

func newReader(g1, g2 int64, flags func() (byte, map[byte]bool),
	system func(constraint.ConstraintSystem) (*constraint.System, int, bool),
	checkKeyPoints func(gnarkgroth16.ProvingKey, func(int, func(int) bool) int) error,
	sameSetup func(gnarkgroth16.ProvingKey, gnarkgroth16.VerifyingKey) error) curveReader {
	mask, compressed := flags()
	return curveReader{g1Compressed: g1, g2Compressed: g2, flagMask: mask, compressed: compressed,
		system: system, checkKeyPoints: checkKeyPoints, sameSetup: sameSetup}
}

// readerOf returns the reader of curve id, or an error matching
// ErrUnsupported that names the curves g16 proves on.
func readerOf(id ecc.ID) (curveReader, error) {
	r, ok := readers[id]
	if !ok || !curve.IsSupported(id) {
		return curveReader{}, fmt.Errorf("g16 proves on %s, not %s: %w", curve.SupportedNames(), curve.Name(id), ErrUnsupported)
	}
	return r, nil
}

// SystemCurve returns the curve of ccs, gnark's R1CS of a curve g16
// proves on (as ReadR1CS returns), or an error matching ErrUnsupported.
func SystemCurve(ccs constraint.ConstraintSystem) (ecc.ID, error) {
	if ccs == nil {
		return ecc.UNKNOWN, fmt.Errorf("gnarkio: nil constraint system: %w", ErrUnsupported)
	}
	for id, rd := range readers {
		if _, _, ok := rd.system(ccs); ok {
			return id, nil
		}
	}
	return ecc.UNKNOWN, fmt.Errorf("gnarkio: a %T is not gnark's R1CS over %s: %w", ccs, curve.SupportedNames(), ErrUnsupported)
}

// System returns the curve-neutral part of ccs (its levels, instructions,
// blueprints, ...), gnark's R1CS of a curve g16 proves on; ok is false for
// any other system.
func System(ccs constraint.ConstraintSystem) (sys *constraint.System, ok bool) {
	for _, rd := range readers {
		if sys, _, ok = rd.system(ccs); ok {
			return sys, true
		}
	}
	return nil, false
}
