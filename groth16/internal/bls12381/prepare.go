package bls12381

import (
	"fmt"
	"hash"
	"math/big"
	"sync"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr/fft"
	gnarkbackend "github.com/consensys/gnark/backend"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16/bls12-381"
	"github.com/consensys/gnark/constraint"
	cs "github.com/consensys/gnark/constraint/bls12-381"
	"github.com/consensys/gnark/constraint/solver"
)

// prover is what every partition of one (circuit, key) pair shares.
type prover struct {
	r1cs *cs.R1CS
	pk   *gnarkgroth16.ProvingKey

	n        int // domain size
	logN     int
	shift    fr.Element // coset shift g
	zInv     fr.Element // (gⁿ − 1)⁻¹
	nbPublic int        // public wires, ONE included

	commitmentInfo constraint.Groth16Commitments
	kRemove        []bool // private wires (from nbPublic) left out of the K MSM

	solverOpts []solver.Option
	hashFn     func() hash.Hash // nil: a fresh default hash per proof
	userHash   hash.Hash        // the caller's hash, shared; guarded by hashMu
	hashMu     sync.Mutex

	witnessSolver *witnessSolver
	// K's, A's and B's wire indices, for a device that gathers them (gather.go)
	kIdx, aIdx, bIdx wireIndex

	b2 B2Placement // where B2 runs (b2place.go)
}

// newProver checks that the inputs fit together and precomputes what every
// proof of the batch shares.
func newProver(r1cs *cs.R1CS, pk *gnarkgroth16.ProvingKey, proverOpts []gnarkbackend.ProverOption, cached bool) (*prover, error) {
	if err := checkKey(r1cs, pk); err != nil {
		return nil, err
	}
	gcfg, err := gnarkbackend.NewProverConfig(proverOpts...)
	if err != nil {
		return nil, fmt.Errorf("groth16: prover options: %w", err)
	}
	p := &prover{
		r1cs:           r1cs,
		pk:             pk,
		n:              int(pk.Domain.Cardinality),
		nbPublic:       r1cs.GetNbPublicVariables(),
		commitmentInfo: r1cs.CommitmentInfo.(constraint.Groth16Commitments),
		solverOpts:     gcfg.SolverOpts,
		userHash:       gcfg.HashToFieldFn,
	}
	if cached {
		p.witnessSolver, err = preparedSolver(r1cs)
	} else {
		p.witnessSolver, err = newWitnessSolver(r1cs)
	}
	if err != nil {
		return nil, err
	}
	for 1<<p.logN < p.n {
		p.logN++
	}
	p.shift = pk.Domain.FrMultiplicativeGen
	if p.shift.IsZero() {
		// a key whose domain was not fully deserialised: gnark's default.
		p.shift = fft.GeneratorFullMultiplicativeGroup()
	}
	var one fr.Element
	one.SetOne()
	p.zInv.Exp(p.shift, big.NewInt(int64(p.n)))
	p.zInv.Sub(&p.zInv, &one)
	if p.zInv.IsZero() {
		return nil, fmt.Errorf("groth16: coset shift %s has order dividing the domain size %d", p.shift.String(), p.n)
	}
	p.zInv.Inverse(&p.zInv)

	nbWires := r1cs.NbInternalVariables + r1cs.GetNbPublicVariables() + r1cs.GetNbSecretVariables()
	p.kRemove = make([]bool, nbWires-p.nbPublic)
	removed := 0
	mark := func(idx int) {
		if idx >= p.nbPublic && idx < nbWires && !p.kRemove[idx-p.nbPublic] {
			p.kRemove[idx-p.nbPublic] = true
			removed++
		}
	}
	for _, group := range p.commitmentInfo.GetPrivateCommitted() {
		for _, idx := range group {
			mark(idx)
		}
	}
	for _, idx := range p.commitmentInfo.CommitmentIndexes() {
		mark(idx)
	}
	if len(p.commitmentInfo) > 0 {
		if err := checkRandomizeHint(); err != nil {
			return nil, err
		}
	}
	if got := len(p.kRemove) - removed; got != len(pk.G1.K) {
		return nil, fmt.Errorf("groth16: proving key has %d K points, the circuit needs %d: key made for another circuit", len(pk.G1.K), got)
	}
	return p, nil
}
