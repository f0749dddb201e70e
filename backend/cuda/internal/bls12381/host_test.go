package bls12381

import (
	"crypto/rand"
	"encoding/binary"
	"math/big"
	mrand "math/rand/v2"
	"os"
	"strconv"
	"testing"
	"unsafe"

	curve "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr/fft"
)

// testRand returns a generator seeded from G16_SEED or fresh randomness,
// the seed logged so that a failure can be replayed.
func testRand(t *testing.T) *mrand.Rand {
	t.Helper()
	var seed uint64
	if s := os.Getenv("G16_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("G16_SEED: %v", err)
		}
		seed = v
	} else {
		var b [8]byte
		_, _ = rand.Read(b[:])
		seed = binary.LittleEndian.Uint64(b[:])
	}
	t.Logf("seed %d (set G16_SEED to replay)", seed)
	return mrand.New(mrand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// randBytes is twice an fp.Element's bytes at random: reduced modulo Fp's
// or Fr's modulus, nearly uniform.
func randBytes(rng *mrand.Rand) []byte {
	b := make([]byte, 2*fp.Bytes)
	for i := 0; i < len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:], rng.Uint64())
	}
	return b
}

func randFr(rng *mrand.Rand) fr.Element {
	var x fr.Element
	x.SetBytes(randBytes(rng))
	return x
}

func randFp(rng *mrand.Rand) fp.Element {
	var x fp.Element
	x.SetBytes(randBytes(rng))
	return x
}

func randNonzeroFp(rng *mrand.Rand) fp.Element {
	for {
		if x := randFp(rng); !x.IsZero() {
			return x
		}
	}
}

// g1XYZZ writes p (x, y affine; infinity when inf) as the kernels' XYZZ
// point into c, with a random z: (x·z², y·z³, z², z³). The point at
// infinity gets ZZ = 0 and random X, Y, ZZZ.
func g1XYZZ(rng *mrand.Rand, c []fp.Element, p curve.G1Affine, inf bool) {
	toXYZZ(rng, c, &p.X, &p.Y, inf)
}

// g2XYZZ is g1XYZZ in G2, over the type of its coordinates (msm.go).
func g2XYZZ(rng *mrand.Rand, c []fp.Element, p curve.G2Affine, inf bool) {
	toXYZZ(rng, c, &p.X, &p.Y, inf)
}

// toXYZZ writes (x, y) as g1XYZZ says, over the coordinate type E, whose
// fp.Elements (one, or two for E2) c holds in order.
func toXYZZ[E any, PE coord[E]](rng *mrand.Rand, c []fp.Element, x, y *E, inf bool) {
	k := int(unsafe.Sizeof(*x) / unsafe.Sizeof(fp.Element{}))
	at := func(i int) *E { return (*E)(unsafe.Pointer(&c[k*i])) }
	random := func(e *E) {
		for i, l := 0, unsafe.Slice((*fp.Element)(unsafe.Pointer(e)), k); i < k; i++ {
			l[i] = randFp(rng)
		}
	}
	if inf {
		random(at(0))
		random(at(1))
		*at(2) = *new(E)
		random(at(3))
		return
	}
	var z E
	for random(&z); PE(&z).IsZero(); random(&z) {
	}
	PE(at(2)).Square(&z)
	PE(at(3)).Mul(at(2), &z)
	PE(at(0)).Mul(x, at(2))
	PE(at(1)).Mul(y, at(3))
}

// sumsCase is the shape of an MSM pass's window sums: nw windows, pairs
// points a window (an A and an R half when pairs > 1), combined with shift.
type sumsCase struct {
	nw, pairs, shift int
}

