package bls12381

import (
	"time"

	curve "github.com/consensys/gnark-crypto/ecc/bls12-381"

	"github.com/g16prover/g16/backend"
)

// msmResults are the five MSMs of one proof:
//
//	A = Σ wᵢ[Aᵢ]₁, B1 = Σ wᵢ[Bᵢ]₁, B2 = Σ wᵢ[Bᵢ]₂, K = Σ wᵢ[Kᵢ]₁, Z = Σ hᵢ[Zᵢ]₁
type msmResults struct {
	A, B1, K, Z curve.G1Jac
	B2          curve.G2Jac
}

// keyedMSM is one MSM over a resident key's bases: its name in spans and
// errors, where its time goes, the buffer of scalars it reads (-1: h,
// which H leaves in bufA), and how it runs on a queue.
type keyedMSM struct {
	name    string
	took    *time.Duration
	scalars int
	run     func(q backend.Queue) error
}

// wireMSMs are the device's MSMs over the wire values, writing into res,
// in the order they start side by side: the G2 one, the longest, first
// (left out when B2 runs on the host: hostB2).
func (w *deviceWork) wireMSMs(res *msmResults) []keyedMSM {
	dev, key, bufs, times := w.dev, w.key, w.bufs, &w.t.times
	wiresB := w.lay.wiresB()
	msms := []keyedMSM{
		{"MSM B2", &times.MSMB2, wiresB, func(q backend.Queue) error {
			return dev.MSMG2(q, proverCurve, backend.ValueBytes(&res.B2), key.g2, 0, bufs[wiresB], key.nbB)
		}},
		{"MSM B1", &times.MSMB1, wiresB, func(q backend.Queue) error {
			return dev.MSMG1(q, proverCurve, backend.ValueBytes(&res.B1), key.g1, key.offB, bufs[wiresB], key.nbB)
		}},
		{"MSM A", &times.MSMA, bufWA, func(q backend.Queue) error {
			return dev.MSMG1(q, proverCurve, backend.ValueBytes(&res.A), key.g1, key.offA, bufs[bufWA], key.nbA)
		}},
		{"MSM K", &times.MSMK, bufWK, func(q backend.Queue) error {
			return dev.MSMG1(q, proverCurve, backend.ValueBytes(&res.K), key.g1, key.offK, bufs[bufWK], key.nbK)
		}},
	}
	if w.b2.host {
		return msms[1:]
	}
	return msms
}

// zMSM is the MSM over h, writing into res; it runs after H.
func (w *deviceWork) zMSM(res *msmResults) keyedMSM {
	dev, key, bufs := w.dev, w.key, w.bufs
	return keyedMSM{"MSM Z", &w.t.times.MSMZ, -1, func(q backend.Queue) error {
		return dev.MSMG1(q, proverCurve, backend.ValueBytes(&res.Z), key.g1, key.offZ, bufs[bufA], w.t.p.n-1)
	}}
}
