package service

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"fmt"
	"io"
)

// SeedBytes is the length of a job's seed.
const SeedBytes = 32

// JobRandomness is the randomness a job's proof reads: the AES-256-CTR
// keystream under key seed, from a zero counter. seed must be SeedBytes
// long.
func JobRandomness(seed []byte) (io.Reader, error) {
	if len(seed) != SeedBytes {
		return nil, fmt.Errorf("service: seed is %d bytes, want %d", len(seed), SeedBytes)
	}
	block, err := aes.NewCipher(seed)
	if err != nil {
		return nil, fmt.Errorf("service: seed: %w", err)
	}
	var iv [aes.BlockSize]byte
	return cipher.StreamReader{S: cipher.NewCTR(block, iv[:]), R: zeros{}}, nil
}

// zeros reads as an endless run of zero bytes, so that the CTR stream
// reader returns the bare keystream.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func newSeed() ([]byte, error) {
	seed := make([]byte, SeedBytes)
	if _, err := rand.Read(seed); err != nil {
		return nil, fmt.Errorf("service: drawing a seed: %w", err)
	}
	return seed, nil
}
