package bls12381

import (
	"github.com/consensys/gnark-crypto/ecc"
	curve "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// sumBlock is the most ±1 terms one call of sumSignedG1 or sumSignedG2
// adds, so that its work buffer stays small (12 MiB in G1). Tests lower it.
var sumBlock = 1 << 18

// multiExpG1 sets r to Σ s[i]·points[i] with tasks goroutines: the ±1
// terms by sumSignedG1, the small and the other terms by MultiExp, each
// set on its own (split.go).
func multiExpG1(r *curve.G1Jac, points []curve.G1Affine, s []fr.Element, tasks int) error {
	return multiExpSplit(r, points, s, tasks, g1Infinity(), sumSignedG1, (*curve.G1Jac).AddMixed,
		(*curve.G1Jac).AddAssign, (*curve.G1Jac).MultiExp)
}

// multiExpG2 is multiExpG1 over G2.
func multiExpG2(r *curve.G2Jac, points []curve.G2Affine, s []fr.Element, tasks int) error {
	return multiExpSplit(r, points, s, tasks, g2Infinity(), sumSignedG2, (*curve.G2Jac).AddMixed,
		(*curve.G2Jac).AddAssign, (*curve.G2Jac).MultiExp)
}

// multiExpSplit is multiExpG1 and multiExpG2 for one group: Jac its
// Jacobian points, Aff its affine ones, inf the point at infinity, sum the
// group's batched ±1 sum, and addMixed, add and msm the group's methods.
// The per-point work is in sum and msm; what goes through the function
// values here is a call per term sum leaves over and one per task.
func multiExpSplit[Jac, Aff any](r *Jac, points []Aff, s []fr.Element, tasks int, inf Jac,
	sum func(pts []Aff, sel []int32, work []Aff, rest func(p *Aff)),
	addMixed func(*Jac, *Aff) *Jac, add func(*Jac, *Jac) *Jac,
	msm func(*Jac, []Aff, []fr.Element, ecc.MultiExpConfig) (*Jac, error)) error {
	*r = inf
	if len(points) == 0 {
		return nil
	}
	cfg := ecc.MultiExpConfig{NbTasks: tasks}
	sp, ok := splitScalars(s, tasks)
	if !ok {
		_, err := msm(r, points, s, cfg)
		return err
	}
	ranges := taskRanges(len(sp.signed), tasks)
	parts := make([]Jac, len(ranges))
	parallel(ranges, func(t, lo, hi int) {
		acc := inf
		work := make([]Aff, min(hi-lo, sumBlock)/2+1)
		for b := lo; b < hi; b += sumBlock {
			sum(points, sp.signed[b:min(hi, b+sumBlock)], work, func(p *Aff) { addMixed(&acc, p) })
		}
		parts[t] = acc
	})
	for t := range parts {
		add(r, &parts[t])
	}
	// the small scalars and the others, one set after the other (at most
	// one compacted copy at a time)
	for _, idx := range [][]int32{sp.small, sp.others} {
		if len(idx) == 0 {
			continue
		}
		cp, cs := compact(points, s, idx, tasks)
		o := inf
		if _, err := msm(&o, cp, cs, cfg); err != nil {
			return err
		}
		add(r, &o)
	}
	return nil
}

func g1Infinity() curve.G1Jac {
	var p curve.G1Jac
	p.X.SetOne()
	p.Y.SetOne()
	return p
}

func g2Infinity() curve.G2Jac {
	var p curve.G2Jac
	p.X.SetOne()
	p.Y.SetOne()
	return p
}
