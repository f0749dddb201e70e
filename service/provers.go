package service

import (
	"context"
	"errors"
	"fmt"
	"time"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
)

// circuitProver is a worker's long-lived prover of one circuit.
type circuitProver struct {
	prover Prover
	vk     gnarkgroth16.VerifyingKey // nil: proofs are stored unverified
}

// prover returns the circuit's prover, making it on first use: the
// circuit's files come from the local cache or the object store.
func (w *Worker) prover(ctx context.Context, circuit string) (*circuitProver, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if cp, ok := w.provers[circuit]; ok {
		return cp, nil
	}
	c, err := w.st.getCircuit(ctx, circuit)
	if err != nil {
		return nil, fmt.Errorf("service: circuit %s: %w", circuit, err)
	}
	start := time.Now()
	files, err := w.st.loadCircuit(ctx, &RegisterInfo{R1CS: c.R1CS, PK: c.PK, VK: c.VK}, w.cfg.CacheDir, false)
	if err != nil {
		return nil, err
	}
	p, err := w.cfg.NewProver(files.ccs, files.pk, w.devices, w.log)
	if err != nil {
		return nil, fmt.Errorf("service: circuit %s: %w", circuit, err)
	}
	cp := &circuitProver{prover: p, vk: files.vk}
	w.provers[circuit] = cp
	w.log.Info("circuit loaded", "circuit", circuit, "constraints", c.Constraints, "took", time.Since(start))
	return cp, nil
}

func (w *Worker) closeProvers() {
	w.mu.Lock()
	defer w.mu.Unlock()
	var errs []error
	for id, cp := range w.provers {
		errs = append(errs, cp.prover.Close())
		delete(w.provers, id)
	}
	if err := errors.Join(errs...); err != nil {
		w.log.Warn("closing provers", "err", err)
	}
}
