package groth16

import (
	"fmt"
	"math/bits"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16/bls12-381"

	"github.com/g16prover/g16/backend"
)

// K and Z as one MSM. Krs needs only the sum of two G1 MSMs,
//
//	Krs = ΣK + ΣZ + s·Ar + r·Bs₁ − rs·δ,   ΣK = Σ wᵢ[Kᵢ]₁,   ΣZ = Σ hⱼ[Zⱼ]₁,
//
// and a resident key lays its G1 bases out as A, B, K, Z in one buffer, so
// that Z's n−1 bases follow K's. With h copied on the device right after
// K's wire values (one buffer of nbK + n − 1 scalars), one MSM over the
// bases from offK on gives ΣK + ΣZ: one MSM's fixed cost (scalar split,
// digits, sort, task planning, a bucket reduction whose last levels are
// bound by latency, the host round trips) instead of two. The plan decides
// (plan.kz: a resident key, MSMs side by side, KZMerged) and sizes K's
// buffer for it; compute runs it where the MSMs do run side by side.

// mergesKZ reports whether dev, the device itself, can run K and Z of pk
// as one MSM: it copies between its buffers (backend.Copier), both MSMs
// have points, and, on a host-bound device, its schedule runs the MSMs
// side by side (hostsched.go; asked now, as compute asks it again for each
// proof: K's buffer has room for h in vain when the answer changes to one
// at a time in between).
func mergesKZ(dev backend.Backend, pk *gnarkgroth16.ProvingKey) bool {
	if _, ok := dev.(backend.Copier); !ok || len(pk.G1.K) == 0 || len(pk.G1.Z) == 0 {
		return false
	}
	if !backend.IsHostBound(dev) {
		return true
	}
	s, ok := dev.(hostScheduler)
	if !ok {
		return false
	}
	logN := bits.Len64(pk.Domain.Cardinality - 1)
	g1, g2 := msmLengths(pk, true)
	sideBySide, _ := s.HostSchedule(logN, g1, g2)
	return sideBySide
}

// copier is the device that copies h next to K's wire values: dev, when it
// copies, else the device itself (dev may be a wrapper that hides it, as
// the scheduler's traced view does); nil when neither does.
func (k *deviceKey) copier(dev backend.Backend) backend.Copier {
	if c, ok := dev.(backend.Copier); ok {
		return c
	}
	if c, ok := k.dev.(backend.Copier); ok {
		return c
	}
	return nil
}

// msmKZ copies h (bufs[bufA], its first n−1 values) after K's wire values
// in bufs[bufWK], then computes ΣK + ΣZ over key's K and Z bases into
// t.msmK, ordered on q; t.msmZ is left at infinity. K's wire values and h
// must be on the device already (uploaded, gathered and computed on
// queues the caller has waited for).
func (t *partition) msmKZ(dev backend.Backend, c backend.Copier, q backend.Queue, key *deviceKey, bufs []backend.Buffer) error {
	s := backend.ScalarBytes
	if err := c.Copy(q, bufs[bufWK], int64(key.nbK)*s, bufs[bufA], 0, int64(key.nbZ)*s); err != nil {
		return fmt.Errorf("h next to K's wire values: %w", err)
	}
	t.msmZ = g1Infinity()
	return dev.MSMG1(q, &t.msmK, key.g1, key.offK, bufs[bufWK], key.nbK+key.nbZ)
}
