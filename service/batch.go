package service

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/g16prover/g16/groth16"
	"github.com/g16prover/g16/pool"
	"github.com/g16prover/g16/service/client"
)

// task is one delivered job in a worker's batch.
type task struct {
	msg       jetstream.Msg
	id        string
	delivery  int // this delivery's number, from 1
	rec       *record
	witness   witness.Witness
	delivered time.Time
	times     groth16.PhaseTimes
	settled   atomic.Bool // handed to settle
}

// runBatch proves claimed jobs: it groups them by circuit and proves each
// group as one batch. Each result is stored in the background
// (w.settling) as soon as its proof is assembled.
func (w *Worker) runBatch(ctx context.Context, tasks []*task) {
	groups := make(map[string][]*task)
	var order []string
	for _, t := range tasks {
		if _, ok := groups[t.rec.Circuit]; !ok {
			order = append(order, t.rec.Circuit)
		}
		groups[t.rec.Circuit] = append(groups[t.rec.Circuit], t)
	}
	for _, c := range order {
		w.proveGroup(ctx, c, groups[c])
	}
}

// claim reads a delivered job and marks it running. It returns nil for a
// job already finished (acked: a duplicate delivery) or one that cannot
// be proved (failed and terminated).
func (w *Worker) claim(ctx context.Context, m jetstream.Msg, now time.Time) *task {
	t := &task{msg: m, id: string(m.Data()), delivery: 1, delivered: now}
	if meta, err := m.Metadata(); err == nil {
		t.delivery = int(meta.NumDelivered)
	}
	rec, changed, err := w.st.updateJob(ctx, t.id, func(r *record) bool {
		if r.State.Finished() {
			return false
		}
		r.State, r.Worker, r.Attempts, r.Started = client.Running, w.cfg.Name, t.delivery, now.UTC()
		return true
	})
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		w.log.Error("delivered job has no record; dropping it", "job", t.id)
		m.Term()
		return nil
	case err != nil:
		w.log.Warn("claiming job", "job", t.id, "err", err)
		m.Nak()
		return nil
	case !changed:
		w.count("duplicate")
		m.Ack()
		return nil
	}
	t.rec = rec
	w.log.Debug("job claimed", "job", t.id, "delivery", t.delivery)
	b, err := rec.Witness, error(nil)
	if len(b) == 0 {
		b, err = w.st.witnesses.GetBytes(ctx, t.id)
	}
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		// Gone: the job was finished meanwhile (fail then leaves its
		// record as it is), or its witness was lost.
		w.fail(ctx, t, fmt.Errorf("service: job %s: its witness is not stored", t.id))
		return nil
	}
	if err != nil {
		w.log.Warn("reading witness", "job", t.id, "err", err)
		m.Nak()
		return nil
	}
	circ, err := w.st.getCircuit(ctx, rec.Circuit)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		w.fail(ctx, t, fmt.Errorf("service: job %s: no circuit %s", t.id, rec.Circuit))
		return nil
	}
	if err != nil {
		w.log.Warn("reading the job's circuit", "job", t.id, "circuit", rec.Circuit, "err", err)
		m.Nak()
		return nil
	}
	id, err := circuitCurve(circ)
	if err != nil {
		w.fail(ctx, t, fmt.Errorf("service: job %s: %w", t.id, err))
		return nil
	}
	if t.witness, err = decodeWitness(b, id); err != nil {
		w.fail(ctx, t, fmt.Errorf("service: job %s: %w", t.id, err))
		return nil
	}
	if _, err := JobRandomness(rec.Seed); err != nil {
		w.fail(ctx, t, fmt.Errorf("service: job %s: %w", t.id, err))
		return nil
	}
	return t
}

