package cpu

import (
	"errors"
	"fmt"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
)

// MSMG1 computes Σ scalars[i]·bases[i]: the terms whose scalar is 0 or ±1
// apart, the others with gnark-crypto's MultiExp (msmgroups.go).
func (b *Backend) MSMG1(q backend.Queue, out *bls12381.G1Jac, bases backend.Buffer, basesOff int64, scalars backend.Buffer, n int) error {
	return msm(b, q, OpMSMG1, out, bases, basesOff, scalars, n, false,
		multiExpG1, (*bls12381.G1Jac).AddAssign)
}

// MSMG2 computes Σ scalars[i]·bases[i] over G2.
func (b *Backend) MSMG2(q backend.Queue, out *bls12381.G2Jac, bases backend.Buffer, basesOff int64, scalars backend.Buffer, n int) error {
	return msm(b, q, OpMSMG2, out, bases, basesOff, scalars, n, true,
		multiExpG2, (*bls12381.G2Jac).AddAssign)
}

// msm checks an MSM's arguments, then runs multiExp on q, in passes, with
// the tasks msmTasks grants it. Point is the affine base type, Jac the
// result's; add sums two partial results.
//
// Each pass takes its modelled scratch (WithMSMScratch) from the pool for
// as long as it runs. When the scratch does not fit, the pass is halved
// and retried, down to minMSMPass points; the passes' sum is the same
// group element whatever their length.
func msm[Point, Jac any](b *Backend, q backend.Queue, op Op, out *Jac, bases backend.Buffer, basesOff int64, scalars backend.Buffer, n int, g2 bool,
	multiExp func(r *Jac, points []Point, s []fr.Element, tasks int) error, add func(r, p *Jac) *Jac) error {
	if err := b.checkQueue(op, q); err != nil {
		return err
	}
	if out == nil {
		return b.errorf(op, "out: nil result pointer")
	}
	xb, err := b.own(op, "bases", bases)
	if err != nil {
		return err
	}
	points, err := view[Point](b, op, xb, "bases", "basesOff", basesOff, "n", n)
	if err != nil {
		return err
	}
	s, err := b.scalars(op, "scalars", scalars, "n", n)
	if err != nil {
		return err
	}
	return b.run(q, op, int64(n), func() error {
		tasks, done := b.msmTasks(g2)
		defer done()
		var r Jac
		if n == 0 {
			if err := multiExp(&r, nil, nil, tasks); err != nil {
				return b.errorf(op, "%v", err)
			}
			*out = r
			return nil
		}
		pass := min(n, b.cfg.scratchPass)
		for off := 0; off < n; {
			c := min(pass, n-off)
			scratch := b.passScratch(c)
			if err := b.takeScratch(scratch); err != nil {
				if errors.Is(err, backend.ErrOutOfMemory) && c > minMSMPass {
					pass = max(minMSMPass, c/2)
					continue
				}
				return fmt.Errorf("%s: %s: %w", b.name, op, err)
			}
			var part Jac
			err := multiExp(&part, points[off:off+c], s[off:off+c], tasks)
			b.giveScratch(scratch)
			if err != nil {
				return b.errorf(op, "%v", err)
			}
			if off == 0 {
				r = part
			} else {
				add(&r, &part)
			}
			off += c
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
