package testvectors

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"math/big"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"

	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr/fft"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/curve"
	"github.com/g16prover/g16/internal/testvectors/internal/draw"
	"github.com/g16prover/g16/internal/testvectors/vecfile"
)

// SeedEnv names the environment variable that fixes the cross-checks'
// seed (a decimal uint64), to repeat a failed run.
const SeedEnv = "G16_CONFORMANCE_SEED"

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

// How many cross-checks of each kind one run draws.
const (
	crossNTTs    = 8
	crossHs      = 2
	crossMSMG1s  = 4
	crossMSMG2s  = 3
	maxCrossLogN = 13
	maxCrossG1   = 5000
	maxCrossG2   = 1500
)

// CrossChecks returns checks that compare a backend with the CPU backend
// on inputs drawn from seed: NTTs of random variants and sizes, quotient
// steps, and MSMs of random lengths whose scalars mix random values with
// 0, 1 and r−1. Their names say what was drawn; their errors carry the
// seed.
func CrossChecks(seed uint64) []Check {
	var checks []Check
	// Each check draws from its own stream: SHA-256 of the seed (8 bytes,
	// little-endian) and "/what/i".
	stream := func(what string, i int) *rand.ChaCha8 {
		key := binary.LittleEndian.AppendUint64(nil, seed)
		key = fmt.Appendf(key, "/%s/%d", what, i)
		return rand.NewChaCha8(sha256.Sum256(key))
	}
	add := func(name string, run func(b, ref backend.Backend) error) {
		checks = append(checks, Check{Group: GroupCross, Name: name, run: func(b backend.Backend) error {
			ref, err := cpu.New()
			if err != nil {
				return err
			}
			defer ref.Close()
			if err := run(b, ref); err != nil {
				return fmt.Errorf("%w (seed %d; %s=%d repeats it)", err, seed, SeedEnv, seed)
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
			g := draw.Element(rng)
			spec.CosetShift = backend.ValueBytes(&g)
		}
		in := draw.Elements(rng, 1<<spec.LogN)
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
		a, bb, c := draw.Elements(rng, n), draw.Elements(rng, n), draw.Elements(rng, n)
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
	crossMSMs(msmG1, "msm-g1", crossMSMG1s, maxCrossG1, randomG1Bases, stream, add)
	crossMSMs(msmG2, "msm-g2", crossMSMG2s, maxCrossG2, randomG2Bases, stream, add)
	for _, id := range curve.Supported() {
		if ops, ok := contractCurves[id]; ok && id != ecc.BLS12_381 {
			checks = append(checks, curveCrossChecks(seed, ops, stream)...)
		}
	}
	return checks
}

// Sizes of the cross-checks on curves other than BLS12-381, whose bases
// are drawn one scalar multiplication each.
const (
	maxCurveG1 = 2000
	maxCurveG2 = 500
)

// curveCrossChecks are CrossChecks on ops' curve, other than BLS12-381's
// (above), named after the curve: NTTs of random variants and sizes,
// quotient steps on random scalars, and MSMs over G1 and G2 of random
// lengths with witness-like scalars, against the CPU backend; the MSMs'
// results compared in affine coordinates.
func curveCrossChecks(seed uint64, ops curveOps, stream func(what string, i int) *rand.ChaCha8) []Check {
	id := ops.Curve()
	p := curve.Must(id)
	var checks []Check
	add := func(name string, run func(b, ref backend.Backend) error) {
		checks = append(checks, Check{Group: GroupCross, Curve: id, Name: curve.Name(id) + "/" + name, run: func(b backend.Backend) error {
			ref, err := cpu.New()
			if err != nil {
				return err
			}
			defer ref.Close()
			if err := run(b, ref); err != nil {
				return fmt.Errorf("%w (seed %d; %s=%d repeats it)", err, seed, SeedEnv, seed)
			}
			return nil
		}})
	}
	// both runs f on b and on the reference and compares their results.
	both := func(f func(b backend.Backend) ([]byte, error)) func(b, ref backend.Backend) error {
		return func(b, ref backend.Backend) error {
			want, err := f(ref)
			if err != nil {
				return fmt.Errorf("CPU backend: %w", err)
			}
			got, err := f(b)
			if err != nil {
				return err
			}
			if !bytes.Equal(got, want) {
				return fmt.Errorf("differs from the CPU backend%s", firstDiff(got, want, int(p.FrBytes)))
			}
			return nil
		}
	}
	for i := range crossNTTs {
		rng := stream(curve.Name(id)+"/ntt", i)
		r := rand.New(rng)
		spec := backend.NTTSpec{Curve: id, LogN: 1 + r.IntN(maxCrossLogN), Inverse: r.IntN(2) == 1, Order: backend.Order(r.IntN(2)), Coset: r.IntN(2) == 1}
		if spec.Coset {
			spec.CosetShift = ops.Scalars(rng, 1)
		}
		in := ops.Scalars(rng, 1<<spec.LogN)
		add(fmt.Sprintf("NTT/%d/n=2^%d/%s", i, spec.LogN, specString(spec)), both(func(b backend.Backend) ([]byte, error) {
			return runOn(b, [][]byte{in}, func(d *device, bufs []backend.Buffer) error { return b.NTT(d.q, bufs[0], spec) })
		}))
	}
	for i := range crossHs {
		rng := stream(curve.Name(id)+"/quotient", i)
		n := 1 + rand.New(rng).IntN(1<<maxCrossLogN)
		a, bb, c, z := ops.Scalars(rng, n), ops.WitnessScalars(rng, n), ops.Scalars(rng, n), ops.Scalars(rng, 1)
		add(fmt.Sprintf("QuotientStep/%d/n=%d", i, n), both(func(b backend.Backend) ([]byte, error) {
			return runOn(b, [][]byte{a, bb, c}, func(d *device, bufs []backend.Buffer) error {
				return b.QuotientStep(d.q, id, bufs[0], bufs[1], bufs[2], n, z)
			})
		}))
	}
	for _, g := range []struct {
		name        string
		g2          bool
		count, most int
		jac         int64
	}{{"MSMG1", false, crossMSMG1s, maxCurveG1, p.G1JacBytes}, {"MSMG2", true, crossMSMG2s, maxCurveG2, p.G2JacBytes}} {
		for i := range g.count {
			rng := stream(curve.Name(id)+"/"+g.name, i)
			n := 1 + rand.New(rng).IntN(g.most)
			scalars, logs := ops.WitnessScalars(rng, n), ops.Scalars(rng, n)
			bases := sync.OnceValue(func() []byte { // logs[i]·G, made when the check runs
				g1, g2 := ops.Points(logs)
				if g.g2 {
					return g2
				}
				return g1
			})
			add(fmt.Sprintf("%s/%d/len=%d", g.name, i, n), both(func(b backend.Backend) ([]byte, error) {
				bases := bases()
				out := make([]byte, g.jac)
				_, err := runOn(b, [][]byte{bases, scalars}, func(d *device, bufs []backend.Buffer) error {
					if g.g2 {
						return b.MSMG2(d.q, id, out, bufs[0], 0, bufs[1], n)
					}
					return b.MSMG1(d.q, id, out, bufs[0], 0, bufs[1], n)
				})
				if err != nil {
					return nil, err
				}
				return ops.Affine(g.g2, out)
			}))
		}
	}
	return checks
}

// runOn uploads each of in to a buffer of b, runs f on them, and returns
// the first buffer's bytes afterwards.
func runOn(b backend.Backend, in [][]byte, f func(d *device, bufs []backend.Buffer) error) (out []byte, err error) {
	d, err := open(b)
	if err != nil {
		return nil, err
	}
	defer func() { err = d.close(err) }()
	bufs := make([]backend.Buffer, len(in))
	for i, data := range in {
		if bufs[i], err = d.upload(data); err != nil {
			return nil, err
		}
	}
	if err := f(d, bufs); err != nil {
		return nil, err
	}
	out = make([]byte, len(in[0]))
	if err := b.Download(d.q, out, bufs[0], 0); err != nil {
		return nil, fmt.Errorf("Download: %w", err)
	}
	return out, nil
}

// firstDiff says where got first differs from want, in values of size
// bytes.
func firstDiff(got, want []byte, size int) string {
	if len(got) != len(want) {
		return fmt.Sprintf(": %d bytes, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			return fmt.Sprintf(": first at value %d of %d", i/size, len(got)/size)
		}
	}
	return ""
}

// crossMSMs adds count checks of MSMs over g against the reference backend,
// each of 1 to maxN bases drawn by randomBases and witness-like scalars,
// from the streams "what/i".
func crossMSMs[A vecfile.Point, J any, PA affinePoint[A, J]](
	g *msmGroup[A, J, PA], what string, count, maxN int,
	randomBases func(rng io.Reader, n int) []A,
	stream func(what string, i int) *rand.ChaCha8,
	add func(name string, run func(b, ref backend.Backend) error),
) {
	for i := range count {
		rng := stream(what, i)
		n := 1 + rand.New(rng).IntN(maxN)
		scalars := witnessLikeScalars(rng, n)
		basesSeed := draw.Element(rng)
		add(fmt.Sprintf("%s/%d/len=%d", g.name, i, n), func(b, ref backend.Backend) error {
			bases := randomBases(rand.NewChaCha8(basesSeed.Bytes()), n)
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
			s[i] = draw.Element(rng)
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
			e := draw.Element(rng)
			PA(&s).ScalarMultiplicationBase(e.BigInt(new(big.Int)))
			e = draw.Element(rng)
			PA(&step).ScalarMultiplicationBase(e.BigInt(new(big.Int)))
			PJ(&p).FromAffine(&s)
		} else {
			PJ(&p).AddMixed(&step)
		}
		jac[i] = p
	}
	return toAffine(jac)
}
