package bls12381

import (
	"fmt"

	"github.com/g16prover/g16/internal/testvectors/internal/suite"

	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
)

// offsetVector is the random vector also run with its bases placed after
// basesOffset other points, to check MSM's basesOff argument.
const (
	offsetVector = "len=1000/random"
	basesOffset  = 7
)

// msmGroup holds what the MSM checks need to know about one group: its
// affine points A (with pointer type PA) and the Jacobian points J that the
// backend's MSM returns.
type msmGroup[A Point, J any, PA affinePoint[A, J]] struct {
	name       string // the check group and backend method: "MSMG1" or "MSMG2"
	generator  A
	pointBytes int64 // the size of an A in a device buffer
	msm        func(b backend.Backend, q backend.Queue, out *J, bases backend.Buffer, basesOff int64, scalars backend.Buffer, n int) error
	str        func(*A) string
}

// affinePoint is the pointer type *A of an affine point whose sums come in
// Jacobian coordinates J.
type affinePoint[A, J any] interface {
	*A
	FromJacobian(*J) *A
	Equal(*A) bool
	Neg(*A) *A
	IsInfinity() bool
	IsOnCurve() bool
}

var _, _, g1Generator, g2Generator = bls12381.Generators()

// The groups MSMs run over.
var (
	msmG1 = &msmGroup[bls12381.G1Affine, bls12381.G1Jac, *bls12381.G1Affine]{
		name:       suite.GroupMSMG1,
		generator:  g1Generator,
		pointBytes: curve.Must(ecc.BLS12_381).G1AffineBytes,
		msm: func(b backend.Backend, q backend.Queue, out *bls12381.G1Jac, bases backend.Buffer, off int64, scalars backend.Buffer, n int) error {
			return b.MSMG1(q, ecc.BLS12_381, backend.ValueBytes(out), bases, off, scalars, n)
		},
		str: g1String,
	}
	msmG2 = &msmGroup[bls12381.G2Affine, bls12381.G2Jac, *bls12381.G2Affine]{
		name:       suite.GroupMSMG2,
		generator:  g2Generator,
		pointBytes: curve.Must(ecc.BLS12_381).G2AffineBytes,
		msm: func(b backend.Backend, q backend.Queue, out *bls12381.G2Jac, bases backend.Buffer, off int64, scalars backend.Buffer, n int) error {
			return b.MSMG2(q, ecc.BLS12_381, backend.ValueBytes(out), bases, off, scalars, n)
		},
		str: g2String,
	}
)

// checks returns a check of each record, an empty MSM, and offsetVector
// again with its bases after basesOffset other points.
func (g *msmGroup[A, J, PA]) checks(recs []MSM[A]) []suite.Check {
	var checks []suite.Check
	add := func(name string, r *MSM[A], off int) {
		checks = append(checks, suite.Check{Group: g.name, Curve: ecc.BLS12_381, Name: name, AtInfinity: PA(&r.Result).IsInfinity(), Run: func(b backend.Backend) error {
			got, err := g.run(b, r.Bases, r.Scalars, off)
			if err != nil {
				return err
			}
			return g.compare(&got, &r.Result)
		}})
	}
	add("len=0/empty", &MSM[A]{}, 0)
	for i := range recs {
		r := &recs[i]
		add(r.Name, r, 0)
		if r.Name == offsetVector {
			add(fmt.Sprintf("%s/bases-offset=%d", r.Name, basesOffset), r, basesOffset)
		}
	}
	return checks
}

// run computes Σ scalars[i]·bases[i] on b, with off filler points (the
// generator) before the bases in their buffer.
func (g *msmGroup[A, J, PA]) run(b backend.Backend, bases []A, scalars []fr.Element, off int) (res A, err error) {
	d, err := open(b)
	if err != nil {
		return res, err
	}
	defer func() { err = d.close(err) }()
	all := make([]A, off, off+len(bases))
	for i := range all {
		all[i] = g.generator
	}
	all = append(all, bases...)
	pb, err := d.upload(backend.AsBytes(all))
	if err != nil {
		return res, err
	}
	sb, err := d.upload(backend.AsBytes(scalars))
	if err != nil {
		return res, err
	}
	var out J
	if err := g.msm(b, d.q, &out, pb, int64(off)*g.pointBytes, sb, len(scalars)); err != nil {
		return res, fmt.Errorf("%s: %w", g.name, err)
	}
	PA(&res).FromJacobian(&out)
	return res, nil
}

// compare explains how got differs from want, or returns nil.
func (g *msmGroup[A, J, PA]) compare(got, want *A) error {
	if PA(got).Equal(want) {
		return nil
	}
	var neg A
	PA(&neg).Neg(want)
	hint := ""
	switch {
	case !PA(got).IsInfinity() && !PA(got).IsOnCurve():
		hint = " (not on the curve)"
	case PA(got).Equal(&neg):
		hint = " (the negation of the expected result)"
	}
	return fmt.Errorf("result %s, want %s%s", g.str(got), g.str(want), hint)
}