// proveGroup proves the jobs of one circuit together and settles each.
func (w *Worker) proveGroup(ctx context.Context, circuit string, tasks []*task) {
	cp, err := w.prover(ctx, circuit)
	if err != nil {
		for _, t := range tasks {
			w.settleAsync(t, nil, err, ctx.Err() != nil)
		}
		return
	}
	ws := make([]witness.Witness, len(tasks))
	for i, t := range tasks {
		ws[i] = t.witness
	}
	randFor := func(i int) io.Reader {
		rd, _ := JobRandomness(tasks[i].rec.Seed) // checked when claimed
		return rd
	}
	opts := []groth16.Option{
		groth16.WithBatchRandomness(randFor),
		groth16.WithPhaseTimes(func(i int, pt groth16.PhaseTimes) { tasks[i].times = pt }),
		groth16.WithProofDone(func(i int, p gnarkgroth16.Proof) { w.settleAsync(tasks[i], p, nil, false) }),
	}
	if cp.vk != nil && !w.cfg.SkipVerify {
		opts = append(opts, groth16.WithVerify(cp.vk))
	}
	if m := w.cfg.Metrics; m != nil {
		m.batchSize.Observe(float64(len(tasks)))
	}
	start := time.Now()
	proofs, err := cp.prover.ProveBatch(ctx, ws, opts...)
	w.log.Debug("batch proved", "circuit", circuit, "jobs", len(tasks), "took", time.Since(start), "err", err)
	jobErrs := make(map[int]error)
	var perJob pool.Errors
	if errors.As(err, &perJob) {
		for _, je := range perJob {
			jobErrs[je.Job] = je
		}
	} else if err != nil {
		for i := range tasks {
			jobErrs[i] = err
		}
	}
	for i, t := range tasks {
		var proof gnarkgroth16.Proof
		if i < len(proofs) {
			proof = proofs[i]
		}
		e := jobErrs[i]
		if e == nil && proof == nil {
			e = fmt.Errorf("service: internal error: no proof and no error for job %s", t.id)
		}
		w.settleAsync(t, proof, e, ctx.Err() != nil)
	}
}

// settleAsync settles a task in the background (w.settling), once: the
// first of its proof handed over early (WithProofDone) and the batch's
// return settles it.
func (w *Worker) settleAsync(t *task, proof gnarkgroth16.Proof, err error, stopping bool) {
	if !t.settled.CompareAndSwap(false, true) {
		return
	}
	w.claims.release(t)
	w.settling.Add(1)
	go func() {
		defer w.settling.Done()
		sctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		defer cancel()
		w.settle(sctx, t, proof, err, stopping)
	}()
}

// permanent reports whether a job's error would recur on any worker: a
// witness that does not solve, or input groth16 refuses. Device faults, a
// proof the verifier rejects (a device computing wrongly) and lost
// connections are worth another delivery.
func permanent(err error) bool {
	if errors.Is(err, groth16.ErrVerify) {
		return false
	}
	var je *pool.JobError
	if errors.As(err, &je) && je.Device == "" {
		return true // host work: solving and assembling
	}
	return errors.Is(err, groth16.ErrInput)
}

// storeTimeout bounds the storing of one job's result.
const storeTimeout = 30 * time.Second

