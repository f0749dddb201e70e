package bls12381

import "github.com/consensys/gnark-crypto/ecc"

// Plan says how the key is held on its device, as PhaseTimes.Plan says it
// for a proof: "key resident", "key resident, MSMs one at a time", or "key
// streamed, chunks of N points" when its bases stay on the host and only
// a stream window is on the device.
func (k *DeviceKey) Plan() string { return k.key.plan.String() }

// Curve is the curve of the key.
func (k *DeviceKey) Curve() ecc.ID { return proverCurve }
