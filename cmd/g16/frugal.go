package main

import (
	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
)

// withFrugalCPU appends, beside the CPU backend among devs (if any), a
// second CPU backend told the host has no memory to spare
// (cpu.WithHostMemory(1 byte)): it runs a proof's MSMs one at a time and
// keeps no NTT tables above 2^18, whatever the host has, so that the two
// schedules are timed side by side in one run (--cpu-frugal).
func withFrugalCPU(devs []namedBackend) ([]namedBackend, error) {
	for _, d := range devs {
		if _, ok := d.dev.(*cpu.Backend); !ok {
			continue
		}
		b, err := cpu.New(cpu.WithID(1), cpu.WithHostMemory(1))
		if err != nil {
			return devs, err
		}
		return append(devs, namedBackend{name: "g16 " + b.String() + " (frugal)", dev: b, all: []backend.Backend{b}}), nil
	}
	return devs, nil
}
