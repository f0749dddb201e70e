package service

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/consensys/gnark"
	"github.com/consensys/gnark-crypto/ecc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/constraint"

	g16curve "github.com/g16prover/g16/curve"
	"github.com/g16prover/g16/internal/gnarkio"
	"github.com/g16prover/g16/service/client"
)

// circuitFiles is a circuit decoded from its blobs.
type circuitFiles struct {
	curve ecc.ID // of the R1CS and both keys
	ccs   constraint.ConstraintSystem
	pk    gnarkgroth16.ProvingKey
	vk    gnarkgroth16.VerifyingKey // nil if none was registered
}

// circuitID names the circuit of the three blob hashes (vk may be "").
func circuitID(r1cs, pk, vk string) string {
	h := sha256.Sum256([]byte(r1cs + "\n" + pk + "\n" + vk))
	return hex.EncodeToString(h[:])
}

// validHash reports whether h is a lower-case hex SHA-256.
func validHash(h string) bool {
	if len(h) != 2*sha256.Size {
		return false
	}
	for _, c := range h {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// decode reads gnark's encoding with read, turning a decoder's panic on
// corrupt data into an error.
func decode(what string, r io.Reader, read func(io.Reader) (int64, error)) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("service: %s is corrupt: decoder failed: %v", what, p)
		}
	}()
	if _, err := read(bufio.NewReaderSize(r, 1<<20)); err != nil {
		return fmt.Errorf("service: %s is corrupt: %w", what, err)
	}
	return nil
}

// fetchBlob returns a reader of blob hash, from cacheDir if it is there,
// else from the object store (which checks the content against its digest)
// through the cache. cacheDir "" reads straight from the store.
func (s *store) fetchBlob(ctx context.Context, hash, cacheDir string) (io.ReadCloser, error) {
	if !validHash(hash) {
		return nil, fmt.Errorf("service: %q is not a SHA-256 blob name", hash)
	}
	if cacheDir == "" {
		return s.blobs.Get(ctx, hash)
	}
	path := filepath.Join(cacheDir, hash)
	if f, err := os.Open(path); err == nil {
		return f, nil
	}
	if err := os.MkdirAll(cacheDir, 0o700); err != nil {
		return nil, fmt.Errorf("service: key cache: %w", err)
	}
	obj, err := s.blobs.Get(ctx, hash)
	if err != nil {
		return nil, fmt.Errorf("service: blob %s: %w", hash, err)
	}
	defer obj.Close()
	tmp, err := os.CreateTemp(cacheDir, hash+".part*")
	if err != nil {
		return nil, fmt.Errorf("service: key cache: %w", err)
	}
	defer os.Remove(tmp.Name())
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(tmp, h), obj); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("service: blob %s: %w", hash, err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != hash {
		tmp.Close()
		return nil, fmt.Errorf("service: blob %s reads back with SHA-256 %s", hash, got)
	}
	if err := tmp.Close(); err != nil {
		return nil, fmt.Errorf("service: key cache: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return nil, fmt.Errorf("service: key cache: %w", err)
	}
	return os.Open(path)
}

// loadCircuit decodes a registered circuit's blobs. checkPoints checks
// every proving key base is on the curve (registration does; workers
// trust what registration checked).
func (s *store) loadCircuit(ctx context.Context, c *RegisterInfo, cacheDir string, checkPoints bool) (*circuitFiles, error) {
	f := &circuitFiles{}
	read := func(what, hash string, into func(io.Reader) (int64, error)) error {
		r, err := s.fetchBlob(ctx, hash, cacheDir)
		if err != nil {
			return err
		}
		defer r.Close()
		return decode(what, r, into)
	}
	// The R1CS and the key go through gnarkio, which checks them before
	// gnark decodes: gnark's R1CS decoder can panic in goroutines of its
	// own, and both allocate what corrupt counts say.
	r, err := s.fetchBlob(ctx, c.R1CS, cacheDir)
	if err != nil {
		return nil, err
	}
	ccs, err := gnarkio.ReadR1CS(bufio.NewReaderSize(r, 1<<20))
	r.Close()
	if errors.Is(err, gnarkio.ErrUnsupported) {
		return nil, fmt.Errorf("service: R1CS: %w", err)
	}
	if err != nil {
		return nil, fmt.Errorf("service: R1CS is corrupt: %w", err)
	}
	f.ccs = ccs
	if f.curve, err = gnarkio.SystemCurve(ccs); err != nil {
		return nil, fmt.Errorf("service: R1CS: %w", err)
	}
	pk, err := gnarkio.ReadProvingKey(func() (io.ReadCloser, error) { return s.fetchBlob(ctx, c.PK, cacheDir) }, true)
	if errors.Is(err, gnarkio.ErrUnsupported) {
		return nil, fmt.Errorf("service: proving key: %w", err)
	}
	if err != nil {
		return nil, fmt.Errorf("service: proving key is corrupt, or not a Groth16 proving key as gnark writes one (a PLONK key, say): %w", err)
	}
	if pk.CurveID() != f.curve {
		return nil, fmt.Errorf("service: proving key is over %s, the R1CS over %s: they are not one circuit's", g16curve.Name(pk.CurveID()), g16curve.Name(f.curve))
	}
	f.pk = pk
	if checkPoints {
		if err := gnarkio.CheckKeyPoints(f.pk); err != nil {
			return nil, fmt.Errorf("service: proving key is corrupt: %w", err)
		}
	}
	if c.VK != "" {
		f.vk = gnarkgroth16.NewVerifyingKey(f.curve)
		if err := read("verifying key", c.VK, f.vk.ReadFrom); err != nil {
			// gnark's decoder checks every point is on its curve and in
			// its subgroup: a key of another curve decodes over that one
			// only, and is named by it.
			for _, id := range gnark.Curves() {
				if id != f.curve && read("verifying key", c.VK, gnarkgroth16.NewVerifyingKey(id).ReadFrom) == nil {
					return nil, fmt.Errorf("service: verifying key is over %s, the R1CS over %s: they are not one circuit's", g16curve.Name(id), g16curve.Name(f.curve))
				}
			}
			return nil, fmt.Errorf("%w (the R1CS is over %s)", err, g16curve.Name(f.curve))
		}
	}
	return f, nil
}

// RegisterInfo names the blobs of a circuit.
type RegisterInfo struct{ R1CS, PK, VK string }

// shape reads the circuit's sizes for its record.
func shape(ccs constraint.ConstraintSystem) (constraints, public, secret, commitments int) {
	ci, _ := ccs.GetCommitments().(constraint.Groth16Commitments)
	return ccs.GetNbConstraints(), ccs.GetNbPublicVariables() - 1, ccs.GetNbSecretVariables(), len(ci)
}

// circuitCurve is the curve of a registered circuit: records written before
// the curve was recorded are BLS12-381's, the one curve g16 then proved on.
func circuitCurve(c *client.Circuit) (ecc.ID, error) {
	if c.Curve == "" {
		return ecc.BLS12_381, nil
	}
	id, err := g16curve.Parse(c.Curve)
	if err != nil {
		return ecc.UNKNOWN, fmt.Errorf("service: circuit %s: %w", c.ID, err)
	}
	return id, nil
}
