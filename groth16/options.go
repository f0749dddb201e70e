package groth16

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"

	gnarkbackend "github.com/consensys/gnark/backend"

	"github.com/g16prover/g16/backend"
)

// Option configures Prove and ProveBatch.
type Option func(*config) error

type config struct {
	backend    backend.Backend
	rand       io.Reader
	proverOpts []gnarkbackend.ProverOption
	phaseTimes func(partition int, t PhaseTimes)
	deviceKey  *DeviceKey
	batch      batchConfig // ProveBatch's settings: see batch.go
}

func newConfig(opts []Option) (*config, error) {
	c := &config{rand: rand.Reader}
	for _, o := range opts {
		if o == nil {
			return nil, errors.New("groth16: nil Option")
		}
		if err := o(c); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// WithBackend runs the prover's NTTs and MSMs on b (default: a CPU backend).
func WithBackend(b backend.Backend) Option {
	return func(c *config) error {
		if b == nil {
			return errors.New("groth16: WithBackend: nil backend")
		}
		c.backend = b
		return nil
	}
}

// WithRandomness reads the proof's random r and s from rd, exactly as
// gnark's prover reads crypto/rand.Reader (default).
func WithRandomness(rd io.Reader) Option {
	return func(c *config) error {
		if rd == nil {
			return errors.New("groth16: WithRandomness: nil reader")
		}
		c.rand = rd
		return nil
	}
}

// WithProverOptions passes gnark prover options through: solver options
// (hints) and the hash to field for BSB22 commitments.
func WithProverOptions(opts ...gnarkbackend.ProverOption) Option {
	return func(c *config) error {
		if _, err := gnarkbackend.NewProverConfig(opts...); err != nil {
			return fmt.Errorf("groth16: WithProverOptions: %w", err)
		}
		c.proverOpts = append(c.proverOpts, opts...)
		return nil
	}
}

// WithPhaseTimes calls f once each proof is assembled, with the proof's
// index in the batch (0 for Prove) and the time each phase took. f must be
// safe for concurrent use under ProveBatch.
func WithPhaseTimes(f func(partition int, t PhaseTimes)) Option {
	return func(c *config) error {
		c.phaseTimes = f
		return nil
	}
}
