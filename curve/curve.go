// Package curve is g16's table of the elliptic curves it proves on: for each,
// the sizes of the values that cross the Backend boundary in gnark-crypto's
// in-memory layout, and the names of its gnark packages. The scheduling core,
// the backends' contract and the service name a curve only through an
// ecc.ID looked up here; what differs between curves in arithmetic lives in
// per-curve packages generated from one source (internal/generator).
package curve

import (
	"fmt"
	"strings"

	"github.com/consensys/gnark-crypto/ecc"
)

// Params is what the curve-neutral code knows of a curve: sizes in bytes of
// gnark-crypto's in-memory forms (Montgomery form, little-endian 64-bit
// limbs; affine points X then Y, infinity as X = Y = 0; Jacobian X, Y, Z).
type Params struct {
	ID   ecc.ID
	Name string // the name of its gnark-crypto package: "bn254", "bls12-381"

	FrBytes int64 // a scalar, fr.Element
	FpBytes int64 // a base field element, fp.Element
	FrBits  int   // bits of the scalar field's modulus r

	G1AffineBytes int64
	G2AffineBytes int64
	G1JacBytes    int64
	G2JacBytes    int64
}

// table holds every curve g16 proves on, in the order Supported lists them.
// The sizes are checked against gnark-crypto's types by this package's
// tests; G2 is over Fp2 on the BN and BLS curves and over Fp itself on
// BW6-761.
var table = []Params{
	{
		ID: ecc.BN254, Name: "bn254",
		FrBytes: 32, FpBytes: 32, FrBits: 254,
		G1AffineBytes: 64, G2AffineBytes: 128, G1JacBytes: 96, G2JacBytes: 192,
	},
	{
		ID: ecc.BLS12_381, Name: "bls12-381",
		FrBytes: 32, FpBytes: 48, FrBits: 255,
		G1AffineBytes: 96, G2AffineBytes: 192, G1JacBytes: 144, G2JacBytes: 288,
	},
	{
		ID: ecc.BLS12_377, Name: "bls12-377",
		FrBytes: 32, FpBytes: 48, FrBits: 253,
		G1AffineBytes: 96, G2AffineBytes: 192, G1JacBytes: 144, G2JacBytes: 288,
	},
	{
		ID: ecc.BW6_761, Name: "bw6-761",
		FrBytes: 48, FpBytes: 96, FrBits: 377,
		G1AffineBytes: 192, G2AffineBytes: 192, G1JacBytes: 288, G2JacBytes: 288,
	},
}

// Get returns the parameters of the curve id, or an error naming the curve
// and the curves g16 supports.
func Get(id ecc.ID) (*Params, error) {
	for i := range table {
		if table[i].ID == id {
			return &table[i], nil
		}
	}
	return nil, fmt.Errorf("curve %s is not supported by g16 (supported: %s)", Name(id), SupportedNames())
}

// Must is Get for a curve the caller has already checked; it panics on an
// unsupported one (an internal error).
func Must(id ecc.ID) *Params {
	p, err := Get(id)
	if err != nil {
		panic("curve: internal error: " + err.Error())
	}
	return p
}

// IsSupported reports whether g16 proves on id.
func IsSupported(id ecc.ID) bool {
	_, err := Get(id)
	return err == nil
}

// Supported lists the curves g16 proves on.
func Supported() []ecc.ID {
	ids := make([]ecc.ID, len(table))
	for i := range table {
		ids[i] = table[i].ID
	}
	return ids
}

// SupportedNames is Supported as text: "bn254, bls12-381, bls12-377, bw6-761".
func SupportedNames() string {
	names := make([]string, len(table))
	for i := range table {
		names[i] = table[i].Name
	}
	return strings.Join(names, ", ")
}

// Name is the name of any curve id as its gnark-crypto package is named
// ("bn254", "bls12-381"), supported or not.
func Name(id ecc.ID) (name string) {
	defer func() {
		// ecc.ID.String panics on an ID it does not know.
		if recover() != nil {
			name = fmt.Sprintf("curve(%d)", uint16(id))
		}
	}()
	if id == ecc.UNKNOWN {
		return "unknown"
	}
	return strings.ReplaceAll(id.String(), "_", "-")
}

// Parse returns the curve named s ("bn254", "BN254", "bls12-381",
// "bls12_381", "BLS12-377", "bw6_761"), or an error listing the supported names.
func Parse(s string) (ecc.ID, error) {
	want := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "_", "-")
	for i := range table {
		if table[i].Name == want {
			return table[i].ID, nil
		}
	}
	return ecc.UNKNOWN, fmt.Errorf("curve %q is not supported by g16 (supported: %s)", s, SupportedNames())
}
