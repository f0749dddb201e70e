package bls12381

import (
	"context"
	"fmt"
	"io"
	"time"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16/bls12-381"
	"github.com/consensys/gnark/backend/witness"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/groth16/internal/core"
)

// partition is one proof in flight: its witness, its randomness, the
// devices' commitment bases its solve may use, and how long each stage
// took.
type partition struct {
	p       *prover
	index   int
	witness witness.Witness
	rand    io.Reader

	// commitKeys are the devices' commitment bases the solve may use, in
	// order of preference; needed when the circuit has commitments.
	commitKeys []*commitKey
	// vectors is the Prover's free list of solution vectors
	// (vectorList); leased says the solve holds a lease on it (guarded by
	// the list's mu).
	vectors *vectorList
	leased  bool

	times PhaseTimes
}

// newPartition is the partition of a single proof (Prove).
func (p *prover) newPartition(w witness.Witness, rand io.Reader) *partition {
	return &partition{p: p, witness: w, rand: rand}
}

// newBatchPartition is partition index of a batch (ProveBatch).
func (p *prover) newBatchPartition(index int, w witness.Witness, rand io.Reader) *partition {
	return &partition{p: p, index: index, witness: w, rand: rand}
}

// errorf formats an error of the partition's proof, "groth16: ...". A
// batch's scheduler names the partition (pool.JobError), so the error does
// not. %w wraps as in fmt.Errorf.
func (t *partition) errorf(format string, args ...any) error {
	return fmt.Errorf("groth16: "+format, args...)
}

// job drives one partition through the stages of a proof, which hand
// each other explicit values:
//
//	solve     (solve.go)    witness           → solution: the commitments, a, b, c, the wires, r, s
//	lay out   (layout.go)   key, device       → layout: each buffer's size, what the device fills
//	upload    (upload.go)   solution, layout  → the device buffers filled
//	H         (h.go)        a, b, c           → h, on the device
//	MSMs      (compute.go)  wires, h, key     → msmResults (msm.go; stream.go for a streamed key)
//	assemble  (assemble.go) solution, results → the proof, checked and reported
//
// job is a pool.Job: Prepare, then Buffers, Upload and Compute on a
// device holding the key (again on another device after a failure), then
// Finish. ProveBatch runs one job per witness through the scheduler
// (batch.go), Prove runs one on the device it picks, calling the same
// methods in the same order (prove.go). Between the calls the job holds
// what one stage hands the next: the solution, then the MSMs' results,
// then the proof. The layout is not kept: each call that needs it lays
// the partition out for the key it is given.
type job struct {
	pr  *Prover
	t   *partition
	cfg *core.CallConfig
	// late makes Upload a no-op and Compute upload each buffer as late as
	// the schedule allows, the wire values while earlier MSMs run: for a
	// proof alone on its device. A batch's jobs upload in Upload instead,
	// while another partition computes.
	late bool

	sol   *solution           // by Prepare
	res   *msmResults         // by Compute
	proof *gnarkgroth16.Proof // by Finish
}

// Prepare solves the partition, unless ctx (a batch's is also cancelled
// when every device is lost) has ended, before or during the solve.
func (j *job) Prepare(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	sol, err := j.t.solve(ctx)
	if err != nil {
		return err
	}
	j.sol = sol
	return ctx.Err()
}

// Buffers are the sizes of the partition's buffers on the device holding
// key (layout.go).
func (j *job) Buffers(key *deviceKey) []int64 {
	lay := layOut(j.t.p.pk, key)
	return lay.sizes[:]
}

// Upload fills bufs with every host vector the layout for key lists
// (none when the job uploads late). It may run twice (a retry on another
// device), so the host copies stay until Finish.
func (j *job) Upload(dev backend.Backend, q backend.Queue, key *deviceKey, bufs []backend.Buffer) error {
	if j.late {
		return nil
	}
	lay := layOut(j.t.p.pk, key)
	return j.t.upload(dev, q, bufs, lay, j.sol, lay.uploads(), nil)
}

// Compute runs H and the MSMs on bufs (compute.go), uploading first, each
// as late as the schedule allows, what Upload left to it.
func (j *job) Compute(dev backend.Backend, q backend.Queue, key *deviceKey, bufs []backend.Buffer) error {
	lay := layOut(j.t.p.pk, key)
	var pending []int
	if j.late {
		pending = lay.uploads()
	}
	res, err := j.t.compute(dev, q, key, bufs, lay, j.sol, pending)
	if err != nil {
		return err
	}
	j.res = res
	return nil
}

// Finish hands the solution's vectors back to the Prover's list for a
// later solve, drops the host's copies, assembles the proof, verifies it
// when asked, and reports it and the partition's phase times.
func (j *job) Finish(context.Context) error {
	j.t.vectors.giveBackSolution(j.t, j.sol)
	j.sol.release()
	start := time.Now()
	proof := assembleProof(j.t.p.pk, j.sol, j.res)
	j.t.times.Assemble = time.Since(start)
	if err := j.pr.check(j.cfg, j.t, proof); err != nil {
		return err
	}
	j.proof = proof
	if f := j.cfg.PhaseTimes; f != nil {
		f(j.t.index, j.t.times)
	}
	if f := j.cfg.ProofDone; f != nil {
		f(j.t.index, proof)
	}
	return nil
}
