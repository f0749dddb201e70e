package bls12381

import (
	"fmt"
	"hash/fnv"

	"github.com/consensys/gnark/constraint/solver"
)

// randomizeHintName is the hint gnark's R1CS builder adds to every
// commitment (frontend/cs/r1cs, Commit): a random mask drawn from
// crypto/rand.Reader while solving. gnark keeps the function in an internal
// package, so it is found by name; its ID is gnark's: FNV-1a (32 bits) of
// the name.
const randomizeHintName = "github.com/consensys/gnark/internal/hints.Randomize"

var randomizeHintID = func() solver.HintID {
	h := fnv.New32a()
	h.Write([]byte(randomizeHintName))
	return solver.HintID(h.Sum32())
}()

// checkRandomizeHint reports whether gnark registers the mask hint under
// the ID we override; if not, our proofs of circuits with commitments
// could not match gnark's.
func checkRandomizeHint() error {
	fn := solver.GetRegisteredHint(randomizeHintID)
	if fn == nil || solver.GetHintName(fn) != randomizeHintName {
		return fmt.Errorf("groth16: internal error: gnark's commitment mask hint %s is not registered under ID %d (unsupported gnark version?)", randomizeHintName, randomizeHintID)
	}
	return nil
}
