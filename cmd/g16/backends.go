package main

import (
	"fmt"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/backend/cuda"
)

// openBackends opens our backend named by flag ("cpu" or "cuda"), plus the
// CPU backend beside a GPU one when compareCPU is set. With "cuda" it opens
// every visible GPU, up to maxGPUs (0: no limit); single proofs use the first.
func openBackends(name string, compareCPU bool, maxGPUs int) ([]namedBackend, error) {
	return openBackendsLimited(name, compareCPU, maxGPUs, 0, false, nil)
}

// openBackendsLimited is openBackends with each device's memory capped at
// limit bytes (cuda.WithMemoryLimit, cpu.WithCapacity; 0: what the device
// has). Under a limit and with beside set, a second backend without it
// (on GPU 0 for cuda) runs beside the limited ones, so that their proofs
// are compared byte for byte. tune are more options of every cuda backend.
func openBackendsLimited(name string, compareCPU bool, maxGPUs int, limit int64, beside bool, tune []cuda.Option) ([]namedBackend, error) {
	switch name {
	case "cpu":
		var opts []cpu.Option
		if limit > 0 {
			opts = append(opts, cpu.WithCapacity(limit))
		}
		b, err := cpu.New(opts...)
		if err != nil {
			return nil, err
		}
		devs := []namedBackend{{name: "g16 " + b.String(), dev: b, all: []backend.Backend{b}}}
		if limit > 0 {
			devs[0].name += fmt.Sprintf(" (limit %s)", gib(limit))
			if beside {
				free, err := cpu.New(cpu.WithID(1))
				if err != nil {
					b.Close()
					return nil, err
				}
				devs = append(devs, namedBackend{name: "g16 " + free.String() + " (no limit)", dev: free, all: []backend.Backend{free}})
			}
		}
		return devs, nil
	case "cuda":
		opts := append([]cuda.Option(nil), tune...)
		if limit > 0 {
			opts = append(opts, cuda.WithMemoryLimit(limit))
		}
		gpus, err := cuda.OpenAll(maxGPUs, opts...)
		if err != nil {
			return nil, err
		}
		devs := []namedBackend{{name: "g16 " + gpus[0].String(), dev: gpus[0], all: gpus}}
		if limit > 0 {
			devs[0].name += fmt.Sprintf(" (limit %s)", gib(limit))
		}
		if limit > 0 && beside {
			free, err := cuda.New(0, tune...)
			if err != nil {
				for _, g := range gpus {
					g.Close()
				}
				return nil, err
			}
			devs = append(devs, namedBackend{name: "g16 " + free.String() + " (no limit)", dev: free, all: []backend.Backend{free}})
		}
		if compareCPU {
			b, err := cpu.New()
			if err != nil {
				return nil, err
			}
			devs = append(devs, namedBackend{name: "g16 " + b.String(), dev: b, all: []backend.Backend{b}})
		}
		return devs, nil
	}
	return nil, &failure{code: exitUsage, err: fmt.Errorf("--backend %q: want cpu or cuda", name)}
}

// openBackend opens one backend by name for prove and selftest.
func openBackend(name string) (namedBackend, error) {
	devs, err := openBackends(name, false, 1)
	if err != nil {
		return namedBackend{}, err
	}
	return devs[0], nil
}

// namedBackend is one of our backends under test: dev proves single
// proofs; all are the devices a batch may spread over.
type namedBackend struct {
	name string
	dev  backend.Backend
	all  []backend.Backend
}

func (n namedBackend) close() {
	for _, d := range n.all {
		d.Close()
	}
}
