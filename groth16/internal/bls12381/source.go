package bls12381

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	curve "github.com/consensys/gnark-crypto/ecc/bls12-381"
	gnarkapi "github.com/consensys/gnark/backend/groth16"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16/bls12-381"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/pool"
)

// The G1 base vectors of a proving key, as BaseSource numbers them.
const (
	BasesA = iota
	BasesB
	BasesK
	BasesZ
)

// BaseSource yields a proving key's bases block by block, so that a device
// key can be filled without a host copy of them (a random key drawn
// straight into device memory). It is safe for concurrent use.
type BaseSource interface {
	// Len is how many points G1 vector v (BasesA … BasesZ) has, and G2Len
	// how many G2 B points: NewDeviceKeyFrom refuses a source whose
	// lengths are not the key's.
	Len(v int) int
	G2Len() int
	// G1Bases writes points [lo, lo+len(out)) of G1 vector v (BasesA,
	// BasesB, BasesK or BasesZ) to out.
	G1Bases(v, lo int, out []curve.G1Affine) error
	// G2Bases writes the G2 B points [lo, lo+len(out)) to out.
	G2Bases(lo int, out []curve.G2Affine) error
}

// errNoHostBases is what a prover that would read a hostless key's host
// bases fails with.
var errNoHostBases = inputErr("proving key has no host copy of its bases (its bases were drawn on a device): prove with the DeviceKey NewDeviceKeyFrom filled")

const drawnNote = "bases drawn on the device, no host copy"

// sourceBlock is how many points NewDeviceKeyFrom draws and uploads at once.
const sourceBlock = 1 << 14

// hostless reports whether pk's host bases are absent: its first Z point
// reads as (0, 0), which no proving key's Z holds (the Z points are
// multiples of the generator by nonzero powers of τ times Z(τ)/δ).
func hostless(pk *gnarkgroth16.ProvingKey) bool {
	return len(pk.G1.Z) > 0 && pk.G1.Z[0].X.IsZero() && pk.G1.Z[0].Y.IsZero()
}

// NewDeviceKeyFrom makes a resident device key on dev whose bases come from
// src, drawn and uploaded block by block: the host holds one block a core,
// never the key. pk gives every other part of the key (α, β, δ, the
// domain, the infinity flags, the commitment keys) and the vectors'
// lengths, which src's must be (an input error otherwise); its host bases
// are not read (a hostless key, such as a random
// key's, has none). Provers given pk use the key through WithDeviceKey.
//
// When the key does not fit dev beside one proof's buffers and scratch, it
// fails with an error matching ErrHostKeyNeeded: the caller draws a host
// copy and uses NewDeviceKey, which streams it.
func NewDeviceKeyFrom(dev backend.Backend, pk gnarkapi.ProvingKey, src BaseSource) (*DeviceKey, error) {
	key, err := deviceKeyArgs("NewDeviceKeyFrom", dev, pk)
	if err != nil {
		return nil, err
	}
	if isNil(src) {
		return nil, inputErr("NewDeviceKeyFrom: nil base source")
	}
	if err := sourceFits(key, src); err != nil {
		return nil, err
	}
	pl, err := choosePlan(dev, key, pool.DefaultBudget(dev.Memory()))
	if err != nil {
		return nil, fmt.Errorf("groth16: NewDeviceKeyFrom: %w", err)
	}
	if pl.chunk > 0 {
		return nil, fmt.Errorf("groth16: NewDeviceKeyFrom: %s: %d bytes of bases, %s: %w", dev, keyBytes(key), pl, ErrHostKeyNeeded)
	}
	pl.drawn = true
	q, err := dev.NewQueue()
	if err != nil {
		return nil, fmt.Errorf("groth16: NewDeviceKeyFrom: %w", err)
	}
	k, err := allocResident(dev, q, key, func(bytes int64) (backend.Buffer, error) { return dev.Alloc(q, bytes) })
	if err != nil {
		return nil, errors.Join(err, q.Close())
	}
	k.plan, k.dev = pl, dev
	if err := fillFromSource(dev, q, k, src); err != nil {
		return nil, errors.Join(err, k.free(dev, q), q.Close())
	}
	if err := buildTables(dev, q, k, pl); err != nil {
		return nil, errors.Join(err, k.free(dev, q), q.Close())
	}
	if k.commit, err = uploadCommitKey(dev, key); err != nil {
		return nil, errors.Join(err, k.free(dev, q), q.Close())
	}
	return &DeviceKey{dev: dev, pk: key, key: k, q: q}, nil
}

