package main

import (
	"errors"
	"io"

	"github.com/g16prover/g16/internal/testvectors"
)

func runSelftest(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("selftest", stderr)
	backendName := fs.String("backend", "cpu", "backend to check: cpu or cuda")
	if err := parse(fs, args); err != nil {
		return err
	}
	dev, err := openBackend(*backendName)
	if err != nil {
		return deviceFailure(err)
	}
	defer dev.close()
	if !testvectors.SelfTest(dev.dev, stdout) {
		return deviceFailure(errors.New("the backend failed the test vectors"))
	}
	return nil
}