// settle stores a job's result: its proof, or its failure, or (for a
// transient failure with deliveries left) gives it back. A job that failed
// because the worker is stopping goes back for another worker.
func (w *Worker) settle(ctx context.Context, t *task, proof gnarkgroth16.Proof, err error, stopping bool) {
	if err != nil && stopping {
		w.giveBack(t, "the worker stopped before the job finished")
		return
	}
	if err != nil {
		if permanent(err) || t.delivery >= w.st.queue.MaxDeliver {
			if !permanent(err) {
				err = fmt.Errorf("delivery %d of %d: %w", t.delivery, w.st.queue.MaxDeliver, err)
			}
			w.fail(ctx, t, err)
			return
		}
		w.log.Warn("job failed; retrying", "job", t.id, "delivery", t.delivery, "err", err)
		w.retry(ctx, t, err)
		return
	}
	var buf bytes.Buffer
	if _, err := proof.WriteTo(&buf); err != nil {
		w.fail(ctx, t, fmt.Errorf("service: job %s: encoding the proof: %w", t.id, err))
		return
	}
	inline := buf.Len() <= inlineMax
	if !inline {
		cur, _, err := w.st.getJob(ctx, t.id)
		if err == nil && cur.State.Finished() {
			w.count("duplicate")
			t.msg.Ack()
			return
		}
		if _, err := w.st.proofs.PutBytes(ctx, t.id, buf.Bytes()); err != nil {
			w.log.Warn("storing proof", "job", t.id, "err", err)
			t.msg.Nak()
			return
		}
	}
	finished := time.Now().UTC()
	_, changed, err := w.st.updateJob(ctx, t.id, func(r *record) bool {
		if r.State.Finished() {
			return false
		}
		r.State, r.Error, r.Worker, r.Finished = client.Done, "", w.cfg.Name, finished
		r.Witness = nil
		if inline {
			r.Proof = buf.Bytes()
		}
		r.ProofBytes = buf.Len()
		r.SolveNs = t.times.Solve.Nanoseconds()
		r.DeviceNs = (t.times.Upload + t.times.H + t.times.MSM).Nanoseconds()
		return true
	})
	if err != nil {
		w.log.Warn("recording result", "job", t.id, "err", err)
		t.msg.Nak()
		return
	}
	if !changed {
		w.count("duplicate")
		t.msg.Ack()
		return
	}
	if err := t.msg.DoubleAck(ctx); err != nil {
		w.log.Warn("ack", "job", t.id, "err", err)
	}
	if len(t.rec.Witness) == 0 {
		w.st.witnesses.Delete(ctx, t.id)
	}
	w.proved.Add(1)
	w.count("done")
	if m := w.cfg.Metrics; m != nil {
		m.proofTime.WithLabelValues(w.cfg.Name).Observe(time.Since(t.delivered).Seconds())
		m.solveTime.Add(t.times.Solve.Seconds())
		m.deviceTime.Add((t.times.Upload + t.times.H + t.times.MSM).Seconds())
	}
	w.log.Debug("job done", "job", t.id, "delivery", t.delivery)
}

// fail records a job's failure (unless it finished elsewhere meanwhile)
// and takes it off the queue.
func (w *Worker) fail(ctx context.Context, t *task, err error) {
	msg := err.Error()
	_, changed, uerr := w.st.updateJob(ctx, t.id, func(r *record) bool {
		if r.State.Finished() {
			return false
		}
		r.State, r.Error, r.Worker, r.Finished = client.Failed, msg, w.cfg.Name, time.Now().UTC()
		return true
	})
	if uerr != nil {
		w.log.Warn("recording failure", "job", t.id, "err", uerr)
		t.msg.Nak()
		return
	}
	t.msg.Term()
	if !changed {
		w.count("duplicate") // finished elsewhere meanwhile
		return
	}
	w.count("failed")
	w.log.Warn("job failed", "job", t.id, "err", msg)
}

// retry puts a job back in the queue, after a delay, for another delivery.
func (w *Worker) retry(ctx context.Context, t *task, err error) {
	msg := fmt.Sprintf("delivery %d: %v", t.delivery, err)
	w.st.updateJob(ctx, t.id, func(r *record) bool {
		if r.State.Finished() {
			return false
		}
		r.State, r.Error = client.Queued, msg
		return true
	})
	t.msg.NakWithDelay(time.Duration(t.delivery) * time.Second)
	w.count("retried")
}

// giveBack returns a job the worker will not finish, for redelivery now.
func (w *Worker) giveBack(t *task, why string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	w.st.updateJob(ctx, t.id, func(r *record) bool {
		if r.State.Finished() {
			return false
		}
		r.State, r.Error = client.Queued, why
		return true
	})
	t.msg.Nak()
	w.count("retried")
}

func (w *Worker) count(result string) {
	if m := w.cfg.Metrics; m != nil {
		m.proofs.WithLabelValues(w.cfg.Name, result).Inc()
	}
}
