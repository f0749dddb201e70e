package main

import (
	"fmt"

	"github.com/g16prover/g16/backend/cpu"
)

// openBackends opens our backend named by flag ("cpu" or "cuda"), plus the
// CPU backend beside a GPU one when compareCPU is set.
func openBackends(name string, compareCPU bool) ([]namedBackend, error) {
	switch name {
	case "cpu":
		b, err := cpu.New()
		if err != nil {
			return nil, err
		}
		return []namedBackend{{"g16 " + b.String(), b}}, nil
	case "cuda":
		g, err := openCUDA(0)
		if err != nil {
			return nil, err
		}
		devs := []namedBackend{{"g16 " + g.String(), g}}
		if compareCPU {
			b, err := cpu.New()
			if err != nil {
				return nil, err
			}
			devs = append(devs, namedBackend{"g16 " + b.String(), b})
		}
		return devs, nil
	}
	return nil, fmt.Errorf("--backend %q: want cpu or cuda", name)
}

// openBackend opens one backend by name for prove and selftest.
func openBackend(name string) (namedBackend, error) {
	devs, err := openBackends(name, false)
	if err != nil {
		return namedBackend{}, err
	}
	return devs[0], nil
}

// openCUDA opens GPU dev. TEMPORARY until backend/cuda's stub lands.
func openCUDA(dev int) (namedBackendDev, error) {
	return nil, fmt.Errorf("cuda backend not available in this build")
}

type namedBackendDev = *cpu.Backend
