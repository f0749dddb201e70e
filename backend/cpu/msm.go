package cpu

import (
	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"

	"github.com/g16prover/g16/backend"
)

// MSMG1 computes Σ scalars[i]·bases[i] with gnark-crypto's MultiExp.
func (b *Backend) MSMG1(q backend.Queue, out *bls12381.G1Jac, bases backend.Buffer, basesOff int64, scalars backend.Buffer, n int) error {
	if out == nil {
		return b.errorf(OpMSMG1, "nil result")
	}
	xb, err := b.own(OpMSMG1, bases)
	if err != nil {
		return err
	}
	points, err := view[bls12381.G1Affine](b, OpMSMG1, xb, basesOff, n)
	if err != nil {
		return err
	}
	s, err := b.scalars(OpMSMG1, scalars, n)
	if err != nil {
		return err
	}
	return b.run(q, OpMSMG1, int64(n), func() error {
		tasks, done := b.msmTasks(false)
		defer done()
		r := g1Infinity()
		if n > 0 {
			if _, err := r.MultiExp(points, s, ecc.MultiExpConfig{NbTasks: tasks}); err != nil {
				return b.errorf(OpMSMG1, "%v", err)
			}
		}
		*out = r
		return nil
	})
}

// MSMG2 computes Σ scalars[i]·bases[i] over G2.
func (b *Backend) MSMG2(q backend.Queue, out *bls12381.G2Jac, bases backend.Buffer, basesOff int64, scalars backend.Buffer, n int) error {
	if out == nil {
		return b.errorf(OpMSMG2, "nil result")
	}
	xb, err := b.own(OpMSMG2, bases)
	if err != nil {
		return err
	}
	points, err := view[bls12381.G2Affine](b, OpMSMG2, xb, basesOff, n)
	if err != nil {
		return err
	}
	s, err := b.scalars(OpMSMG2, scalars, n)
	if err != nil {
		return err
	}
	return b.run(q, OpMSMG2, int64(n), func() error {
		tasks, done := b.msmTasks(true)
		defer done()
		r := g2Infinity()
		if n > 0 {
			if _, err := r.MultiExp(points, s, ecc.MultiExpConfig{NbTasks: tasks}); err != nil {
				return b.errorf(OpMSMG2, "%v", err)
			}
		}
		*out = r
		return nil
	})
}

func g1Infinity() bls12381.G1Jac {
	var p bls12381.G1Jac
	p.X.SetOne()
	p.Y.SetOne()
	return p
}

func g2Infinity() bls12381.G2Jac {
	var p bls12381.G2Jac
	p.X.SetOne()
	p.Y.SetOne()
	return p
}

// msmTasks says how many tasks an MSM gets. Alone, it gets all the
// backend's tasks. Beside others (the prover starts its five MSMs at once)
// it gets what gnark's prover gives the same MSM, since the work is the
// same: half the tasks for G1, all of them for G2 (twice as many on 16
// cores or fewer, where gnark splits the G2 MSM further). done must be
// called when the MSM ends.
func (b *Backend) msmTasks(g2 bool) (tasks int, done func()) {
	active := b.msmActive.Add(1)
	done = func() { b.msmActive.Add(-1) }
	switch {
	case active == 1:
		return b.cfg.tasks, done
	case g2 && b.cfg.tasks <= 16:
		return 2 * b.cfg.tasks, done
	case g2:
		return b.cfg.tasks, done
	}
	return max(1, b.cfg.tasks/2), done
}