// TestAddSums: the window sums of an MSM pass, as XYZZ points with random
// Z (some the point at infinity), added into a random accumulator, equal
// the same points combined by gnark-crypto's scalar multiplications and
// additions: acc + Σ_j 2^(shift·j)·W_j, W_j the point or Σ_s A_s + Σ_s s·R_s.
func TestAddSums(t *testing.T) {
	rng := testRand(t)
	var h Host
	_, g2Jac, g1, g2 := curve.Generators()
	cases := []sumsCase{{1, 1, 0}, {1, 1, 13}, {5, 1, 1}, {22, 1, 12}, {64, 1, 4}, {3, 2, 16}, {26, 2, 10}, {4, 5, 9}, {2, 64, 20}}
	for _, c := range cases {
		for _, g2Group := range []bool{false, true} {
			per := c.pairs
			if c.pairs > 1 {
				per = 2 * c.pairs
			}
			points := c.nw * per
			limbs := g1Limbs
			if g2Group {
				limbs = g2Limbs
			}
			win := make([]fp.Element, points*limbs)
			// The expected sum, as a multiple of the generator: weights[k]
			// is the coefficient of point k, logs[k] its discrete log.
			var want1 curve.G1Jac
			var want2 curve.G2Jac
			acc0 := randFr(rng)
			want1.ScalarMultiplicationBase(acc0.BigInt(new(big.Int)))
			want2.ScalarMultiplication(&g2Jac, acc0.BigInt(new(big.Int)))
			var acc []byte
			if g2Group {
				acc = bytesOf([]curve.G2Jac{want2})
			} else {
				acc = bytesOf([]curve.G1Jac{want1})
			}
			var total fr.Element
			total.Set(&acc0)
			for k := 0; k < points; k++ {
				inf := rng.IntN(7) == 0
				lg := randFr(rng)
				if g2Group {
					var p curve.G2Affine
					p.ScalarMultiplication(&g2, lg.BigInt(new(big.Int)))
					g2XYZZ(rng, win[k*limbs:], p, inf)
				} else {
					var p curve.G1Affine
					p.ScalarMultiplication(&g1, lg.BigInt(new(big.Int)))
					g1XYZZ(rng, win[k*limbs:], p, inf)
				}
				if inf {
					continue
				}
				// Point k is window j's A_s or R_s (or the window's sum).
				var weight fr.Element
				if c.pairs <= 1 {
					weight.SetUint64(1)
					weight.Exp(*new(fr.Element).SetUint64(2), big.NewInt(int64(c.shift*k)))
				} else {
					half := c.nw * c.pairs
					j, s, mul := k/c.pairs, k%c.pairs, uint64(1)
					if k >= half {
						j, s = (k-half)/c.pairs, (k-half)%c.pairs
						mul = uint64(s)
					}
					weight.Exp(*new(fr.Element).SetUint64(2), big.NewInt(int64(c.shift*j)))
					weight.Mul(&weight, new(fr.Element).SetUint64(mul))
				}
				lg.Mul(&lg, &weight)
				total.Add(&total, &lg)
			}
			h.AddSums(g2Group, acc, bytesOf(win), c.nw, c.pairs, c.shift)
			if g2Group {
				var want curve.G2Jac
				want.ScalarMultiplication(&g2Jac, total.BigInt(new(big.Int)))
				if got := as[curve.G2Jac](acc); !got.Equal(&want) {
					t.Errorf("G2 nw=%d pairs=%d shift=%d: sums differ from gnark-crypto's", c.nw, c.pairs, c.shift)
				}
			} else {
				var want curve.G1Jac
				want.ScalarMultiplicationBase(total.BigInt(new(big.Int)))
				if got := as[curve.G1Jac](acc); !got.Equal(&want) {
					t.Errorf("G1 nw=%d pairs=%d shift=%d: sums differ from gnark-crypto's", c.nw, c.pairs, c.shift)
				}
			}
		}
	}
}

// TestSetInfinity: the Jacobian point at infinity, over any bytes.
func TestSetInfinity(t *testing.T) {
	rng := testRand(t)
	var h Host
	p1 := []curve.G1Jac{{X: randFp(rng), Y: randFp(rng), Z: randFp(rng)}}
	h.SetInfinity(false, bytesOf(p1))
	if !p1[0].Z.IsZero() || !p1[0].X.IsOne() || !p1[0].Y.IsOne() {
		t.Errorf("G1: %v, want (1, 1, 0)", p1[0])
	}
	p2 := make([]curve.G2Jac, 1)
	*(*fp.Element)(unsafe.Pointer(&p2[0].Z)) = randNonzeroFp(rng) // Z's first fp.Element
	h.SetInfinity(true, bytesOf(p2))
	if !p2[0].Z.IsZero() || !p2[0].X.IsOne() || !p2[0].Y.IsOne() {
		t.Errorf("G2: %v, want (1, 1, 0)", p2[0])
	}
}

