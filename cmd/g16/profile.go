package main

import (
	"bytes"
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/google/pprof/profile"
)

// proofProfiles is a CPU profile of chosen stretches of the run: each
// stretch is profiled on its own (start, stop) and write merges them into
// one profile, so that what runs between the stretches is left out.
type proofProfiles struct {
	path  string
	file  *os.File
	parts [][]byte
	buf   bytes.Buffer
}

// newProofProfiles creates the profile's file at once, so that a path that
// cannot be written is reported before any work.
func newProofProfiles(path string) (*proofProfiles, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return &proofProfiles{path: path, file: f}, nil
}

// start profiles the CPU until stop.
func (p *proofProfiles) start() error {
	p.buf.Reset()
	if err := pprof.StartCPUProfile(&p.buf); err != nil {
		return fmt.Errorf("--cpuprofile: %w", err)
	}
	return nil
}

func (p *proofProfiles) stop() {
	pprof.StopCPUProfile()
	p.parts = append(p.parts, bytes.Clone(p.buf.Bytes()))
}

// write merges the stretches' profiles into the file and closes it.
func (p *proofProfiles) write() error {
	if len(p.parts) == 0 {
		return fmt.Errorf("--cpuprofile %s: nothing was profiled", p.path)
	}
	profs := make([]*profile.Profile, len(p.parts))
	for i, b := range p.parts {
		pr, err := profile.ParseData(b)
		if err != nil {
			return fmt.Errorf("--cpuprofile: reading back stretch %d's profile: %w", i, err)
		}
		profs[i] = pr
	}
	merged, err := profile.Merge(profs)
	if err != nil {
		return fmt.Errorf("--cpuprofile: merging %d profiles: %w", len(profs), err)
	}
	if err := merged.Write(p.file); err != nil {
		return fmt.Errorf("--cpuprofile %s: %w", p.path, err)
	}
	return p.close()
}

// close closes the file; after write it does nothing.
func (p *proofProfiles) close() error {
	if p.file == nil {
		return nil
	}
	err := p.file.Close()
	p.file = nil
	if err != nil {
		return fmt.Errorf("--cpuprofile %s: %w", p.path, err)
	}
	return nil
}
