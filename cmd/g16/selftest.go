package main

import (
	"errors"
	"io"
)

func runSelftest(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("selftest", stderr)
	backendName := fs.String("backend", "cpu", "backend to check: cpu or cuda")
	if err := parse(fs, args); err != nil {
		return err
	}
	dev, err := openBackend(*backendName)
	if err != nil {
		return err
	}
	defer dev.dev.Close()
	return errors.New("selftest: test vectors not wired in yet")
}
