package main

import (
	"fmt"

	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/backend/cuda"
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
		g, err := cuda.New(0)
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
