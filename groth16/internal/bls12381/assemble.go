package bls12381

import (
	"math/big"

	curve "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16/bls12-381"
)

// assembleProof completes sol's proof from the MSM results (host):
//
//	Ar  = Σ + [α]₁ + r[δ]₁
//	Bs₁ = Σ + [β]₁ + s[δ]₁,   Bs = Σ + [β]₂ + s[δ]₂
//	Krs = ΣK + ΣZ + s·Ar + r·Bs₁ − rs[δ]₁
func assembleProof(pk *gnarkgroth16.ProvingKey, sol *solution, res *msmResults) *gnarkgroth16.Proof {
	proof := sol.proof
	var kr fr.Element
	kr.Mul(&sol.r, &sol.s).Neg(&kr)
	var r, s big.Int
	sol.r.BigInt(&r)
	sol.s.BigInt(&s)

	deltas := curve.BatchScalarMultiplicationG1(&pk.G1.Delta, []fr.Element{sol.r, sol.s, kr})

	ar := res.A
	ar.AddMixed(&pk.G1.Alpha)
	ar.AddMixed(&deltas[0])
	proof.Ar.FromJacobian(&ar)

	bs1 := res.B1
	bs1.AddMixed(&pk.G1.Beta)
	bs1.AddMixed(&deltas[1])

	krs := res.K
	krs.AddMixed(&deltas[2])
	krs.AddAssign(&res.Z)
	var tmp curve.G1Jac
	tmp.ScalarMultiplication(&ar, &s)
	krs.AddAssign(&tmp)
	tmp.ScalarMultiplication(&bs1, &r)
	krs.AddAssign(&tmp)
	proof.Krs.FromJacobian(&krs)

	var bs, deltaS curve.G2Jac
	bs = res.B2
	deltaS.FromAffine(&pk.G2.Delta)
	deltaS.ScalarMultiplication(&deltaS, &s)
	bs.AddAssign(&deltaS)
	bs.AddMixed(&pk.G2.Beta)
	proof.Bs.FromJacobian(&bs)
	return proof
}
