// Package suite is what every curve's test vectors share, whatever the
// curve: how their randomness is drawn, the files a generator makes, the
// checks a curve's vectors give the conformance suite, the sizes of each
// curve's vectors and the whole-proof vectors (serialized gnark objects,
// read the same way on every curve). The per-curve packages
// (internal/testvectors/internal/bls12381 and its generated copies) make
// and check the vectors of their curve with it.
package suite

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	mrand "math/rand/v2"
	"path"

	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
)

// Versions of the libraries whose output the vectors record. The generator
// refuses to run against others.
const (
	GnarkVersion       = "v0.16.1"
	GnarkCryptoVersion = "v0.21.0"
)

// SeedPrefix is prepended to a stream's name to form its seed.
const SeedPrefix = "g16/testvectors/v1/"

// Stream returns the ChaCha8 stream for name: every curve's vectors draw
// from the streams of the same names.
func Stream(name string) *mrand.ChaCha8 {
	return mrand.NewChaCha8(sha256.Sum256([]byte(SeedPrefix + name)))
}

// ProveSeed is the seed of the randomness the prover reads for the proof
// vector of circuit name.
func ProveSeed(name string) [32]byte {
	return sha256.Sum256([]byte(SeedPrefix + "proof/" + name + "/prove"))
}

// WithRandReader runs f with crypto/rand.Reader replaced by r, and puts the
// original back. gnark's Setup and Prove draw their randomness from it.
// Not safe while anything else uses crypto/rand.Reader.
func WithRandReader(r io.Reader, f func() error) error {
	saved := rand.Reader
	rand.Reader = r
	defer func() { rand.Reader = saved }()
	return f()
}

// File is one generated file: its path below its curve's directory of
// testdata/ (or below testdata/ itself) and its contents.
type File struct {
	Path string
	Data []byte
}

// Sizes are what one curve's vector files hold: BLS12-381's (the
// reference) cover the GPU kernels' multi-pass NTTs and long MSMs; the
// other curves' are smaller, so that the embedded files stay small, and
// their NTT, quotient and MSM kernels meet long inputs in the cross-checks
// against the CPU backend.
type Sizes struct {
	NTTLogs []int // ntt.bin: transform sizes, as log2
	HLogs   []int // h.bin: the quotient vectors' domain sizes, as log2
	// msm_g1.bin and msm_g2.bin: the lengths of the random vectors over
	// the table of random bases; the last is the table's size.
	G1Lengths, G2Lengths []int
	// WitnessLen is the length of the vectors of witness-like scalars
	// (all ones, all −1, ±1 and 0, small); RepeatG1 and RepeatG2 of the
	// vectors over one repeated base.
	WitnessLen, RepeatG1, RepeatG2 int
	// CrossG1 and CrossG2 bound the lengths of the cross-checks' MSMs.
	CrossG1, CrossG2 int
}

// SizesFor is the sizes of curve id's vectors.
func SizesFor(id ecc.ID) Sizes {
	if id == ecc.BLS12_381 {
		return Sizes{
			NTTLogs:    []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14},
			HLogs:      []int{2, 5, 8, 10},
			G1Lengths:  []int{1, 2, 3, 7, 64, 1000, 4096, 1<<14 + 3},
			G2Lengths:  []int{1, 2, 3, 7, 64, 1000, 4096},
			WitnessLen: 1000, RepeatG1: 1000, RepeatG2: 256,
			CrossG1: 5000, CrossG2: 1500,
		}
	}
	return Sizes{
		NTTLogs:    []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
		HLogs:      []int{2, 5, 8},
		G1Lengths:  []int{1, 2, 3, 7, 64, 1000, 1<<10 + 3},
		G2Lengths:  []int{1, 2, 3, 7, 64, 1000},
		WitnessLen: 256, RepeatG1: 64, RepeatG2: 64,
		CrossG1: 2000, CrossG2: 500,
	}
}

// SeedEnv names the environment variable that fixes the cross-checks'
// seed (a decimal uint64), to repeat a failed run.
const SeedEnv = "G16_CONFORMANCE_SEED"

// Groups of checks.
const (
	GroupNTT   = "NTT"
	GroupH     = "H"
	GroupMSMG1 = "MSMG1"
	GroupMSMG2 = "MSMG2"
	GroupProof = "Proof"
	GroupCross = "Cross"
)

// Check is one check of a curve's vectors, or one cross-check against the
// CPU backend: its group, its name within the group (without the curve),
// the curve and how it runs on a backend.
type Check struct {
	Group string
	Name  string
	Curve ecc.ID
	Run   func(b backend.Backend) error
	// AtInfinity: an MSM vector whose expected result is the point at
	// infinity.
	AtInfinity bool
}

// Names of the files of one proof vector, in proof/<circuit>/ below its
// curve's directory.
const (
	FileR1CS    = "r1cs.bin"    // ccs.WriteTo
	FilePK      = "pk.raw"      // pk.WriteRawTo
	FileVK      = "vk.bin"      // vk.WriteTo
	FileWitness = "witness.bin" // full witness, MarshalBinary
	FileSeed    = "seed.hex"    // 32-byte ChaCha8 seed of the prover's randomness, hex, newline
	FileProof   = "proof.bin"   // proof.WriteTo
)

// ProofVector is one whole-proof vector: serialized gnark objects, as in
// proof/<Name>/ of its curve's directory.
type ProofVector struct {
	Name    string
	Curve   ecc.ID
	R1CS    []byte   // constraint system, WriteTo
	PK      []byte   // proving key, WriteRawTo
	VK      []byte   // verifying key, WriteTo
	Witness []byte   // full witness, MarshalBinary
	Seed    [32]byte // ChaCha8 seed of the prover's randomness
	Proof   []byte   // the proof gnark's prover wrote, WriteTo
}

// LoadProofs reads the proof vectors of curve id below proof/ in fsys (its
// curve's directory).
func LoadProofs(fsys fs.FS, id ecc.ID) ([]ProofVector, error) {
	dirs, err := fs.ReadDir(fsys, "proof")
	if err != nil {
		return nil, err
	}
	var out []ProofVector
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		p := ProofVector{Name: d.Name(), Curve: id}
		var seedHex []byte
		for _, f := range []struct {
			name string
			dst  *[]byte
		}{
			{FileR1CS, &p.R1CS}, {FilePK, &p.PK}, {FileVK, &p.VK},
			{FileWitness, &p.Witness}, {FileSeed, &seedHex}, {FileProof, &p.Proof},
		} {
			if *f.dst, err = fs.ReadFile(fsys, path.Join("proof", d.Name(), f.name)); err != nil {
				return nil, err
			}
		}
		if err := parseSeed(&p.Seed, seedHex); err != nil {
			return nil, fmt.Errorf("proof/%s/%s: %w", d.Name(), FileSeed, err)
		}
		out = append(out, p)
	}
	return out, nil
}

func parseSeed(seed *[32]byte, text []byte) error {
	text = bytes.TrimSpace(text)
	if hex.DecodedLen(len(text)) != len(seed) {
		return fmt.Errorf("want %d hex digits, have %d characters", 2*len(seed), len(text))
	}
	_, err := hex.Decode(seed[:], text)
	return err
}
