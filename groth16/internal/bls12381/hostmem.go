package bls12381

import (
	"fmt"

	"github.com/g16prover/g16/internal/hostmem"
)

// hostNeed is the host memory one proof takes beyond the proving key and
// the R1CS, which the caller holds: the solver's wire values W and the
// constraint vectors a, b, c (padded to the domain size n), and the copy
// of W the K MSM reads (its committed wires left out). At 2^27
// constraints that is 20 GiB.
func (p *prover) hostNeed() int64 {
	nbWires := int64(len(p.pk.InfinityA))
	return (2*nbWires + 3*int64(p.n)) * scalarBytes
}

// availableHostMemory is what the host can still give the process, in
// bytes (Linux: MemAvailable); 0 when unknown.
var availableHostMemory = hostmem.Available

// checkHostMemory fails, before anything is solved, a proof whose vectors
// cannot fit in the host's available memory at all. It is a preflight for
// impossible proofs only: memory that is available now may be gone when
// the proof needs it.
func (p *prover) checkHostMemory() error {
	avail := availableHostMemory()
	if avail <= 0 {
		return nil
	}
	if need := p.hostNeed(); need > avail {
		return fmt.Errorf("groth16: a proof of this circuit (domain 2^%d) needs about %.2f GiB of host memory for its wire and constraint vectors, beyond the key and the circuit; the host has %.2f GiB available",
			p.logN, float64(need)/(1<<30), float64(avail)/(1<<30))
	}
	return nil
}
