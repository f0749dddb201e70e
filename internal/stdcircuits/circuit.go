package stdcircuits

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
)

// Circuit is one sized instance of a standard-library circuit.
type Circuit struct {
	// Name says which circuit and its size, such as "sha256/bytes=400".
	Name string
	// Shape is the circuit to compile; its values are unset.
	Shape frontend.Circuit
	// Assign draws a valid assignment of Shape from rng.
	Assign func(rng *rand.Rand) (frontend.Circuit, error)
}

// Compile compiles c's shape into an R1CS over BLS12-381's scalar field.
func (c *Circuit) Compile() (constraint.ConstraintSystem, error) { return c.CompileOn(ecc.BLS12_381) }

// CompileOn compiles c's shape into an R1CS over the scalar field of the
// curve id: any circuit NewOn made for id (New's EdDSA is on Jubjub, over
// BLS12-381's scalar field only).
func (c *Circuit) CompileOn(id ecc.ID) (constraint.ConstraintSystem, error) {
	ccs, err := frontend.Compile(id.ScalarField(), r1cs.NewBuilder, c.Shape)
	if err != nil {
		return nil, fmt.Errorf("stdcircuits: compiling %s over %s: %w", c.Name, id, err)
	}
	return ccs, nil
}

// Kinds lists the names New accepts, each with what its size counts.
var Kinds = []struct{ Name, Size string }{
	{"sha256", "message bytes"},
	{"sha3", "message bytes"},
	{"ecdsa", "signatures"},
	{"eddsa", "signatures"},
	{"rangecheck", "checked values"},
	{"lookup", "lookups"},
}

// New returns the circuit named kind (one of Kinds) at the given size.
func New(kind string, size int) (*Circuit, error) {
	if size < 1 {
		return nil, fmt.Errorf("stdcircuits: %s: size %d, need at least 1", kind, size)
	}
	switch kind {
	case "sha256":
		return SHA256(size)
	case "sha3":
		return SHA3(size)
	case "ecdsa":
		return ECDSA(size)
	case "eddsa":
		return EdDSA(size)
	case "rangecheck":
		return RangeCheck(size, 16)
	case "lookup":
		return Lookup(64, size)
	}
	return nil, unknown(kind)
}

// NewOn is New for a circuit compiled over the scalar field of curve id:
// the circuits whose shape depends on the field (eddsa, on the twisted
// Edwards curve over it) are built for id, and recursion (RecursionOn, of
// size inner proofs) on BW6-761; the others are New's.
func NewOn(id ecc.ID, kind string, size int) (*Circuit, error) {
	if kind == Recursion {
		return RecursionOn(id, size)
	}
	if kind == "eddsa" {
		if size < 1 {
			return nil, fmt.Errorf("stdcircuits: %s: size %d, need at least 1", kind, size)
		}
		return EdDSAOn(id, size)
	}
	return New(kind, size)
}

func unknown(kind string) error {
	names := make([]string, len(Kinds))
	for i, k := range Kinds {
		names[i] = k.Name
	}
	return fmt.Errorf("stdcircuits: unknown circuit %q (known: %s)", kind, strings.Join(names, ", "))
}

func sized(kind, unit string, n int) string { return kind + "/" + unit + "=" + strconv.Itoa(n) }

// randReader reads random bytes from rng, for key generators that take an
// io.Reader.
type randReader struct{ rng *rand.Rand }

func (r randReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r.rng.Uint32())
	}
	return len(p), nil
}

// randBytes is n bytes drawn from rng.
func randBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	_, _ = randReader{rng}.Read(b)
	return b
}
