package pool

import (
	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
)

// traced is a worker's view of its device: every call becomes a trace
// event naming the worker, its job and the region it holds.
type traced struct {
	backend.Backend
	w *Worker
	t *Trace
}

// call records one Backend call that began at start.
func (b *traced) call(name string, start int64, bytes int64, err error) {
	e := Event{
		Kind: KindCall, Name: name,
		Device: b.w.Device, Worker: b.w.ID, Partition: b.w.partition,
		Region: b.w.region(), Start: start, End: b.t.now(), Bytes: bytes,
	}
	if err != nil {
		e.Err = err.Error()
	}
	b.t.add(e)
}

func (b *traced) Alloc(q backend.Queue, bytes int64) (backend.Buffer, error) {
	s := b.t.now()
	buf, err := b.Backend.Alloc(q, bytes)
	b.call("Alloc", s, bytes, err)
	return buf, err
}

func (b *traced) AllocDirect(bytes int64) (backend.Buffer, error) {
	s := b.t.now()
	buf, err := b.Backend.AllocDirect(bytes)
	b.call("AllocDirect", s, bytes, err)
	return buf, err
}

func (b *traced) Free(q backend.Queue, buf backend.Buffer) error {
	s := b.t.now()
	var n int64
	if buf != nil {
		n = buf.Bytes()
	}
	err := b.Backend.Free(q, buf)
	b.call("Free", s, n, err)
	return err
}

func (b *traced) TrimPool(keep int64) error {
	s := b.t.now()
	err := b.Backend.TrimPool(keep)
	b.call("TrimPool", s, keep, err)
	return err
}

func (b *traced) Sync() error {
	s := b.t.now()
	err := b.Backend.Sync()
	b.call("Sync", s, 0, err)
	return err
}

func (b *traced) NewQueue() (backend.Queue, error) {
	s := b.t.now()
	q, err := b.Backend.NewQueue()
	b.call("NewQueue", s, 0, err)
	return q, err
}

func (b *traced) Upload(q backend.Queue, dst backend.Buffer, off int64, src []byte) error {
	s := b.t.now()
	err := b.Backend.Upload(q, dst, off, src)
	b.call("Upload", s, int64(len(src)), err)
	return err
}

func (b *traced) Download(q backend.Queue, dst []byte, src backend.Buffer, off int64) error {
	s := b.t.now()
	err := b.Backend.Download(q, dst, src, off)
	b.call("Download", s, int64(len(dst)), err)
	return err
}

func (b *traced) NTT(q backend.Queue, data backend.Buffer, spec backend.NTTSpec) error {
	s := b.t.now()
	err := b.Backend.NTT(q, data, spec)
	b.call("NTT", s, 0, err)
	return err
}

func (b *traced) QuotientStep(q backend.Queue, cv ecc.ID, a, bb, c backend.Buffer, n int, zInv []byte) error {
	s := b.t.now()
	err := b.Backend.QuotientStep(q, cv, a, bb, c, n, zInv)
	b.call("QuotientStep", s, 0, err)
	return err
}

func (b *traced) MSMG1(q backend.Queue, c ecc.ID, out []byte, bases backend.Buffer, basesOff int64, scalars backend.Buffer, n int) error {
	s := b.t.now()
	err := b.Backend.MSMG1(q, c, out, bases, basesOff, scalars, n)
	b.call("MSMG1", s, 0, err)
	return err
}

func (b *traced) MSMG2(q backend.Queue, c ecc.ID, out []byte, bases backend.Buffer, basesOff int64, scalars backend.Buffer, n int) error {
	s := b.t.now()
	err := b.Backend.MSMG2(q, c, out, bases, basesOff, scalars, n)
	b.call("MSMG2", s, 0, err)
	return err
}

func (b *traced) Close() error {
	s := b.t.now()
	err := b.Backend.Close()
	b.call("Close", s, 0, err)
	return err
}
