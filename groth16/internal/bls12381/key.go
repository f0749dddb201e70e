package bls12381

import (
	"errors"
	"fmt"
	"sync"

	gnarkapi "github.com/consensys/gnark/backend/groth16"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16/bls12-381"

	"github.com/g16prover/g16/backend"
	g16curve "github.com/g16prover/g16/curve"
	"github.com/g16prover/g16/pool"
)

// deviceKey is a proving key on one device, as its plan lays it out:
// resident, the G1 bases A, B, K and Z in one buffer and the G2 bases B in
// another, uploaded once for every partition proved on that device; or
// streamed, a window of two chunk slots through which the host's bases
// pass for each MSM (stream.go).
type deviceKey struct {
	plan                   plan
	g1, g2                 backend.Buffer // resident bases; nil when streamed
	offA, offB, offK, offZ int64          // byte offsets in g1
	nbA, nbB, nbK, nbZ     int

	pk    *gnarkgroth16.ProvingKey // the host's bases, which a streamed key reads
	slots [2]streamSlot            // a streamed key's window

	commit *commitKey // the BSB22 commitment bases (commit.go); nil without commitments

	// index is the wire index lists the device gathers the wire MSMs'
	// values by (gather.go), beside resident bases on a device that
	// gathers: loaded by the key's first partition (loadIndex), freed
	// with the key.
	idxMu sync.Mutex
	index *keyIndex

	// dev is the device itself, which the backend a partition's compute
	// is given may wrap (the scheduler's view of it).
	dev backend.Backend
}

// queues is the backend to make dev's urgent queues from: dev, when it
// makes them, else the device itself (a wrapper may hide that it does).
func (k *deviceKey) queues(dev backend.Backend) backend.Backend {
	if _, ok := dev.(backend.UrgentQueuer); ok || k.dev == nil {
		return dev
	}
	return k.dev
}

// keyBytes is what uploadKey allocates for pk.
func keyBytes(pk *gnarkgroth16.ProvingKey) int64 {
	g1 := int64(len(pk.G1.A)+len(pk.G1.B)+len(pk.G1.K)+len(pk.G1.Z)) * g1AffineBytes
	g2 := int64(len(pk.G2.B)) * g2AffineBytes
	return max(g1, g1AffineBytes) + max(g2, g2AffineBytes) + commitKeyBytes(pk)
}

// deviceKeyArgs checks the backend and key given to fn (NewDeviceKey,
// NewDeviceKeyFrom) and returns the key as gnark's type for this curve.
func deviceKeyArgs(fn string, dev backend.Backend, pk gnarkapi.ProvingKey) (*gnarkgroth16.ProvingKey, error) {
	if isNil(dev) {
		return nil, inputErr("%s: nil backend", fn)
	}
	if isNil(pk) {
		return nil, inputErr("%s: nil proving key", fn)
	}
	key, ok := pk.(*gnarkgroth16.ProvingKey)
	if !ok {
		return nil, inputErr("%s: proving key is a %T for %s, not a Groth16 key over %s", fn, pk, g16curve.Name(pk.CurveID()), g16curve.Name(proverCurve))
	}
	if err := dev.Supports(proverCurve); err != nil {
		return nil, errors.Join(inputErr("%s: device %s cannot prove over %s", fn, dev, g16curve.Name(proverCurve)), err)
	}
	return key, nil
}

// residentBytes is what a key of pk resident on dev, the device itself,
// holds at most: its bases (keyBytes) and, when dev gathers, the wire
// index lists (indexBytes). Tables come on top (plan.tableBytes).
func residentBytes(dev backend.Backend, pk *gnarkgroth16.ProvingKey) int64 {
	return keyBytes(pk) + indexBytes(dev, pk)
}

// Bytes is the device memory the key holds.
func (k *deviceKey) Bytes() int64 {
	if k.plan.chunk > 0 {
		return k.slots[0].bytes() + k.slots[1].bytes() + k.commit.Bytes()
	}
	return k.g1.Bytes() + k.g2.Bytes() + k.plan.tableBytes + k.commit.Bytes() + k.wireIndexes().bytes()
}

// loadKey puts pk on dev as pl says: its bases uploaded, with their tables
// of precomputed multiples (made by tdev, the device dev may wrap), or a
// stream window allocated (and the commitment bases uploaded, either way).
// The buffers come from the pool (alloc nil) or from alloc.
func loadKey(dev, tdev backend.Backend, q backend.Queue, pk *gnarkgroth16.ProvingKey, pl plan, alloc func(bytes int64) (backend.Buffer, error)) (*deviceKey, error) {
	if alloc == nil {
		alloc = func(bytes int64) (backend.Buffer, error) { return dev.Alloc(q, bytes) }
	}
	if pl.chunk > 0 {
		k, err := newStreamKey(dev, q, pk, pl, alloc)
		if err != nil {
			return nil, err
		}
		k.dev = tdev
		return k, nil
	}
	k, err := uploadKey(dev, q, pk, alloc)
	if err != nil {
		return nil, err
	}
	k.plan, k.dev = pl, tdev
	if err := buildTables(tdev, q, k, pl); err != nil {
		return nil, errors.Join(err, k.free(dev, q))
	}
	return k, nil
}

