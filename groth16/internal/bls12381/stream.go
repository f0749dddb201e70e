package bls12381

import (
	"errors"
	"fmt"
	"time"

	curve "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16/bls12-381"

	"github.com/g16prover/g16/backend"
)

// streamSlot is one slot of a stream window: room for a chunk of bases
// (G2-sized, G1 chunks use the first half) and its scalars.
type streamSlot struct {
	bases, scalars backend.Buffer
}

func (s *streamSlot) bytes() int64 {
	if s.bases == nil {
		return 0
	}
	return s.bases.Bytes() + s.scalars.Bytes()
}

func (s *streamSlot) free(dev backend.Backend, q backend.Queue) error {
	var errs []error
	for _, b := range []backend.Buffer{s.bases, s.scalars} {
		if b != nil {
			errs = append(errs, dev.Free(q, b))
		}
	}
	s.bases, s.scalars = nil, nil
	return errors.Join(errs...)
}

// newStreamKey allocates a stream window of two slots of pl.chunk points;
// the bases stay on the host, in pk.
func newStreamKey(dev backend.Backend, q backend.Queue, pk *gnarkgroth16.ProvingKey, pl plan, alloc func(bytes int64) (backend.Buffer, error)) (*deviceKey, error) {
	if hostless(pk) {
		return nil, errNoHostBases
	}
	k := &deviceKey{plan: pl, pk: pk, nbA: len(pk.G1.A), nbB: len(pk.G1.B), nbK: len(pk.G1.K), nbZ: len(pk.G1.Z)}
	c := int64(pl.chunk)
	for i := range k.slots {
		s := &k.slots[i]
		var err error
		if s.bases, err = alloc(c * g2AffineBytes); err == nil {
			s.scalars, err = alloc(c * scalarBytes)
		}
		if err != nil {
			return nil, errors.Join(fmt.Errorf("groth16: stream window on %s: %w", dev, err), k.free(dev, q))
		}
	}
	var err error
	if k.commit, err = uploadCommitKey(dev, pk); err != nil {
		return nil, errors.Join(err, k.free(dev, q))
	}
	return k, nil
}

// scalarChunks gives an MSM's scalars lo … hi−1 on the host, valid until
// the next call, and how many there are.
type scalarChunks struct {
	n   int
	get func(lo, hi int) []fr.Element
}

// vectorChunks reads the scalars from v itself.
func vectorChunks(v []fr.Element) scalarChunks {
	return scalarChunks{n: len(v), get: func(lo, hi int) []fr.Element { return v[lo:hi] }}
}

// filteredChunks copies each chunk of f's kept values into a buffer of
// chunk values, reused from one chunk to the next.
func filteredChunks(f *filtered, chunk int) scalarChunks {
	buf := make([]fr.Element, min(chunk, f.n))
	return scalarChunks{n: f.n, get: func(lo, hi int) []fr.Element {
		f.fill(lo, buf[:hi-lo])
		return buf[:hi-lo]
	}}
}

// streamMSM computes Σ scalars[i]·bases[i] from bases and scalars on the
// host, in chunks of key.plan.chunk points through the key's two window
// slots, each with its own queue: while the MSM of chunk k runs in one
// slot, a goroutine uploads chunk k+1 into the other (Upload has read its
// source when it returns, so a chunk of scalars may be overwritten by the
// next). The chunks' sums add up, in acc, to the whole MSM's.
func streamMSM[P any, J any](dev backend.Backend, key *deviceKey, bases []P, scalars scalarChunks, acc *J,
	msm func(q backend.Queue, out *J, bases, scalars backend.Buffer, n int) error, add func(acc, x *J) *J) (err error) {
	if len(bases) != scalars.n {
		return fmt.Errorf("groth16: internal error: %d bases, %d scalars", len(bases), scalars.n)
	}
	c := key.plan.chunk
	var qs [2]backend.Queue
	for i := range qs {
		if qs[i], err = dev.NewQueue(); err != nil {
			return err
		}
		defer func() { err = errors.Join(err, qs[i].Close()) }()
	}
	chunks := (len(bases) + c - 1) / c
	ready := make(chan int, 2)     // chunks uploaded, in order
	free := make(chan struct{}, 2) // slots the MSMs have finished with
	stop := make(chan struct{})    // the MSMs failed: stop uploading
	upErr := make(chan error, 1)   // the uploader's outcome
	free <- struct{}{}
	free <- struct{}{}
	go func() {
		defer close(ready)
		for k := range chunks {
			select {
			case <-free:
			case <-stop:
				upErr <- nil
				return
			}
			lo, hi := k*c, min(len(bases), (k+1)*c)
			s := &key.slots[k%2]
			if err := dev.Upload(qs[k%2], s.bases, 0, backend.AsBytes(bases[lo:hi])); err != nil {
				upErr <- err
				return
			}
			if err := dev.Upload(qs[k%2], s.scalars, 0, backend.AsBytes(scalars.get(lo, hi))); err != nil {
				upErr <- err
				return
			}
			ready <- k
		}
		upErr <- nil
	}()
	var msmErr error
	for k := range ready {
		if msmErr != nil {
			continue // drain: the uploader is stopping
		}
		lo, hi := k*c, min(len(bases), (k+1)*c)
		s := &key.slots[k%2]
		var part J
		if msmErr = msm(qs[k%2], &part, s.bases, s.scalars, hi-lo); msmErr != nil {
			close(stop)
			continue
		}
		add(acc, &part)
		free <- struct{}{}
	}
	return errors.Join(msmErr, <-upErr)
}