// sourceFits checks that src's vectors have pk's lengths: a source made for
// another circuit would fill the key with bases that are not its own.
func sourceFits(pk *gnarkgroth16.ProvingKey, src BaseSource) error {
	for _, v := range []struct {
		name string
		vec  int
		n    int
	}{{"A", BasesA, len(pk.G1.A)}, {"B", BasesB, len(pk.G1.B)}, {"K", BasesK, len(pk.G1.K)}, {"Z", BasesZ, len(pk.G1.Z)}} {
		if got := src.Len(v.vec); got != v.n {
			return inputErr("NewDeviceKeyFrom: the base source has %d G1 %s points, the proving key %d: a source for another key", got, v.name, v.n)
		}
	}
	if got := src.G2Len(); got != len(pk.G2.B) {
		return inputErr("NewDeviceKeyFrom: the base source has %d G2 B points, the proving key %d: a source for another key", got, len(pk.G2.B))
	}
	return nil
}

// fillFromSource draws k's bases from src, a block at a time on every
// core, and uploads each block to its place in k's buffers on q.
func fillFromSource(dev backend.Backend, q backend.Queue, k *deviceKey, src BaseSource) error {
	type span struct {
		v   int // G1 vector, or -1 for G2's B
		n   int
		buf backend.Buffer
		off int64
	}
	spans := []span{
		{BasesA, k.nbA, k.g1, k.offA},
		{BasesB, k.nbB, k.g1, k.offB},
		{BasesK, k.nbK, k.g1, k.offK},
		{BasesZ, k.nbZ, k.g1, k.offZ},
		{-1, len(k.pk.G2.B), k.g2, 0},
	}
	type block struct{ span, lo, n int }
	var blocks []block
	for i, s := range spans {
		for lo := 0; lo < s.n; lo += sourceBlock {
			blocks = append(blocks, block{i, lo, min(sourceBlock, s.n-lo)})
		}
	}
	var (
		next   atomic.Int64
		failed atomic.Bool
		upload sync.Mutex // one Upload at a time on q
		errMu  sync.Mutex
		first  error
		wg     sync.WaitGroup
	)
	fail := func(err error) {
		errMu.Lock()
		if first == nil {
			first = err
		}
		errMu.Unlock()
		failed.Store(true)
	}
	for range min(runtime.NumCPU(), max(1, len(blocks))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var g1 []curve.G1Affine
			var g2 []curve.G2Affine
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= len(blocks) {
					return
				}
				b := blocks[i]
				s := spans[b.span]
				var bytes []byte
				var off int64
				if s.v < 0 {
					if g2 == nil {
						g2 = make([]curve.G2Affine, sourceBlock)
					}
					if err := src.G2Bases(b.lo, g2[:b.n]); err != nil {
						fail(fmt.Errorf("groth16: NewDeviceKeyFrom: %w", err))
						return
					}
					bytes, off = backend.AsBytes(g2[:b.n]), s.off+int64(b.lo)*g2AffineBytes
				} else {
					if g1 == nil {
						g1 = make([]curve.G1Affine, sourceBlock)
					}
					if err := src.G1Bases(s.v, b.lo, g1[:b.n]); err != nil {
						fail(fmt.Errorf("groth16: NewDeviceKeyFrom: %w", err))
						return
					}
					bytes, off = backend.AsBytes(g1[:b.n]), s.off+int64(b.lo)*g1AffineBytes
				}
				upload.Lock()
				err := dev.Upload(q, s.buf, off, bytes)
				upload.Unlock()
				if err != nil {
					fail(fmt.Errorf("groth16: proving key upload to %s: %w", dev, err))
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := q.Wait(); err != nil && first == nil {
		first = fmt.Errorf("groth16: proving key upload to %s: %w", dev, err)
	}
	return first
}
