package gnarkio

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"

	"github.com/consensys/gnark"
	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/constraint"
	"github.com/fxamacker/cbor/v2"

	"github.com/g16prover/g16/curve"
)

// ErrUnsupported is matched by the errors for a well-formed file that g16
// does not prove with: a constraint system or key over a curve the reader
// does not take, or a PLONK (SparseR1CS) constraint system.
var ErrUnsupported = errors.New("not supported by g16")

// readerCurve is the curve this package's readers decode.
const readerCurve = ecc.BLS12_381

// SystemHeader reads, from data (a whole constraint-system file as gnark's
// WriteTo writes it), the curve of the system's scalar field and the kind
// of system (R1CS for Groth16, SparseR1CS for PLONK), from the CBOR body
// that gnark's decoder would read, without decoding the rest. A curve gnark
// does not know is an error matching ErrUnsupported.
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
	return ecc.UNKNOWN, head.Type, fmt.Errorf("a constraint system over a field no gnark curve has (modulus %s…): %w", head.ScalarField[:min(len(head.ScalarField), 16)], ErrUnsupported)
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

// checkSystemKind returns nil when data is a Groth16 constraint system
// (an R1CS) over the reader's curve, and otherwise an error that names
// what it is, matching ErrUnsupported.
func checkSystemKind(data []byte) error {
	id, typ, err := SystemHeader(data)
	if err != nil {
		return err
	}
	if typ == constraint.SystemSparseR1CS {
		return fmt.Errorf("a PLONK constraint system (SparseR1CS) over %s: g16 proves Groth16, whose systems are R1CS (frontend.Compile with r1cs.NewBuilder): %w", curve.Name(id), ErrUnsupported)
	}
	if id != readerCurve {
		return fmt.Errorf("an R1CS over %s: g16's prover runs on %s only so far: %w", curve.Name(id), curve.Name(readerCurve), ErrUnsupported)
	}
	return nil
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

// checkKeyCurve returns nil when head opens a proving key over the
// reader's curve, and otherwise an error naming the key's curve.
func checkKeyCurve(head []byte) error {
	id, err := KeyCurve(head)
	if err != nil {
		return err
	}
	if id != readerCurve {
		return fmt.Errorf("a proving key over %s: g16's prover runs on %s only so far: %w", curve.Name(id), curve.Name(readerCurve), ErrUnsupported)
	}
	return nil
}
