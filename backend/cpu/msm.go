package cpu

import (
	"errors"
	"fmt"

	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
)

// MSMG1 computes Σ scalars[i]·bases[i] in G1 of curve c: the terms whose
// scalar is 0 or ±1 apart, the small ones and the others each with
// gnark-crypto's MultiExp (internal/bls12381 and its copies).
func (b *Backend) MSMG1(q backend.Queue, c ecc.ID, out []byte, bases backend.Buffer, basesOff int64, scalars backend.Buffer, n int) error {
	return b.msm(q, OpMSMG1, c, false, out, bases, basesOff, scalars, n)
}

// MSMG2 computes Σ scalars[i]·bases[i] in G2 of curve c.
func (b *Backend) MSMG2(q backend.Queue, c ecc.ID, out []byte, bases backend.Buffer, basesOff int64, scalars backend.Buffer, n int) error {
	return b.msm(q, OpMSMG2, c, true, out, bases, basesOff, scalars, n)
}

// msm checks an MSM's arguments, then runs it on q, in passes, with the
// tasks msmTasks grants it.
//
// Each pass takes its modelled scratch (WithMSMScratch) from the pool for
// as long as it runs. When the scratch does not fit, the pass is halved
// and retried, down to minMSMPass points; the passes' sum is the same
// group element whatever their length.
func (b *Backend) msm(q backend.Queue, op Op, c ecc.ID, g2 bool, out []byte, bases backend.Buffer, basesOff int64, scalars backend.Buffer, n int) error {
	if err := b.checkQueue(op, q); err != nil {
		return err
	}
	p, k, err := b.curve(op, "curve", c)
	if err != nil {
		return err
	}
	pointBytes, jacBytes := p.G1AffineBytes, p.G1JacBytes
	if g2 {
		pointBytes, jacBytes = p.G2AffineBytes, p.G2JacBytes
	}
	if out == nil {
		return b.errorf(op, "out: nil result")
	}
	if int64(len(out)) != jacBytes {
		return b.errorf(op, "out: %d bytes, a %s Jacobian point takes %d", len(out), p.Name, jacBytes)
	}
	xb, err := b.own(op, "bases", bases)
	if err != nil {
		return err
	}
	pts, err := b.span(op, xb, "bases", "basesOff", basesOff, "n", n, pointBytes)
	if err != nil {
		return err
	}
	s, err := b.scalars(op, "scalars", scalars, "n", n, p.FrBytes)
	if err != nil {
		return err
	}
	return b.run(q, op, int64(n), func() error {
		tasks, done := b.msmTasks(g2)
		defer done()
		r := make([]byte, jacBytes)
		if n == 0 {
			if err := k.MSM(g2, r, nil, nil, tasks); err != nil {
				return b.errorf(op, "%v", err)
			}
			copy(out, r)
			return nil
		}
		part := make([]byte, jacBytes)
		pass := min(n, b.cfg.scratchPass)
		for off := 0; off < n; {
			m := min(pass, n-off)
			scratch := b.passScratch(m)
			if err := b.takeScratch(scratch); err != nil {
				if errors.Is(err, backend.ErrOutOfMemory) && m > minMSMPass {
					pass = max(minMSMPass, m/2)
					continue
				}
				return fmt.Errorf("%s: %s: %w", b.name, op, err)
			}
			dst := part
			if off == 0 {
				dst = r
			}
			err := k.MSM(g2, dst, pts[int64(off)*pointBytes:int64(off+m)*pointBytes], s[int64(off)*p.FrBytes:int64(off+m)*p.FrBytes], tasks)
			b.giveScratch(scratch)
			if err != nil {
				return b.errorf(op, "%v", err)
			}
			if off > 0 {
				k.AddJac(g2, r, part)
			}
			off += m
		}
		copy(out, r)
		return nil
	})
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