// allocResident allocates the buffers of pk's resident bases on dev, from
// alloc, and lays them out.
func allocResident(dev backend.Backend, q backend.Queue, pk *gnarkgroth16.ProvingKey, alloc func(bytes int64) (backend.Buffer, error)) (*deviceKey, error) {
	k := &deviceKey{pk: pk, nbA: len(pk.G1.A), nbB: len(pk.G1.B), nbK: len(pk.G1.K), nbZ: len(pk.G1.Z)}
	g1 := int64(k.nbA+k.nbB+k.nbK+k.nbZ) * g1AffineBytes
	g2 := int64(len(pk.G2.B)) * g2AffineBytes
	var err error
	if k.g1, err = alloc(max(g1, g1AffineBytes)); err != nil {
		return nil, fmt.Errorf("groth16: proving key on %s: %w", dev, err)
	}
	if k.g2, err = alloc(max(g2, g2AffineBytes)); err != nil {
		return nil, errors.Join(fmt.Errorf("groth16: proving key on %s: %w", dev, err), dev.Free(q, k.g1))
	}
	k.offA = 0
	k.offB = k.offA + int64(k.nbA)*g1AffineBytes
	k.offK = k.offB + int64(k.nbB)*g1AffineBytes
	k.offZ = k.offK + int64(k.nbK)*g1AffineBytes
	return k, nil
}

// uploadKey moves pk's bases to dev, into buffers from alloc.
func uploadKey(dev backend.Backend, q backend.Queue, pk *gnarkgroth16.ProvingKey, alloc func(bytes int64) (backend.Buffer, error)) (*deviceKey, error) {
	if hostless(pk) {
		return nil, errNoHostBases
	}
	k, err := allocResident(dev, q, pk, alloc)
	if err != nil {
		return nil, err
	}
	uploads := []struct {
		buf backend.Buffer
		off int64
		src []byte
	}{
		{k.g1, k.offA, backend.AsBytes(pk.G1.A)},
		{k.g1, k.offB, backend.AsBytes(pk.G1.B)},
		{k.g1, k.offK, backend.AsBytes(pk.G1.K)},
		{k.g1, k.offZ, backend.AsBytes(pk.G1.Z)},
		{k.g2, 0, backend.AsBytes(pk.G2.B)},
	}
	for _, u := range uploads {
		// pk outlives k (k.pk) and nothing writes the bases: a backend on
		// host memory may read them in place.
		if err := backend.UploadReadOnly(dev, q, u.buf, u.off, u.src); err != nil {
			return nil, errors.Join(fmt.Errorf("groth16: proving key upload to %s: %w", dev, err), k.free(dev, q))
		}
	}
	if err := q.Wait(); err != nil {
		return nil, errors.Join(fmt.Errorf("groth16: proving key upload to %s: %w", dev, err), k.free(dev, q))
	}
	if k.commit, err = uploadCommitKey(dev, pk); err != nil {
		return nil, errors.Join(err, k.free(dev, q))
	}
	return k, nil
}

// free releases the key's device memory.
func (k *deviceKey) free(dev backend.Backend, q backend.Queue) error {
	if k.plan.chunk > 0 {
		return errors.Join(k.commit.close(), k.slots[0].free(dev, q), k.slots[1].free(dev, q))
	}
	var idx error
	k.idxMu.Lock()
	if k.index != nil {
		idx = k.index.free(dev, q)
		k.index = nil
	}
	k.idxMu.Unlock()
	return errors.Join(k.commit.close(), idx, dev.Free(q, k.g1), dev.Free(q, k.g2))
}

// DeviceKey is a proving key's bases resident on one device, owned by the
// caller. Give it to NewProver (or the package-level Prove and ProveBatch)
// with WithDeviceKey so that they use it rather than upload their own;
// release it with Close. A Prover keeps its own keys resident without one.
type DeviceKey struct {
	dev backend.Backend
	pk  *gnarkgroth16.ProvingKey
	key *deviceKey
	q   backend.Queue

	mu   sync.Mutex
	done bool // closed
}

// NewDeviceKey uploads pk's bases to dev. When they do not fit beside one
// proof's buffers and scratch in the memory dev reports, the key keeps a
// stream window on dev instead, and proofs stream the bases from the host.
func NewDeviceKey(dev backend.Backend, pk gnarkapi.ProvingKey) (*DeviceKey, error) {
	key, err := deviceKeyArgs("NewDeviceKey", dev, pk)
	if err != nil {
		return nil, err
	}
	q, err := dev.NewQueue()
	if err != nil {
		return nil, fmt.Errorf("groth16: NewDeviceKey: %w", err)
	}
	pl, err := choosePlan(dev, key, pool.DefaultBudget(dev.Memory()))
	if err != nil {
		return nil, errors.Join(fmt.Errorf("groth16: NewDeviceKey: %w", err), q.Close())
	}
	k, err := loadKey(dev, dev, q, key, pl, nil)
	if err != nil {
		return nil, errors.Join(err, q.Close())
	}
	return &DeviceKey{dev: dev, pk: key, key: k, q: q}, nil
}

// Bytes is the device memory the key holds.
func (k *DeviceKey) Bytes() int64 { return k.key.Bytes() }

// Backend is the device the key lives on.
func (k *DeviceKey) Backend() backend.Backend { return k.dev }

// Close releases the key's device memory. Provers given the key must be
// closed first. Closing twice is not an error.
func (k *DeviceKey) Close() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.done {
		return nil
	}
	k.done = true
	return errors.Join(k.key.free(k.dev, k.q), k.q.Close())
}

// Closed reports whether Close has been called.
func (k *DeviceKey) Closed() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.done
}
