// Command g16 proves, verifies and benchmarks BLS12-381 Groth16 proofs of
// gnark circuits with g16's prover.
//
//	g16 bench     time our prover beside gnark's on a synthetic circuit
//	g16 setup     compile the synthetic circuit and write gnark files for it
//	g16 prove     prove from gnark files (R1CS, raw proving key, witness)
//	g16 verify    verify a proof with gnark's verifier
//	g16 selftest  check a backend against the built-in test vectors
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/consensys/gnark/logger"
)

var commands = []struct {
	name, summary string
	run           func(args []string, stdout, stderr io.Writer) error
}{
	{"bench", "time g16's prover beside gnark's on a synthetic circuit", runBench},
	{"setup", "compile the synthetic circuit; write its R1CS, keys and a witness", runSetup},
	{"prove", "prove from gnark files: R1CS, raw proving key, full witness", runProve},
	{"verify", "verify a proof with gnark's verifier", runVerify},
	{"selftest", "run the built-in test vectors on a backend", runSelftest},
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: g16 <command> [flags]")
	fmt.Fprintln(w)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'g16 <command> -h' for a command's flags.")
}

func main() {
	logger.Disable() // gnark's debug lines would bury the tables
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			err := c.run(args[1:], stdout, stderr)
			switch {
			case err == nil:
				return 0
			case errors.Is(err, flag.ErrHelp):
				return 0
			case errors.Is(err, errUsage):
				return 2
			}
			fmt.Fprintf(stderr, "g16 %s: %v\n", c.name, err)
			return 1
		}
	}
	fmt.Fprintf(stderr, "g16: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}

// errUsage marks an error already reported by the flag package.
var errUsage = errors.New("usage")

func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("g16 "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "%s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return errUsage
	}
	return nil
}
