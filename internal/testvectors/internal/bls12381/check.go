package bls12381

import (
	"errors"
	"fmt"

	curve "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
)

// device runs one check's work on a backend: a queue, and buffers freed
// at the end.
type device struct {
	b    backend.Backend
	q    backend.Queue
	bufs []backend.Buffer
}

func open(b backend.Backend) (*device, error) {
	q, err := b.NewQueue()
	if err != nil {
		return nil, fmt.Errorf("NewQueue: %w", err)
	}
	return &device{b: b, q: q}, nil
}

// close frees the buffers and the queue; it reports the first error, or
// err if that is not nil.
func (d *device) close(err error) error {
	for _, buf := range d.bufs {
		if e := d.b.Free(d.q, buf); e != nil && err == nil {
			err = fmt.Errorf("Free: %w", e)
		}
	}
	if e := d.q.Close(); e != nil && err == nil {
		err = fmt.Errorf("queue: %w", e)
	}
	return err
}

// upload copies data to a new buffer (of one byte if data is empty: an
// MSM of length 0 still passes buffers).
func (d *device) upload(data []byte) (backend.Buffer, error) {
	size := max(int64(len(data)), 1)
	buf, err := d.b.Alloc(d.q, size)
	if err != nil {
		return nil, fmt.Errorf("Alloc(%d): %w", size, err)
	}
	d.bufs = append(d.bufs, buf)
	if len(data) > 0 {
		if err := d.b.Upload(d.q, buf, 0, data); err != nil {
			return nil, fmt.Errorf("Upload: %w", err)
		}
	}
	return buf, nil
}

func (d *device) download(buf backend.Buffer, n int) ([]fr.Element, error) {
	out := make([]fr.Element, n)
	if err := d.b.Download(d.q, backend.AsBytes(out), buf, 0); err != nil {
		return nil, fmt.Errorf("Download: %w", err)
	}
	if err := d.q.Wait(); err != nil {
		return nil, fmt.Errorf("queue: %w", err)
	}
	return out, nil
}

// compareElements explains how got differs from want, or returns nil.
func compareElements(got, want []fr.Element) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d elements, want %d", len(got), len(want))
	}
	first, count := -1, 0
	for i := range got {
		if got[i] != want[i] {
			if first < 0 {
				first = i
			}
			count++
		}
	}
	if count == 0 {
		return nil
	}
	msg := fmt.Sprintf("%d of %d elements differ; first at index %d: got %s, want %s",
		count, len(got), first, hexLimbs(got[first][:]), hexLimbs(want[first][:]))
	if hint := orderHint(got, want); hint != "" {
		msg += " (" + hint + ")"
	}
	return errors.New(msg)
}

// orderHint recognises the usual NTT mistakes: the right values in the
// other memory order, or the transform of the other direction.
func orderHint(got, want []fr.Element) string {
	n := len(got)
	if n < 4 || n&(n-1) != 0 {
		return ""
	}
	logN := 0
	for 1<<logN < n {
		logN++
	}
	for i := range got {
		if got[i] != want[bitReverse(i, logN)] {
			return ""
		}
	}
	return "the output is the expected one in bit-reversed order: input or output order swapped"
}

func bitReverse(i, logN int) int {
	r := 0
	for range logN {
		r = r<<1 | i&1
		i >>= 1
	}
	return r
}

// bitReversed returns a bit-reversed copy of v (len(v) a power of two).
func bitReversed(v []fr.Element) []fr.Element {
	logN := 0
	for 1<<logN < len(v) {
		logN++
	}
	out := make([]fr.Element, len(v))
	for i := range v {
		out[bitReverse(i, logN)] = v[i]
	}
	return out
}

// hexLimbs prints raw limbs, most significant first, as they sit in memory
// (Montgomery form).
func hexLimbs(l []uint64) string {
	s := "0x"
	for i := len(l) - 1; i >= 0; i-- {
		s += fmt.Sprintf("%016x", l[i])
	}
	return s
}

func g1String(p *curve.G1Affine) string {
	if p.IsInfinity() {
		return "infinity"
	}
	return fmt.Sprintf("(x=%s, y=%s)", p.X.String(), p.Y.String())
}

func g2String(p *curve.G2Affine) string {
	if p.IsInfinity() {
		return "infinity"
	}
	return fmt.Sprintf("(x=%s, y=%s)", p.X.String(), p.Y.String())
}
