package bls12381

import (
	"errors"
	"fmt"
	"log/slog"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/backend/cuda"
)

// defaultDevices is what a Prover runs on when no backend is given: every
// GPU CUDA sees (CUDA_VISIBLE_DEVICES applies) in a cuda build that finds
// one, else one CPU backend. Falling back to the CPU in a cuda build is
// logged at Warn with the reason; the caller closes the devices.
func defaultDevices(log *slog.Logger) ([]backend.Backend, error) {
	n, err := cuda.DeviceCount()
	switch {
	case errors.Is(err, cuda.ErrNotBuilt):
		log.Debug("groth16: no backend given; proving on the CPU (build without the cuda tag)")
		return []backend.Backend{cpu.MustNew()}, nil
	case err != nil:
		log.Warn("groth16: no backend given and no usable GPU; proving on the CPU", "reason", err.Error())
		return []backend.Backend{cpu.MustNew()}, nil
	case n == 0:
		log.Warn("groth16: no backend given and CUDA sees no GPU (check CUDA_VISIBLE_DEVICES); proving on the CPU")
		return []backend.Backend{cpu.MustNew()}, nil
	}
	if err := cuda.SupportsCurve(proverCurve); err != nil {
		log.Warn("groth16: no backend given and the GPU kernels do not prove over this curve; proving on the CPU", "curve", proverCurve.String(), "reason", err.Error())
		return []backend.Backend{cpu.MustNew()}, nil
	}
	gpus, err := cuda.OpenAll(0)
	if err != nil {
		return nil, fmt.Errorf("groth16: opening the default devices: %w", err)
	}
	names := make([]string, len(gpus))
	for i, g := range gpus {
		names[i] = g.String()
	}
	log.Info("groth16: no backend given; proving on every visible GPU", "devices", names)
	return gpus, nil
}
