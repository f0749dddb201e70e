package bls12381

import (
	"bytes"
	"fmt"
	"io"
	"math/big"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/internal/testvectors/internal/suite"
)

// sizes are what this curve's vector files hold.
var sizes = suite.SizesFor(ecc.BLS12_381)

// Generate builds this curve's vector files in memory, in a fixed order,
// their paths relative to the curve's directory of testdata/; logf, if
// not nil, gets one line per file. Every random value comes from a
// suite.Stream, so each vector depends on its own name only. Expected
// values come from gnark-crypto (NTT, MultiExp) and gnark (Setup, Prove),
// each cross-checked against an independent computation before it is
// written.
func Generate(logf func(format string, args ...any)) ([]suite.File, error) {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	var files []suite.File
	add := func(path string, write func(w io.Writer) error) error {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			return fmt.Errorf("generate: %s: %w", path, err)
		}
		files = append(files, suite.File{Path: path, Data: buf.Bytes()})
		logf("%-28s %9d bytes", path, buf.Len())
		return nil
	}
	for _, f := range []struct {
		path  string
		write func(w io.Writer) error
	}{{"ntt.bin", writeNTT}, {"h.bin", writeH}, {"msm_g1.bin", writeMSMG1}, {"msm_g2.bin", writeMSMG2}} {
		if err := add(f.path, f.write); err != nil {
			return nil, err
		}
	}
	proofFiles, err := proofVectors()
	if err != nil {
		return nil, err
	}
	for _, f := range proofFiles {
		files = append(files, f)
		logf("%-28s %9d bytes", f.Path, len(f.Data))
	}
	return append(files, readme(files)), nil
}

// elementOf returns x mod r as an element.
func elementOf(x *big.Int) fr.Element {
	var e fr.Element
	e.SetBigInt(x)
	return e
}
