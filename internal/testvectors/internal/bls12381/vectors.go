package bls12381

import (
	"bytes"
	"fmt"
	"io/fs"

	"github.com/g16prover/g16/internal/testvectors/internal/suite"
)

// Vectors are the decoded contents of this curve's vector files.
type Vectors struct {
	NTT   []NTT
	H     []H
	MSMG1 []MSMG1
	MSMG2 []MSMG2
}

// Load decodes the vector files in fsys, this curve's directory of
// testdata/.
func Load(fsys fs.FS) (*Vectors, error) {
	v := new(Vectors)
	var err error
	for _, s := range []struct {
		name   string
		decode func(b []byte) error
	}{
		{"ntt.bin", func(b []byte) error { v.NTT, err = ReadNTT(bytes.NewReader(b)); return err }},
		{"h.bin", func(b []byte) error { v.H, err = ReadH(bytes.NewReader(b)); return err }},
		{"msm_g1.bin", func(b []byte) error { v.MSMG1, err = ReadMSMG1(bytes.NewReader(b)); return err }},
		{"msm_g2.bin", func(b []byte) error { v.MSMG2, err = ReadMSMG2(bytes.NewReader(b)); return err }},
	} {
		b, err := fs.ReadFile(fsys, s.name)
		if err != nil {
			return nil, err
		}
		if err := s.decode(b); err != nil {
			return nil, fmt.Errorf("%s: %w", s.name, err)
		}
	}
	return v, nil
}

// Checks returns a check of every vector in fsys (this curve's directory
// of testdata/) but the proofs: the NTTs, the quotients and the MSMs.
func Checks(fsys fs.FS) ([]suite.Check, error) {
	v, err := Load(fsys)
	if err != nil {
		return nil, err
	}
	var checks []suite.Check
	checks = append(checks, nttChecks(v.NTT)...)
	checks = append(checks, hChecks(v.H)...)
	checks = append(checks, msmG1.checks(v.MSMG1)...)
	checks = append(checks, msmG2.checks(v.MSMG2)...)
	return checks, nil
}
