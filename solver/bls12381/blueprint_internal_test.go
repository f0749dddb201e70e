package bls12381

import (
	"math/rand/v2"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark/constraint"
	cs "github.com/consensys/gnark/constraint/bls12-381"
)

// TestInvertRun: invertRun gives every expression's inverse (zero for
// zero), whether it is read once per distinct word or not: repeated words
// under one or several coefficients (more than the memo holds), another A,
// a constant term, words above 2¹⁶ and not noted, values that are zero,
// expressions of one and three terms; twice on one scratch, with another
// α, so that the first run's memo must not be reused.
func TestInvertRun(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 5))
	r := &cs.R1CS{}
	r.Coefficients = make([]fr.Element, constraint.CoeffIdMinusOne+1)
	r.Coefficients[constraint.CoeffIdOne].SetOne()
	r.Coefficients[constraint.CoeffIdTwo].SetUint64(2)
	r.Coefficients[constraint.CoeffIdMinusOne].SetOne()
	r.Coefficients[constraint.CoeffIdMinusOne].Neg(&r.Coefficients[constraint.CoeffIdMinusOne])
	for range 3 {
		var c fr.Element
		c.SetRandom()
		r.Coefficients = append(r.Coefficients, c)
	}
	cids := []uint32{constraint.CoeffIdMinusOne, constraint.CoeffIdOne, 4, 5, 6}

	const nbWires = 400
	const alpha, beta = 1, 2 // the A wires
	sc := new(scratch)       // shared by the runs
	for run := range 2 {
		st := &state{s: &Solver{r1cs: r, nbWires: nbWires, coeffSmall: smallCoeffsOf(r.Coefficients)}, values: make([]fr.Element, nbWires), solved: make([]bool, nbWires), words: make([]uint32, nbWires)}
		var a fr.Element
		a.SetUint64(uint64(7 + run)) // α − q is zero for q = α
		st.set(alpha, &a)
		a.SetRandom()
		st.set(beta, &a)
		for w := 3; w < nbWires; w++ {
			switch {
			case w < 300: // words below 2^16, many repeated, 7 among them
				st.setWordAt(w, uint64(rng.IntN(12)))
			case w < 340: // words above 2^16
				st.setWordAt(w, 1<<16+uint64(rng.IntN(3)))
			default: // elements
				var e fr.Element
				e.SetRandom()
				st.set(w, &e)
			}
		}
		cd := []uint32{0, 0} // the batch inverse's header, unused by invertRun
		const n = 600
		for range n {
			q := uint32(3 + rng.IntN(nbWires-3))
			c := cids[rng.IntN(len(cids))]
			A := uint32(alpha)
			if rng.IntN(10) == 0 {
				A = beta
			}
			switch rng.IntN(12) {
			case 0:
				cd = append(cd, 2, constraint.CoeffIdOne, constantWire, c, q)
			case 1:
				cd = append(cd, 1, c, q)
			case 2:
				cd = append(cd, 3, constraint.CoeffIdOne, A, c, q, constraint.CoeffIdTwo, q)
			case 3: // the word term second
				cd = append(cd, 2, constraint.CoeffIdOne, A, c, q)
			default:
				cd = append(cd, 2, c, q, constraint.CoeffIdOne, A)
			}
		}
		cd = append(cd, 0, 0)
		want := make([]fr.Element, n)
		j := 2
		for i := range want {
			j += st.read(&want[i], cd[j:])
			want[i].Inverse(&want[i]) // 0 for 0
		}
		big := &state{s: st.s, values: make([]fr.Element, nbWires+n), solved: make([]bool, nbWires+n), words: make([]uint32, nbWires+n)}
		copy(big.values, st.values)
		copy(big.words, st.words)
		zeros := 0
		big.invertRun(cd, 2, nbWires, n, sc)
		for i := range want {
			if want[i].IsZero() {
				zeros++
			}
			if got := big.values[nbWires+i]; !got.Equal(&want[i]) || !big.solved[nbWires+i] {
				t.Fatalf("run %d, expression %d: %s, want %s", run, i, got.String(), want[i].String())
			}
		}
		if zeros == 0 {
			t.Fatalf("run %d: no zero value among the expressions", run)
		}
	}
}