// computeStreamed is compute for a streamed key: H on q, h brought back to
// the host, then the five MSMs one after another, each streaming its bases
// and scalars from the host into res; the K MSM's scalars are filtered
// from the wire values chunk by chunk (unless kWires has filtered them
// already).
func (w *deviceWork) computeStreamed(res *msmResults) error {
	t, p, dev, key, sol := w.t, w.t.p, w.dev, w.key, w.sol
	fail := func(stage string, err error) error {
		return t.errorf("%s on %s (streamed key): %w", stage, dev, err)
	}
	if err := w.computeH(nil); err != nil {
		return err
	}
	h := make([]fr.Element, p.n-1)
	if err := dev.Download(w.q, backend.AsBytes(h), w.bufs[bufA], 0); err != nil {
		return fail("download of h", err)
	}
	pk := key.pk
	wA, wB := sol.wiresA(p), sol.wiresB(p)
	kScalars := vectorChunks(sol.wK.vals)
	switch {
	case sol.wK.vals != nil:
	case len(pk.G1.K) == len(sol.w)-p.nbPublic: // no wire left out
		kScalars = vectorChunks(sol.w[p.nbPublic:])
	default:
		f, err := newFiltered(sol.w[p.nbPublic:], p.kRemove, len(pk.G1.K))
		if err != nil {
			return err
		}
		kScalars = filteredChunks(f, key.plan.chunk)
	}
	g1 := func(q backend.Queue, out *curve.G1Jac, bases, scalars backend.Buffer, n int) error {
		return dev.MSMG1(q, proverCurve, backend.ValueBytes(out), bases, 0, scalars, n)
	}
	g2 := func(q backend.Queue, out *curve.G2Jac, bases, scalars backend.Buffer, n int) error {
		return dev.MSMG2(q, proverCurve, backend.ValueBytes(out), bases, 0, scalars, n)
	}
	timed := func(took *time.Duration, f func() error) error {
		s := time.Now()
		err := f()
		*took = time.Since(s)
		return err
	}
	start := time.Now()
	res.B2, res.K, res.A, res.B1, res.Z = g2Infinity(), g1Infinity(), g1Infinity(), g1Infinity(), g1Infinity()
	waitB2 := w.startHostB2(res) // B2 on the host's cores beside the G1 MSMs (b2place.go)
	steps := []struct {
		name string
		run  func() error
	}{
		{"MSM B2", func() error {
			return timed(&t.times.MSMB2, func() error {
				return streamMSM(dev, key, pk.G2.B, vectorChunks(wB), &res.B2, g2, (*curve.G2Jac).AddAssign)
			})
		}},
		{"MSM K", func() error {
			return timed(&t.times.MSMK, func() error { return streamMSM(dev, key, pk.G1.K, kScalars, &res.K, g1, (*curve.G1Jac).AddAssign) })
		}},
		{"MSM A", func() error {
			return timed(&t.times.MSMA, func() error {
				return streamMSM(dev, key, pk.G1.A, vectorChunks(wA), &res.A, g1, (*curve.G1Jac).AddAssign)
			})
		}},
		{"MSM B1", func() error {
			return timed(&t.times.MSMB1, func() error {
				return streamMSM(dev, key, pk.G1.B, vectorChunks(wB), &res.B1, g1, (*curve.G1Jac).AddAssign)
			})
		}},
		{"MSM Z", func() error {
			return timed(&t.times.MSMZ, func() error {
				return streamMSM(dev, key, pk.G1.Z, vectorChunks(h), &res.Z, g1, (*curve.G1Jac).AddAssign)
			})
		}},
	}
	if w.b2.host {
		steps = steps[1:]
	}
	for _, s := range steps {
		if err := s.run(); err != nil {
			return errors.Join(fail(s.name, err), waitB2())
		}
	}
	err := waitB2()
	t.times.MSM = time.Since(start)
	return err
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
