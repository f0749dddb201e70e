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
	"runtime"
	"sync"

	"github.com/consensys/gnark-crypto/ecc"
	curve "github.com/consensys/gnark-crypto/ecc/bls12-381"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	groth16bls "github.com/consensys/gnark/backend/groth16/bls12-381"
	"github.com/consensys/gnark/constraint"
	cs "github.com/consensys/gnark/constraint/bls12-381"

	"github.com/g16prover/g16/internal/gnarkio"
)

// circuitFiles is a circuit decoded from its blobs.
type circuitFiles struct {
	ccs constraint.ConstraintSystem
	pk  gnarkgroth16.ProvingKey
	vk  gnarkgroth16.VerifyingKey // nil if none was registered
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
	pk, err := gnarkio.ReadProvingKey(func() (io.ReadCloser, error) { return s.fetchBlob(ctx, c.PK, cacheDir) }, true)
	if errors.Is(err, gnarkio.ErrUnsupported) {
		return nil, fmt.Errorf("service: proving key: %w", err)
	}
	if err != nil {
		return nil, fmt.Errorf("service: proving key is corrupt: %w", err)
	}
	f.pk = pk
	if checkPoints {
		if err := checkKeyPoints(f.pk); err != nil {
			return nil, err
		}
	}
	if c.VK != "" {
		f.vk = gnarkgroth16.NewVerifyingKey(ecc.BLS12_381)
		if err := read("verifying key", c.VK, f.vk.ReadFrom); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// RegisterInfo names the blobs of a circuit.
type RegisterInfo struct{ R1CS, PK, VK string }

// checkPair reports a verifying key that is not the proving key's twin.
func checkPair(pk gnarkgroth16.ProvingKey, vk gnarkgroth16.VerifyingKey) error {
	p, ok := pk.(*groth16bls.ProvingKey)
	v, ok2 := vk.(*groth16bls.VerifyingKey)
	if !ok || !ok2 {
		return errors.New("service: keys are not BLS12-381 Groth16 keys")
	}
	if !p.G1.Alpha.Equal(&v.G1.Alpha) || !p.G1.Beta.Equal(&v.G1.Beta) || !p.G1.Delta.Equal(&v.G1.Delta) ||
		!p.G2.Beta.Equal(&v.G2.Beta) || !p.G2.Delta.Equal(&v.G2.Delta) {
		return errors.New("service: the verifying key's α, β, δ differ from the proving key's: keys of different setups")
	}
	return nil
}

// shape reads the circuit's sizes for its record.
func shape(ccs constraint.ConstraintSystem) (constraints, public, secret, commitments int, err error) {
	r, ok := ccs.(*cs.R1CS)
	if !ok {
		return 0, 0, 0, 0, fmt.Errorf("service: constraint system is a %T, not a BLS12-381 R1CS", ccs)
	}
	ci, _ := r.CommitmentInfo.(constraint.Groth16Commitments)
	return r.GetNbConstraints(), r.GetNbPublicVariables() - 1, r.GetNbSecretVariables(), len(ci), nil
}

// checkKeyPoints checks that every base of a key read without checks lies
// on the curve: it catches corrupt raw key files at a fraction of the cost
// of the subgroup checks.
func checkKeyPoints(pk gnarkgroth16.ProvingKey) error {
	key, ok := pk.(*groth16bls.ProvingKey)
	if !ok {
		return errors.New("service: proving key is not a BLS12-381 Groth16 key")
	}
	g1 := map[string][]curve.G1Affine{"A": key.G1.A, "B": key.G1.B, "K": key.G1.K, "Z": key.G1.Z,
		"α, β, δ": {key.G1.Alpha, key.G1.Beta, key.G1.Delta}}
	for name, pts := range g1 {
		if i := firstFailing(len(pts), func(i int) bool { return pts[i].IsOnCurve() }); i >= 0 {
			return fmt.Errorf("service: proving key is corrupt: G1 %s point %d is not on the curve", name, i)
		}
	}
	g2 := append([]curve.G2Affine{key.G2.Beta, key.G2.Delta}, key.G2.B...)
	if i := firstFailing(len(g2), func(i int) bool { return g2[i].IsOnCurve() }); i >= 0 {
		return fmt.Errorf("service: proving key is corrupt: G2 point %d (β, δ, then B) is not on the curve", i)
	}
	return nil
}

// firstFailing returns the lowest index in [0, n) whose check fails, or −1,
// checking on every core.
func firstFailing(n int, ok func(int) bool) int {
	tasks := max(1, runtime.NumCPU())
	step := (n + tasks - 1) / tasks
	bad := make([]int, tasks)
	var wg sync.WaitGroup
	for t := range tasks {
		bad[t] = -1
		lo, hi := t*step, min(n, (t+1)*step)
		if lo >= hi {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				if !ok(i) {
					bad[t] = i
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, b := range bad {
		if b >= 0 {
			return b
		}
	}
	return -1
}
