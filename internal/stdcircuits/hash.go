package stdcircuits

import (
	"crypto/sha256"
	"crypto/sha3"
	"fmt"
	"math/rand/v2"

	"github.com/consensys/gnark/frontend"
	zkhash "github.com/consensys/gnark/std/hash"
	"github.com/consensys/gnark/std/hash/sha2"
	zksha3 "github.com/consensys/gnark/std/hash/sha3"
	"github.com/consensys/gnark/std/math/uints"
)

// hashCircuit proves that the secret message In hashes to Expected.
type hashCircuit struct {
	In       []uints.U8
	Expected [32]uints.U8

	newHash func(frontend.API, ...zkhash.Option) (zkhash.BinaryFixedLengthHasher, error)
}

func (c *hashCircuit) Define(api frontend.API) error {
	h, err := c.newHash(api)
	if err != nil {
		return err
	}
	bytes, err := uints.NewBytes(api)
	if err != nil {
		return err
	}
	h.Write(c.In)
	sum := h.Sum()
	if len(sum) != len(c.Expected) {
		return fmt.Errorf("stdcircuits: digest of %d bytes, want %d", len(sum), len(c.Expected))
	}
	for i := range c.Expected {
		bytes.AssertIsEqual(c.Expected[i], sum[i])
	}
	return nil
}

func hashInstance(name string, msgBytes int,
	newHash func(frontend.API, ...zkhash.Option) (zkhash.BinaryFixedLengthHasher, error),
	native func([]byte) [32]byte) *Circuit {
	return &Circuit{
		Name:  sized(name, "bytes", msgBytes),
		Shape: &hashCircuit{In: make([]uints.U8, msgBytes), newHash: newHash},
		Assign: func(rng *rand.Rand) (frontend.Circuit, error) {
			msg := randBytes(rng, msgBytes)
			sum := native(msg)
			a := &hashCircuit{In: uints.NewU8Array(msg), newHash: newHash}
			copy(a.Expected[:], uints.NewU8Array(sum[:]))
			return a, nil
		},
	}
}

// SHA256 is SHA-256 (std/hash/sha2) of a secret message of msgBytes bytes.
func SHA256(msgBytes int) (*Circuit, error) {
	if msgBytes < 1 {
		return nil, fmt.Errorf("stdcircuits: sha256: %d message bytes, need at least 1", msgBytes)
	}
	return hashInstance("sha256", msgBytes, sha2.New, sha256.Sum256), nil
}

// SHA3 is SHA3-256 (std/hash/sha3, the Keccak permutation) of a secret
// message of msgBytes bytes.
func SHA3(msgBytes int) (*Circuit, error) {
	if msgBytes < 1 {
		return nil, fmt.Errorf("stdcircuits: sha3: %d message bytes, need at least 1", msgBytes)
	}
	return hashInstance("sha3", msgBytes, zksha3.New256, sha3.Sum256), nil
}
