package cpu

import (
	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// sumBlock is the most ±1 terms one call of sumSignedG1 or sumSignedG2
// adds, so that its work buffer stays small (12 MiB in G1). Tests lower it.
var sumBlock = 1 << 18

// multiExpG1 sets r to Σ s[i]·points[i] with tasks goroutines: the ±1
// terms by sumSignedG1, the others by MultiExp (msmsplit.go).
func multiExpG1(r *bls12381.G1Jac, points []bls12381.G1Affine, s []fr.Element, tasks int) error {
	*r = g1Infinity()
	if len(points) == 0 {
		return nil
	}
	cfg := ecc.MultiExpConfig{NbTasks: tasks}
	sp, ok := splitScalars(s, tasks)
	if !ok {
		_, err := r.MultiExp(points, s, cfg)
		return err
	}
	ranges := taskRanges(len(sp.signed), tasks)
	parts := make([]bls12381.G1Jac, len(ranges))
	parallel(ranges, func(t, lo, hi int) {
		acc := g1Infinity()
		work := make([]bls12381.G1Affine, min(hi-lo, sumBlock)/2+1)
		for b := lo; b < hi; b += sumBlock {
			sumSignedG1(points, sp.signed[b:min(hi, b+sumBlock)], work, func(p *bls12381.G1Affine) { acc.AddMixed(p) })
		}
		parts[t] = acc
	})
	for t := range parts {
		r.AddAssign(&parts[t])
	}
	if len(sp.others) > 0 {
		cp, cs := compact(points, s, sp.others, tasks)
		var o bls12381.G1Jac
		if _, err := o.MultiExp(cp, cs, cfg); err != nil {
			return err
		}
		r.AddAssign(&o)
	}
	return nil
}

// multiExpG2 is multiExpG1 over G2.
func multiExpG2(r *bls12381.G2Jac, points []bls12381.G2Affine, s []fr.Element, tasks int) error {
	*r = g2Infinity()
	if len(points) == 0 {
		return nil
	}
	cfg := ecc.MultiExpConfig{NbTasks: tasks}
	sp, ok := splitScalars(s, tasks)
	if !ok {
		_, err := r.MultiExp(points, s, cfg)
		return err
	}
	ranges := taskRanges(len(sp.signed), tasks)
	parts := make([]bls12381.G2Jac, len(ranges))
	parallel(ranges, func(t, lo, hi int) {
		acc := g2Infinity()
		work := make([]bls12381.G2Affine, min(hi-lo, sumBlock)/2+1)
		for b := lo; b < hi; b += sumBlock {
			sumSignedG2(points, sp.signed[b:min(hi, b+sumBlock)], work, func(p *bls12381.G2Affine) { acc.AddMixed(p) })
		}
		parts[t] = acc
	})
	for t := range parts {
		r.AddAssign(&parts[t])
	}
	if len(sp.others) > 0 {
		cp, cs := compact(points, s, sp.others, tasks)
		var o bls12381.G2Jac
		if _, err := o.MultiExp(cp, cs, cfg); err != nil {
			return err
		}
		r.AddAssign(&o)
	}
	return nil
}
