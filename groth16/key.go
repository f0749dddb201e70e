package groth16

import (
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/groth16/internal/bls12381"
	"github.com/g16prover/g16/groth16/internal/core"
)

// DeviceKey is a proving key's bases resident on one device, owned by the
// caller. Give it to NewProver (or the package-level Prove and ProveBatch)
// with WithDeviceKey so that they use it rather than upload their own;
// release it with Close. A Prover keeps its own keys resident without one.
type DeviceKey struct {
	k core.DeviceKey // the key of pk's curve
}

// NewDeviceKey uploads pk's bases to dev. When they do not fit beside one
// proof's buffers and scratch in the memory dev reports, the key keeps a
// stream window on dev instead, and proofs stream the bases from the host.
func NewDeviceKey(dev backend.Backend, pk gnarkgroth16.ProvingKey) (*DeviceKey, error) {
	e, err := keyEngine("NewDeviceKey", pk)
	if err != nil {
		return nil, err
	}
	k, err := e.NewDeviceKey(dev, pk)
	if err != nil {
		return nil, err
	}
	return &DeviceKey{k: k}, nil
}

// Plan says how the key is held on its device, as PhaseTimes.Plan says it
// for a proof: "key resident", "key resident, MSMs one at a time", or "key
// streamed, chunks of N points" when its bases stay on the host and only
// a stream window is on the device.
func (k *DeviceKey) Plan() string { return k.k.Plan() }

// Bytes is the device memory the key holds.
func (k *DeviceKey) Bytes() int64 { return k.k.Bytes() }

// Backend is the device the key lives on.
func (k *DeviceKey) Backend() backend.Backend { return k.k.Backend() }

// Close releases the key's device memory. Provers given the key must be
// closed first. Closing twice is not an error.
func (k *DeviceKey) Close() error { return k.k.Close() }

// Vectors of G1 bases a BaseSource yields.
const (
	BasesA = bls12381.BasesA
	BasesB = bls12381.BasesB
	BasesK = bls12381.BasesK
	BasesZ = bls12381.BasesZ
)

// BaseSource yields a BLS12-381 proving key's bases block by block, so that
// a device key can be filled without a host copy of them (a random key
// drawn straight into device memory). It is safe for concurrent use. Its
// methods: Len(v) is how many points G1 vector v (BasesA … BasesZ) has and
// G2Len how many G2 B points; G1Bases(v, lo, out) writes points
// [lo, lo+len(out)) of G1 vector v to out, G2Bases(lo, out) the G2 B points.
type BaseSource = bls12381.BaseSource

// NewDeviceKeyFrom makes a resident device key on dev whose bases come from
// src, drawn and uploaded block by block: the host holds one block a core,
// never the key. pk, a BLS12-381 key, gives every other part of the key
// (α, β, δ, the domain, the infinity flags, the commitment keys) and the
// vectors' lengths, which src's must be (an input error otherwise); its
// host bases are not read (a hostless key, such as a random key's, has
// none). Provers given pk use the key through WithDeviceKey.
//
// When the key does not fit dev beside one proof's buffers and scratch, it
// fails with an error matching ErrHostKeyNeeded: the caller draws a host
// copy and uses NewDeviceKey, which streams it.
func NewDeviceKeyFrom(dev backend.Backend, pk gnarkgroth16.ProvingKey, src BaseSource) (*DeviceKey, error) {
	k, err := bls12381.NewDeviceKeyFrom(dev, pk, src)
	if err != nil {
		return nil, err
	}
	return &DeviceKey{k: k}, nil
}
