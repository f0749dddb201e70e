package gnarkio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/backend/witness"

	"github.com/g16prover/g16/curve"
)

// ReadWitness decodes a full or public witness over curve id's scalar
// field as gnark's WriteTo writes it (public and secret counts, then a
// vector), after CheckWitness. It reads all of r. The file does not name
// its curve: a value not below id's modulus is an error, which names the
// other curves g16 proves on, of larger scalar fields of scalars the same
// size, whose field does hold every value, if any; and a vector of values
// of another size than id's scalars is one naming the curves whose
// scalars it holds (both a witness of another curve's circuit, matching
// ErrCurveMismatch).
func ReadWitness(r io.Reader, id ecc.ID) (witness.Witness, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("gnarkio: witness: %w", err)
	}
	w, err := decodeWitness(data, id)
	if err == nil {
		return w, nil
	}
	size := curve.Must(id).FrBytes
	var fits, sized []string
	for _, other := range curve.Supported() {
		if other == id {
			continue
		}
		if _, oerr := decodeWitness(data, other); oerr != nil {
			continue
		}
		if osize := curve.Must(other).FrBytes; osize != size {
			sized = append(sized, curve.Name(other))
		} else if !errors.Is(err, ErrCorrupt) && other.ScalarField().Cmp(id.ScalarField()) > 0 {
			fits = append(fits, curve.Name(other))
		}
	}
	switch {
	case len(fits) > 0:
		return nil, fmt.Errorf("gnarkio: witness: its values are not all in %s's scalar field but fit %s's: a witness of a %s circuit, not of a %s one: %w",
			curve.Name(id), orList(fits), orList(fits), curve.Name(id), ErrCurveMismatch)
	case len(sized) > 0 && errors.Is(err, ErrCorrupt):
		return nil, fmt.Errorf("gnarkio: witness: its values are not of %d bytes, as %s's scalars, but of the size of %s's: a witness of a %s circuit, not of a %s one: %w",
			size, curve.Name(id), orList(sized), orList(sized), curve.Name(id), ErrCurveMismatch)
	}
	return nil, fmt.Errorf("gnarkio: %s witness: %w", curve.Name(id), err)
}

// orList joins names as "a", "a or b", "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// ErrCurveMismatch is matched by the errors for files of different curves
// given together: a witness whose values are of another curve's field.
var ErrCurveMismatch = errors.New("files of different curves")

// decodeWitness is ReadWitness without the look at other curves.
func decodeWitness(data []byte, id ecc.ID) (witness.Witness, error) {
	if err := CheckWitness(data, id); err != nil {
		return nil, err
	}
	w, err := guarded(func() witness.Witness {
		w, err := witness.New(id.ScalarField())
		if err != nil {
			panic(err)
		}
		return w
	})
	if err != nil {
		return nil, fmt.Errorf("no witness type for %s: %w", curve.Name(id), ErrUnsupported)
	}
	readErr, err := guarded(func() error { _, err := w.ReadFrom(bytes.NewReader(data)); return err })
	if err == nil {
		err = readErr
	}
	if err != nil {
		return nil, err
	}
	return w, nil
}

// CheckWitness checks a witness's encoding for curve id: two big-endian
// uint32 counts, public and secret, a uint32 length equal to their sum,
// and that many scalars (32 bytes on BN254, BLS12-381 and BLS12-377, 48
// on BW6-761), nothing after them.
func CheckWitness(data []byte, id ecc.ID) error {
	size := uint64((id.ScalarField().BitLen() + 63) / 64 * 8)
	if len(data) < 12 {
		return fmt.Errorf("%d bytes, shorter than the 12-byte header: %w", len(data), ErrCorrupt)
	}
	pub := uint64(binary.BigEndian.Uint32(data))
	sec := uint64(binary.BigEndian.Uint32(data[4:]))
	n := uint64(binary.BigEndian.Uint32(data[8:]))
	if pub+sec != n {
		return fmt.Errorf("header says %d public and %d secret values, the vector holds %d: %w", pub, sec, n, ErrCorrupt)
	}
	if want := 12 + size*n; uint64(len(data)) != want {
		return fmt.Errorf("%d values of %d bytes need %d bytes, the data has %d: %w", n, size, want, len(data), ErrCorrupt)
	}
	return nil
}