// TestTwiddleTables: each part of the tables holds the powers its layout
// says, of gnark-crypto's domain generator (inverted for the inverse).
func TestTwiddleTables(t *testing.T) {
	var h Host
	for _, logN := range []int{1, 2, 3, 7, 12, 13} {
		for _, inverse := range []bool{false, true} {
			logRoots, win, logDirect := min(logN, 12), (logN+1)/2, 0
			if logN >= 2 {
				logDirect = min(logN-1, 18)
			}
			tab := view[fr.Element](h.TwiddleTables(logN, inverse, logRoots, win, logDirect))
			d := fft.NewDomain(uint64(1) << logN)
			w := d.Generator
			if inverse {
				w = d.GeneratorInv
			}
			pow := func(e uint64) fr.Element {
				var x fr.Element
				x.Exp(w, new(big.Int).SetUint64(e))
				return x
			}
			var ninv fr.Element
			ninv.SetUint64(uint64(1) << logN).Inverse(&ninv)
			type part struct {
				name string
				n    int
				at   func(i int) fr.Element
			}
			parts := []part{
				{"roots", 1 << (logRoots - 1), func(i int) fr.Element { return pow(uint64(i) << (logN - logRoots)) }},
				{"lo", 1 << win, func(i int) fr.Element { return pow(uint64(i)) }},
				{"hi", 1 << (logN - win), func(i int) fr.Element { return pow(uint64(i) << win) }},
			}
			if inverse {
				parts = append(parts, part{"hi0", 1 << (logN - win), func(i int) fr.Element {
					x := pow(uint64(i) << win)
					return *x.Mul(&x, &ninv)
				}})
			}
			if logDirect > 0 {
				parts = append(parts, part{"direct", 1 << logDirect, func(i int) fr.Element { return pow(uint64(i) << (logN - logDirect)) }})
			}
			off := 0
			for _, p := range parts {
				for i := 0; i < p.n; i++ {
					if want := p.at(i); !tab[off+i].Equal(&want) {
						t.Fatalf("logN=%d inverse=%v: %s[%d] differs", logN, inverse, p.name, i)
					}
				}
				off += p.n
			}
			if off != len(tab) {
				t.Errorf("logN=%d inverse=%v: %d scalars, the parts take %d", logN, inverse, len(tab), off)
			}
		}
	}
}

// TestScaleTables: lo[i mod 2^win]·hi[i >> win] is g^i forward and
// n⁻¹·g^(−i) inverse, for a random shift g.
func TestScaleTables(t *testing.T) {
	rng := testRand(t)
	var h Host
	for _, logN := range []int{1, 4, 9, 10} {
		for _, inverse := range []bool{false, true} {
			g := randFr(rng)
			win := (logN + 1) / 2
			tab := view[fr.Element](h.ScaleTables(logN, inverse, win, bytesOf([]fr.Element{g})))
			if len(tab) != 1<<win+1<<(logN-win) {
				t.Fatalf("logN=%d: %d scalars, want %d", logN, len(tab), 1<<win+1<<(logN-win))
			}
			base := g
			var first fr.Element
			first.SetOne()
			if inverse {
				base.Inverse(&g)
				first.SetUint64(uint64(1) << logN).Inverse(&first)
			}
			for i := 0; i < 1<<logN; i++ {
				var want, got fr.Element
				want.Exp(base, big.NewInt(int64(i))).Mul(&want, &first)
				got.Mul(&tab[i%(1<<win)], &tab[1<<win+i>>win])
				if !got.Equal(&want) {
					t.Fatalf("logN=%d inverse=%v: factor %d differs", logN, inverse, i)
				}
			}
		}
	}
}

// TestNInverse and MaxLogN: n·n⁻¹ = 1, and the domain of 2^MaxLogN exists
// while the next does not.
func TestNInverse(t *testing.T) {
	var h Host
	for _, logN := range []int{0, 1, 20, h.MaxLogN()} {
		x := *as[fr.Element](h.NInverse(logN))
		var n fr.Element
		n.SetUint64(uint64(1)<<logN).Mul(&n, &x)
		if !n.IsOne() {
			t.Errorf("2^%d · NInverse(%d) = %v, want 1", logN, logN, n)
		}
	}
	if _, err := fft.Generator(uint64(1) << h.MaxLogN()); err != nil {
		t.Errorf("MaxLogN %d: no domain of that size: %v", h.MaxLogN(), err)
	}
	if _, err := fft.Generator(uint64(1) << (h.MaxLogN() + 1)); err == nil {
		t.Errorf("MaxLogN %d: the next size has a domain too", h.MaxLogN())
	}
	rng := testRand(t)
	if !h.ScalarIsZero(make([]byte, fr.Bytes)) {
		t.Error("ScalarIsZero(0) is false")
	}
	if s := randFr(rng); h.ScalarIsZero(bytesOf([]fr.Element{s})) != s.IsZero() {
		t.Errorf("ScalarIsZero(%v) = %v", s, !s.IsZero())
	}
}
