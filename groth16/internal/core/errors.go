package core

import (
	"errors"
	"fmt"
	"math/big"
	"path"
	"reflect"

	"github.com/consensys/gnark-crypto/ecc"

	g16curve "github.com/g16prover/g16/curve"
)

// ErrInput is matched (errors.Is) by every error that reports bad input:
// a wrong curve, a missing or mismatched key, a malformed witness, a
// witness that does not satisfy the circuit.
var ErrInput = errors.New("invalid input")

// ErrVerify is matched (errors.Is) by the error of a proof that WithVerify's
// check rejected.
var ErrVerify = errors.New("proof rejected by gnark's verifier")

// ErrHostKeyNeeded is matched by the error of a key that does not fit the
// device when no host copy of its bases exists to stream from.
var ErrHostKeyNeeded = errors.New("the key does not fit the device and a streamed key needs a host copy of its bases")

// InputErr is an error matching ErrInput, prefixed "groth16: ".
func InputErr(format string, args ...any) error {
	return fmt.Errorf("groth16: %w: %s", ErrInput, fmt.Sprintf(format, args...))
}

// OptErr is a bad argument to the option named name, matching ErrInput.
func OptErr(name, format string, args ...any) error {
	return InputErr("%s: %s", name, fmt.Sprintf(format, args...))
}

// IsNil reports whether v is nil or a nil pointer in an interface.
func IsNil(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

// knownCurves are the curves whose scalar fields errors name.
var knownCurves = []ecc.ID{ecc.BN254, ecc.BLS12_377, ecc.BLS12_381, ecc.BLS24_315, ecc.BLS24_317, ecc.BW6_761, ecc.BW6_633, ecc.SECP256K1, ecc.GRUMPKIN, ecc.STARK_CURVE}

// CurveOf returns the gnark curve whose scalar field has modulus q.
func CurveOf(q *big.Int) (ecc.ID, bool) {
	for _, id := range knownCurves {
		if f := id.ScalarField(); f != nil && f.Cmp(q) == 0 {
			return id, true
		}
	}
	return ecc.UNKNOWN, false
}

// FieldName names the curve whose scalar field has modulus q, for errors.
func FieldName(q *big.Int) string {
	if id, ok := CurveOf(q); ok {
		return g16curve.Name(id)
	}
	return fmt.Sprintf("an unknown %d-bit field", q.BitLen())
}

// VectorField names the field of a witness's vector (witness.Vector()), for
// errors: the curve of the gnark-crypto fr package its type comes from
// ("bls12-377" for a BLS12-377 fr.Vector), else the type with its package.
func VectorField(v any) string {
	t := reflect.TypeOf(v)
	if t == nil {
		return "no vector"
	}
	if path.Base(t.PkgPath()) == "fr" {
		dir := path.Base(path.Dir(t.PkgPath()))
		for _, id := range knownCurves {
			if g16curve.Name(id) == dir {
				return dir
			}
		}
	}
	if t.PkgPath() == "" {
		return t.String()
	}
	return t.PkgPath() + "." + t.Name()
}
