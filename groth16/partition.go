package groth16

import (
	"io"
	"time"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16/bls12-381"
	"github.com/consensys/gnark/backend/witness"
)

// partition is one proof in flight: its witness, its randomness, the
// devices' commitment bases its solve may use, and how long each stage
// took. The stages hand each other explicit values:
//
//	solve     (solve.go)    witness           → solution: the commitments, a, b, c, the wires, r, s
//	lay out   (layout.go)   key, device       → layout: each buffer's size, what the device fills
//	upload    (upload.go)   solution, layout  → the device buffers filled
//	H         (h.go)        a, b, c           → h, on the device
//	MSMs      (compute.go)  wires, h, key     → msmResults (msm.go; stream.go for a streamed key)
//	assemble  (assemble.go) solution, results → the proof
type partition struct {
	p       *prover
	index   int
	witness witness.Witness
	rand    io.Reader

	// commitKeys are the devices' commitment bases the solve may use, in
	// order of preference; needed when the circuit has commitments.
	commitKeys []*commitKey

	times PhaseTimes
}

func (p *prover) newPartition(index int, w witness.Witness, rand io.Reader) *partition {
	return &partition{p: p, index: index, witness: w, rand: rand}
}

// assemble completes sol's proof from the MSM results, timed.
func (t *partition) assemble(sol *solution, res *msmResults) *gnarkgroth16.Proof {
	start := time.Now()
	proof := assembleProof(t.p.pk, sol, res)
	t.times.Assemble = time.Since(start)
	return proof
}
