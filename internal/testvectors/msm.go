package testvectors

import (
	"fmt"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/internal/testvectors/vecfile"
)

// offsetVector is the random vector also run with its bases placed after
// basesOffset other points, to check MSM's basesOff argument.
const (
	offsetVector = "len=1000/random"
	basesOffset  = 7
)

func msmG1Checks(recs []vecfile.MSMG1) []Check {
	var checks []Check
	add := func(name string, r *vecfile.MSMG1, off int) {
		checks = append(checks, Check{Group: GroupMSMG1, Name: name, run: func(b backend.Backend) error {
			got, err := runMSMG1(b, r.Bases, r.Scalars, off)
			if err != nil {
				return err
			}
			return compareG1(&got, &r.Result)
		}})
	}
	add("len=0/empty", &vecfile.MSMG1{}, 0)
	for i := range recs {
		r := &recs[i]
		add(r.Name, r, 0)
		if r.Name == offsetVector {
			add(fmt.Sprintf("%s/bases-offset=%d", r.Name, basesOffset), r, basesOffset)
		}
	}
	return checks
}

func msmG2Checks(recs []vecfile.MSMG2) []Check {
	var checks []Check
	add := func(name string, r *vecfile.MSMG2, off int) {
		checks = append(checks, Check{Group: GroupMSMG2, Name: name, run: func(b backend.Backend) error {
			got, err := runMSMG2(b, r.Bases, r.Scalars, off)
			if err != nil {
				return err
			}
			return compareG2(&got, &r.Result)
		}})
	}
	add("len=0/empty", &vecfile.MSMG2{}, 0)
	for i := range recs {
		r := &recs[i]
		add(r.Name, r, 0)
		if r.Name == offsetVector {
			add(fmt.Sprintf("%s/bases-offset=%d", r.Name, basesOffset), r, basesOffset)
		}
	}
	return checks
}

// runMSMG1 computes Σ scalars[i]·bases[i] on b, with off filler points
// (the generator) before the bases in their buffer.
func runMSMG1(b backend.Backend, bases []bls12381.G1Affine, scalars []fr.Element, off int) (res bls12381.G1Affine, err error) {
	d, err := open(b)
	if err != nil {
		return res, err
	}
	defer func() { err = d.close(err) }()
	_, _, g, _ := bls12381.Generators()
	all := make([]bls12381.G1Affine, off, off+len(bases))
	for i := range all {
		all[i] = g
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
	var out bls12381.G1Jac
	if err := b.MSMG1(d.q, &out, pb, int64(off)*backend.G1AffineBytes, sb, len(scalars)); err != nil {
		return res, fmt.Errorf("MSMG1: %w", err)
	}
	res.FromJacobian(&out)
	return res, nil
}

// runMSMG2 is runMSMG1 over G2.
func runMSMG2(b backend.Backend, bases []bls12381.G2Affine, scalars []fr.Element, off int) (res bls12381.G2Affine, err error) {
	d, err := open(b)
	if err != nil {
		return res, err
	}
	defer func() { err = d.close(err) }()
	_, _, _, g := bls12381.Generators()
	all := make([]bls12381.G2Affine, off, off+len(bases))
	for i := range all {
		all[i] = g
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
	var out bls12381.G2Jac
	if err := b.MSMG2(d.q, &out, pb, int64(off)*backend.G2AffineBytes, sb, len(scalars)); err != nil {
		return res, fmt.Errorf("MSMG2: %w", err)
	}
	res.FromJacobian(&out)
	return res, nil
}

// compareG1 explains how got differs from want, or returns nil.
func compareG1(got, want *bls12381.G1Affine) error {
	if got.Equal(want) {
		return nil
	}
	var neg bls12381.G1Affine
	neg.Neg(want)
	hint := ""
	switch {
	case !got.IsInfinity() && !got.IsOnCurve():
		hint = " (not on the curve)"
	case got.Equal(&neg):
		hint = " (the negation of the expected result)"
	}
	return fmt.Errorf("result %s, want %s%s", g1String(got), g1String(want), hint)
}

// compareG2 is compareG1 over G2.
func compareG2(got, want *bls12381.G2Affine) error {
	if got.Equal(want) {
		return nil
	}
	var neg bls12381.G2Affine
	neg.Neg(want)
	hint := ""
	switch {
	case !got.IsInfinity() && !got.IsOnCurve():
		hint = " (not on the curve)"
	case got.Equal(&neg):
		hint = " (the negation of the expected result)"
	}
	return fmt.Errorf("result %s, want %s%s", g2String(got), g2String(want), hint)
}
