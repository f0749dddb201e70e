package gnarkio

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/constraint"

	"github.com/g16prover/g16/curve"
)

// ReadR1CS reads an R1CS as gnark's WriteTo writes it, all of r, over any
// curve g16 proves on (the curve is the one the file names), and returns an
// error, never a crash, when it is not one (see the package doc for what is
// checked). A well-formed system over another curve, or a PLONK system,
// gives an error that says so and matches ErrUnsupported. The system is
// gnark's own type for its curve (*cs.R1CS of constraint/<curve>).
func ReadR1CS(r io.Reader) (constraint.ConstraintSystem, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("gnarkio: reading the R1CS: %w", err)
	}
	return DecodeR1CS(data)
}

// DecodeR1CS decodes data, a whole R1CS file, as ReadR1CS does.
func DecodeR1CS(data []byte) (constraint.ConstraintSystem, error) {
	if err := CheckR1CSEncoding(data); err != nil {
		return nil, fmt.Errorf("gnarkio: R1CS: %w", err)
	}
	id, err := checkSystemKind(data)
	if err != nil {
		return nil, fmt.Errorf("gnarkio: R1CS: %w", err)
	}
	r1cs := gnarkgroth16.NewCS(id)
	readErr, err := guarded(func() error {
		_, err := r1cs.ReadFrom(bytes.NewReader(data))
		return err
	})
	if err == nil {
		err = readErr
	}
	if err != nil {
		return nil, fmt.Errorf("gnarkio: R1CS over %s: %w", curve.Name(id), err)
	}
	if err := CheckR1CS(r1cs); err != nil {
		return nil, fmt.Errorf("gnarkio: R1CS over %s: %w", curve.Name(id), err)
	}
	return r1cs, nil
}

// r1csHeader is what gnark's system.WriteTo writes before the system: the
// byte length of the system and coefficient table, and gnark's version.
const r1csHeader = 4 * 8

// sectionsHeader is constraint.System.ToBytes's header: the byte lengths
// of the levels, instructions, call data and CBOR body.
const sectionsHeader = 4 * 8

// CheckR1CSEncoding checks data, a whole R1CS file, against everything
// gnark's decoder trusts before it allocates or spawns goroutines: the
// lengths in the headers, each binary section (levels, instructions, call
// data) decoded here first, and the coefficient table's size. The CBOR
// body is left to gnark, which decodes it on the calling goroutine.
func CheckR1CSEncoding(data []byte) error {
	if len(data) < r1csHeader {
		return fmt.Errorf("%d bytes, shorter than the %d-byte header: %w", len(data), r1csHeader, ErrCorrupt)
	}
	total := binary.LittleEndian.Uint64(data)
	major := binary.LittleEndian.Uint64(data[8:])
	minor := binary.LittleEndian.Uint64(data[16:])
	if major != 0 || minor < 10 {
		return fmt.Errorf("written by gnark %d.%d, not a version this reader knows: %w", major, minor, ErrCorrupt)
	}
	body := data[r1csHeader:]
	if total != uint64(len(body)) {
		return fmt.Errorf("header says %d bytes follow, the file has %d: %w", total, len(body), ErrCorrupt)
	}
	if len(body) < sectionsHeader {
		return fmt.Errorf("system of %d bytes, shorter than its header: %w", len(body), ErrCorrupt)
	}
	var lens [4]uint64
	rest := uint64(len(body) - sectionsHeader)
	for i := range lens {
		lens[i] = binary.LittleEndian.Uint64(body[8*i:])
		if lens[i] > rest {
			return fmt.Errorf("section %d of %d bytes overruns the %d left: %w", i, lens[i], rest, ErrCorrupt)
		}
		rest -= lens[i]
	}
	at := uint64(sectionsHeader)
	section := func(i int) []byte {
		s := body[at : at+lens[i]]
		at += lens[i]
		return s
	}
	levels, instructions, calldata := section(0), section(1), section(2)
	_ = section(3) // the CBOR body
	if err := checkLevels(levels); err != nil {
		return fmt.Errorf("levels: %w", err)
	}
	if err := checkInstructions(instructions); err != nil {
		return fmt.Errorf("instructions: %w", err)
	}
	if err := checkCalldata(calldata); err != nil {
		return fmt.Errorf("call data: %w", err)
	}
	coeffs := body[at:]
	if len(coeffs) < 8 {
		return fmt.Errorf("coefficient table: %d bytes, no length: %w", len(coeffs), ErrCorrupt)
	}
	// Every curve g16 proves on has 32-byte scalars.
	if n := binary.LittleEndian.Uint64(coeffs); n > uint64(len(coeffs)-8)/32 {
		return fmt.Errorf("coefficient table: %d coefficients in %d bytes: %w", n, len(coeffs)-8, ErrCorrupt)
	}
	return nil
}

// checkLevels decodes the levels section as gnark's levelsFromBytes does:
// a uint64 count, then that many compressed arrays.
func checkLevels(in []byte) error {
	if len(in) < 8 {
		return fmt.Errorf("%d bytes, no count: %w", len(in), ErrCorrupt)
	}
	n := binary.LittleEndian.Uint64(in)
	in = in[8:]
	// Each level takes at least its 8-byte word count.
	if n > uint64(len(in))/8 {
		return fmt.Errorf("%d levels in %d bytes: %w", n, len(in), ErrCorrupt)
	}
	for i := uint64(0); i < n; i++ {
		_, used, err := decompress32(in)
		if err != nil {
			return fmt.Errorf("level %d: %w", i, err)
		}
		in = in[used:]
	}
	return nil
}

// checkInstructions decodes the instructions section as gnark's
// instructionsFromBytes does: three compressed uint32 arrays (blueprint
// IDs, constraint and wire offsets) and one of uint64s (call data starts),
// which must be as long as the first.
func checkInstructions(in []byte) error {
	var n int
	for i, name := range []string{"blueprint IDs", "constraint offsets", "wire offsets"} {
		v, used, err := decompress32(in)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if i == 0 {
			n = len(v)
		} else if len(v) < n {
			return fmt.Errorf("%d %s for %d instructions: %w", len(v), name, n, ErrCorrupt)
		}
		in = in[used:]
	}
	v, _, err := decompress64(in)
	if err != nil {
		return fmt.Errorf("call data starts: %w", err)
	}
	if len(v) < n {
		return fmt.Errorf("%d call data starts for %d instructions: %w", len(v), n, ErrCorrupt)
	}
	return nil
}

// checkCalldata checks the call data section's count against its bytes
// (each value is a uvarint of at least one byte); gnark reports the rest.
func checkCalldata(in []byte) error {
	if len(in) < 8 {
		return fmt.Errorf("%d bytes, no count: %w", len(in), ErrCorrupt)
	}
	if n := binary.LittleEndian.Uint64(in); n > uint64(len(in)-8) {
		return fmt.Errorf("%d values in %d bytes: %w", n, len(in)-8, ErrCorrupt)
	}
	return nil
}
