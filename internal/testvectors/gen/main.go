// Command gen writes g16's test vectors to internal/testvectors/testdata.
//
//	go run ./internal/testvectors/gen           write the files
//	go run ./internal/testvectors/gen -check    regenerate in memory; exit 1 if testdata differs
//
// Run it from the repository root (or pass -dir). Generation is
// deterministic: see internal/testvectors/testdata/README.md.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/consensys/gnark/logger"

	"github.com/g16prover/g16/internal/testvectors/internal/generate"
)

func main() {
	dir := flag.String("dir", "internal/testvectors/testdata", "the testdata directory")
	check := flag.Bool("check", false, "compare a fresh generation with -dir instead of writing; exit 1 on any difference")
	quiet := flag.Bool("q", false, "do not list the files")
	flag.Parse()
	logger.Disable() // gnark logs every compile, setup and proof

	if err := checkVersions(); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(2)
	}
	var log io.Writer = os.Stderr
	if *quiet {
		log = nil
	}
	files, err := generate.All(generate.Options{Log: log})
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(2)
	}
	if *check {
		if _, err := os.Stat(*dir); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(2)
		}
		diffs := generate.Compare(*dir, files)
		for _, d := range diffs {
			fmt.Fprintln(os.Stderr, "gen: -check:", d)
		}
		if len(diffs) > 0 {
			fmt.Fprintf(os.Stderr, "gen: -check: %s differs from a fresh generation (%d files); run go run ./internal/testvectors/gen\n", *dir, len(diffs))
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "gen: -check: %s matches a fresh generation (%d files)\n", *dir, len(files))
		return
	}
	// Write only into an existing tree (from the repository root, or with
	// -dir), never into a stray directory made under the wrong one.
	if _, err := os.Stat(filepath.Dir(filepath.Clean(*dir))); err != nil {
		fmt.Fprintf(os.Stderr, "gen: %v (run from the repository root, or pass -dir)\n", err)
		os.Exit(2)
	}
	if err := generate.Write(*dir, files); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(2)
	}
}

// checkVersions refuses to generate with gnark or gnark-crypto versions
// other than the ones the README names.
func checkVersions() error {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return fmt.Errorf("no build information: cannot check the gnark versions")
	}
	want := map[string]string{
		"github.com/consensys/gnark":        generate.GnarkVersion,
		"github.com/consensys/gnark-crypto": generate.GnarkCryptoVersion,
	}
	for _, m := range info.Deps {
		if v, ok := want[m.Path]; ok {
			if m.Replace != nil {
				return fmt.Errorf("%s is replaced by %s: the vectors record %s %s", m.Path, m.Replace.Path, m.Path, v)
			}
			if m.Version != v {
				return fmt.Errorf("built with %s %s: the vectors record %s", m.Path, m.Version, v)
			}
			delete(want, m.Path)
		}
	}
	for p := range want {
		return fmt.Errorf("%s is not among the build's dependencies", p)
	}
	return nil
}
