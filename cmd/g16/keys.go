package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/constraint"

	"github.com/g16prover/g16/internal/gnarkio"
)

// keyCacheDir is where bench keeps the keys gnark's setup made.
func keyCacheDir(flagValue string) (string, error) {
	if flagValue != "" {
		return flagValue, nil
	}
	if d := os.Getenv("G16_KEYS"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no key cache directory (set --keydir or G16_KEYS): %w", err)
	}
	return filepath.Join(d, "g16", "keys"), nil
}

// setupKeys returns gnark's keys for ccs, from the cache when a previous run
// made them, else from gnark's Setup (slow: minutes at 2^18 constraints),
// printing progress to log while it runs.
//
// A cached pair is used only when the digest of the circuit it was made
// for (name.r1cs.sha256) is ccs's: circuits of one name and size change
// between versions of g16, and a key made for another circuit gives
// proofs that do not verify.
func setupKeys(ccs constraint.ConstraintSystem, dir, name string, log io.Writer) (gnarkgroth16.ProvingKey, gnarkgroth16.VerifyingKey, bool, error) {
	pkPath := filepath.Join(dir, name+".pk")
	vkPath := filepath.Join(dir, name+".vk")
	digestPath := filepath.Join(dir, name+".r1cs.sha256")
	digest, err := r1csDigest(ccs)
	if err != nil {
		return nil, nil, false, err
	}
	id, err := gnarkio.SystemCurve(ccs)
	if err != nil {
		return nil, nil, false, err
	}
	pk := gnarkgroth16.NewProvingKey(id)
	vk := gnarkgroth16.NewVerifyingKey(id)
	if cached, err := os.ReadFile(digestPath); err == nil && string(cached) == digest {
		if err := readRaw(pkPath, pk); err == nil {
			if err := readRaw(vkPath, vk); err == nil {
				return pk, vk, true, nil
			}
		}
	}

	start := time.Now()
	fmt.Fprintf(log, "setup: running gnark's Groth16 setup for %d constraints (cached afterwards in %s)\n", ccs.GetNbConstraints(), dir)
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(10 * time.Second)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				fmt.Fprintf(log, "setup: still running, %s elapsed\n", time.Since(start).Round(time.Second))
			}
		}
	}()
	pk, vk, err = gnarkgroth16.Setup(ccs)
	close(done)
	if err != nil {
		return nil, nil, false, fmt.Errorf("gnark setup: %w", err)
	}
	fmt.Fprintf(log, "setup: done in %s\n", time.Since(start).Round(time.Millisecond))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, false, err
	}
	if err := writeAtomic(pkPath, func(w io.Writer) error { _, err := pk.WriteRawTo(w); return err }); err != nil {
		return nil, nil, false, err
	}
	if err := writeAtomic(vkPath, func(w io.Writer) error { _, err := vk.WriteRawTo(w); return err }); err != nil {
		return nil, nil, false, err
	}
	if err := writeAtomic(digestPath, func(w io.Writer) error { _, err := io.WriteString(w, digest); return err }); err != nil {
		return nil, nil, false, err
	}
	return pk, vk, false, nil
}

// r1csDigest is the SHA-256 of ccs as gnark serialises it, in hex.
func r1csDigest(ccs constraint.ConstraintSystem) (string, error) {
	h := sha256.New()
	if _, err := ccs.WriteTo(h); err != nil {
		return "", fmt.Errorf("digest of the circuit: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// readRaw loads a key written with WriteRawTo.
func readRaw(path string, into interface {
	UnsafeReadFrom(io.Reader) (int64, error)
}) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := into.UnsafeReadFrom(bufio.NewReaderSize(f, 1<<20)); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// writeAtomic writes a file (mode 0644) through a temporary name, so that
// an interrupted run leaves no truncated file behind.
func writeAtomic(path string, write func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	w := bufio.NewWriterSize(tmp, 1<<20)
	if err = write(w); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = w.Flush(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	// CreateTemp makes the file 0600; what g16 writes is for others to read.
	if err = os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
