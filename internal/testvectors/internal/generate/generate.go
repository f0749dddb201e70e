// Package generate writes g16's test vectors. It is the body of the
// command internal/testvectors/gen, kept in a package so that tests can
// regenerate the vectors and compare them with the checked-in files.
//
// Every random value comes from a ChaCha8 stream (math/rand/v2) whose seed
// is the SHA-256 of "g16/testvectors/v1/" followed by the stream's name
// (Stream), so each vector depends on its own name only, not on the order
// in which vectors are made. Expected values come from gnark-crypto (NTT,
// MultiExp) and gnark (Setup, Prove), each cross-checked by the generator
// against an independent computation before it is written.
package generate

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark/logger"
)

// Versions of the libraries whose output the vectors record. The generator
// refuses to run against others (see CheckVersions).
const (
	GnarkVersion       = "v0.16.1"
	GnarkCryptoVersion = "v0.21.0"
)

// SeedPrefix is prepended to a stream's name to form its seed.
const SeedPrefix = "g16/testvectors/v1/"

// Stream returns the ChaCha8 stream for name.
func Stream(name string) *rand.ChaCha8 {
	return rand.NewChaCha8(sha256.Sum256([]byte(SeedPrefix + name)))
}

// elementOf returns x mod r as an element.
func elementOf(x *big.Int) fr.Element {
	var e fr.Element
	e.SetBigInt(x)
	return e
}

// File is one generated file: its path below testdata/ and its contents.
type File struct {
	Path string
	Data []byte
}

// Options tune Generate.
type Options struct {
	// Log, if not nil, receives one line per file.
	Log io.Writer
}

// All builds every vector file in memory, in a fixed order.
func All(opt Options) ([]File, error) {
	logf := func(format string, args ...any) {
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, format+"\n", args...)
		}
	}
	// gnark logs every compile, setup and proof; keep it quiet meanwhile.
	saved := logger.Logger()
	logger.Disable()
	defer logger.Set(saved)

	var files []File
	add := func(path string, write func(w io.Writer) error) error {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			return fmt.Errorf("generate: %s: %w", path, err)
		}
		files = append(files, File{Path: path, Data: buf.Bytes()})
		logf("%-28s %9d bytes", path, buf.Len())
		return nil
	}
	if err := add("ntt.bin", writeNTT); err != nil {
		return nil, err
	}
	if err := add("h.bin", writeH); err != nil {
		return nil, err
	}
	if err := add("msm_g1.bin", writeMSMG1); err != nil {
		return nil, err
	}
	if err := add("msm_g2.bin", writeMSMG2); err != nil {
		return nil, err
	}
	proofFiles, err := proofVectors()
	if err != nil {
		return nil, err
	}
	for _, f := range proofFiles {
		files = append(files, f)
		logf("%-28s %9d bytes", f.Path, len(f.Data))
	}
	files = append(files, readme(files))
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, nil
}

// Write writes files below dir, creating directories as needed.
func Write(dir string, files []File) error {
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("generate: %w", err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return fmt.Errorf("generate: %w", err)
		}
	}
	return nil
}

// Compare reports how the tree below dir differs from files: files that
// differ, are missing, or are not generated. It returns nil when they match.
func Compare(dir string, files []File) []string {
	var diffs []string
	want := make(map[string]bool)
	for _, f := range files {
		want[f.Path] = true
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
		switch {
		case err != nil:
			diffs = append(diffs, fmt.Sprintf("%s: %v", f.Path, err))
		case !bytes.Equal(got, f.Data):
			diffs = append(diffs, fmt.Sprintf("%s: differs (%d bytes on disk, %d generated; sha256 %x vs %x)",
				f.Path, len(got), len(f.Data), sha256.Sum256(got), sha256.Sum256(f.Data)))
		}
	}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		if !want[filepath.ToSlash(rel)] {
			diffs = append(diffs, fmt.Sprintf("%s: on disk but not generated", filepath.ToSlash(rel)))
		}
		return nil
	})
	if err != nil {
		diffs = append(diffs, fmt.Sprintf("walking %s: %v", dir, err))
	}
	return diffs
}
