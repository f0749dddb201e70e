package testvectors

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"

	"github.com/g16prover/g16/internal/testvectors/internal/curves"
	"github.com/g16prover/g16/internal/testvectors/internal/suite"
)

// SeedEnv names the environment variable that fixes the cross-checks'
// seed (a decimal uint64), to repeat a failed run.
const SeedEnv = suite.SeedEnv

// CrossSeed returns the seed in SeedEnv if set, else a fresh random one.
func CrossSeed() (uint64, error) {
	if s := os.Getenv(SeedEnv); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("testvectors: %s=%q: %w", SeedEnv, s, err)
		}
		return v, nil
	}
	return rand.Uint64(), nil
}

// CrossChecks returns checks that compare a backend with the CPU backend
// on inputs drawn from seed, on every curve: NTTs of random variants and
// sizes, quotients, and MSMs of random lengths whose scalars mix random
// values with 0, 1 and r−1. Their names say the curve and what was drawn
// ("bn254/MSMG1/2/len=1234"); their errors carry the seed.
func CrossChecks(seed uint64) []Check {
	var checks []Check
	for _, c := range curves.All() {
		for _, k := range c.CrossChecks(seed) {
			checks = append(checks, fromSuite(k))
		}
	}
	return checks
}
