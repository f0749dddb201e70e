package bls12381

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"math/big"
	"math/rand/v2"

	"github.com/g16prover/g16/internal/testvectors/internal/suite"

	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr/fft"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
)

// How many cross-checks of each kind one run draws.
const (
	crossNTTs    = 8
	crossHs      = 2
	crossMSMG1s  = 4
	crossMSMG2s  = 3
	maxCrossLogN = 13
)

// CrossChecks returns checks that compare a backend with the CPU backend
// on inputs drawn from seed: NTTs of random variants and sizes, quotient
// steps, and MSMs of random lengths whose scalars mix random values with
// 0, 1 and r−1. Their names say what was drawn; their errors carry the
// seed.
func CrossChecks(seed uint64) []suite.Check {
	var checks []suite.Check
	// Each check draws from its own stream: SHA-256 of the seed (8 bytes,
	// little-endian) and "/what/i".
	stream := func(what string, i int) *rand.ChaCha8 {
		key := binary.LittleEndian.AppendUint64(nil, seed)
		key = fmt.Appendf(key, "/%s/%d", what, i)
		return rand.NewChaCha8(sha256.Sum256(key))
	}
	add := func(name string, run func(b, ref backend.Backend) error) {
		checks = append(checks, suite.Check{Group: suite.GroupCross, Curve: ecc.BLS12_381, Name: name, Run: func(b backend.Backend) error {
			ref, err := cpu.New()
			if err != nil {
				return err
			}
			defer ref.Close()
			if err := run(b, ref); err != nil {
				return fmt.Errorf("%w (seed %d; %s=%d repeats it)", err, seed, suite.SeedEnv, seed)
			}
			return nil
		}})
	}

	for i := range crossNTTs {
		rng := stream("ntt", i)
		r := rand.New(rng)
		spec := backend.NTTSpec{
			Curve:   ecc.BLS12_381,
			LogN:    1 + r.IntN(maxCrossLogN),
			Inverse: r.IntN(2) == 1,
			Order:   backend.Order(r.IntN(2)),
			Coset:   r.IntN(2) == 1,
		}
		if spec.Coset {
			g := randomElement(rng)
			spec.CosetShift = backend.ValueBytes(&g)
		}
		in := randomElements(rng, 1<<spec.LogN)
		name := fmt.Sprintf("NTT/%d/n=2^%d/%s", i, spec.LogN, specString(spec))
		add(name, func(b, ref backend.Backend) error {
			want, err := runNTT(ref, spec, in)
			if err != nil {
				return fmt.Errorf("CPU backend: %w", err)
			}
			got, err := runNTT(b, spec, in)
			if err != nil {
				return err
			}
			return compareElements(got, want)
		})
	}
	for i := range crossHs {
		rng := stream("h", i)
		logN := 1 + rand.New(rng).IntN(maxCrossLogN)
		n := 1 << logN
		a, bb, c := randomElements(rng, n), randomElements(rng, n), randomElements(rng, n)
		shift := fft.GeneratorFullMultiplicativeGroup()
		add(fmt.Sprintf("H/%d/n=2^%d", i, logN), func(b, ref backend.Backend) error {
			want, err := runQuotient(ref, logN, shift, a, bb, c)
			if err != nil {
				return fmt.Errorf("CPU backend: %w", err)
			}
			got, err := runQuotient(b, logN, shift, a, bb, c)
			if err != nil {
				return err
			}
			return compareElements(got, want)
		})
	}
	crossMSMs(msmG1, "msm-g1", crossMSMG1s, sizes.CrossG1, randomG1Bases, stream, add)
	crossMSMs(msmG2, "msm-g2", crossMSMG2s, sizes.CrossG2, randomG2Bases, stream, add)
	return checks
}

// crossMSMs adds count checks of MSMs over g against the reference backend,
// each of 1 to maxN bases drawn by randomBases and witness-like scalars,
// from the streams "what/i".
func crossMSMs[A Point, J any, PA affinePoint[A, J]](
	g *msmGroup[A, J, PA], what string, count, maxN int,
	randomBases func(rng io.Reader, n int) []A,
	stream func(what string, i int) *rand.ChaCha8,
	add func(name string, run func(b, ref backend.Backend) error),
) {
	for i := range count {
		rng := stream(what, i)
		n := 1 + rand.New(rng).IntN(maxN)
		scalars := witnessLikeScalars(rng, n)
		basesSeed := randomElement(rng)
		add(fmt.Sprintf("%s/%d/len=%d", g.name, i, n), func(b, ref backend.Backend) error {
			var seed [32]byte
			sb := basesSeed.Bytes()
			copy(seed[:], sb[:])
			bases := randomBases(rand.NewChaCha8(seed), n)
			want, err := g.run(ref, bases, scalars, 0)
			if err != nil {
				return fmt.Errorf("CPU backend: %w", err)
			}
			got, err := g.run(b, bases, scalars, 0)
			if err != nil {
				return err
			}
			if err := g.compare(&got, &want); err != nil {
				return fmt.Errorf("against the CPU backend: %w", err)
			}
			return nil
		})
	}
}

func specString(s backend.NTTSpec) string {
	kind, dir := "plain", "forward"
	if s.Coset {
		kind = "coset"
	}
	if s.Inverse {
		dir = "inverse"
	}
	return fmt.Sprintf("%s/%s/%v", kind, dir, s.Order)
}

// witnessLikeScalars mixes random scalars with the values witnesses are
// full of: about a quarter each of 0, 1, r−1 and random.
func witnessLikeScalars(rng io.Reader, n int) []fr.Element {
	s := make([]fr.Element, n)
	var pick [1]byte
	for i := range s {
		if _, err := io.ReadFull(rng, pick[:]); err != nil {
			panic("testvectors: internal error: " + err.Error())
		}
		switch pick[0] % 4 {
		case 0:
		case 1:
			s[i].SetOne()
		case 2:
			s[i].SetOne()
			s[i].Neg(&s[i])
		default:
			s[i] = randomElement(rng)
		}
	}
	return s
}

// Random bases are made in runs of basesRun points S, S+T, S+2T, ...
// with S and T random multiples of the generator: distinct, independent
// from run to run, and far cheaper than a scalar multiplication each.
const basesRun = 64

func randomG1Bases(rng io.Reader, n int) []bls12381.G1Affine {
	return randomBases(rng, n, bls12381.BatchJacobianToAffineG1)
}

func randomG2Bases(rng io.Reader, n int) []bls12381.G2Affine {
	return randomBases(rng, n, func(jac []bls12381.G2Jac) []bls12381.G2Affine {
		out := make([]bls12381.G2Affine, len(jac))
		for i := range jac {
			out[i].FromJacobian(&jac[i])
		}
		return out
	})
}

// randomBases draws n bases in runs of basesRun, as Jacobian points J,
// and returns them converted by toAffine.
func randomBases[A, J any, PA interface {
	*A
	ScalarMultiplicationBase(s *big.Int) *A
}, PJ interface {
	*J
	FromAffine(a *A) *J
	AddMixed(a *A) *J
}](rng io.Reader, n int, toAffine func([]J) []A) []A {
	jac := make([]J, n)
	var p J
	var step A
	for i := range jac {
		if i%basesRun == 0 {
			var s A
			e := randomElement(rng)
			PA(&s).ScalarMultiplicationBase(e.BigInt(new(big.Int)))
			e = randomElement(rng)
			PA(&step).ScalarMultiplicationBase(e.BigInt(new(big.Int)))
			PJ(&p).FromAffine(&s)
		} else {
			PJ(&p).AddMixed(&step)
		}
		jac[i] = p
	}
	return toAffine(jac)
}
