// Command g16 proves, verifies and benchmarks Groth16 proofs of gnark
// circuits over BN254, BLS12-381, BLS12-377 and BW6-761 with g16's prover.
//
//	g16 bench     time our prover beside gnark's on a synthetic circuit or one of gnark's std
//	g16 setup     compile a synthetic circuit or one of gnark's std and write gnark files for it
//	g16 prove     prove from gnark files (R1CS, raw or compressed proving key, witness)
//	g16 verify    verify a proof with gnark's verifier
//	g16 selftest  check a backend against the built-in test vectors
//	g16 serve     run the proving service: API, embedded NATS, local workers
//	g16 worker    run workers of a service on this host's devices
//	g16 submit    register a circuit and submit jobs to a service
//	g16 status    report a service's jobs
//	g16 fetch     fetch a job's proof
//	g16 loadtest  time jobs through the service beside ProveBatch
//
// Every command takes -v, which logs what g16 (and gnark) do through
// log/slog to standard error. The hints of gnark's standard library are
// registered (those std.RegisterHints registers: emulated arithmetic, bits,
// range checks, lookups, ...; see hints.go); a circuit with hints of its
// own needs a program of its own that registers them and proves with
// package groth16 (see examples/customhint).
//
// g16 bench, prove and setup run Go's garbage collector with GOGC=10 unless
// the environment sets GOGC: one large proof's heap is mostly long-lived
// vectors that cost a collection little, and the default lets garbage grow
// to what is live (see gc.go). The service commands keep Go's default.
//
// Exit codes:
//
//	0  success
//	1  bad input or a rejected proof (a missing or corrupt file, a witness
//	   that does not satisfy the circuit, a proof gnark's verifier rejects)
//	2  usage (unknown command, bad flags)
//	3  a device or internal failure (no such backend, a GPU error, out of
//	   device memory)
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/consensys/gnark/logger"

	"github.com/g16prover/g16/internal/zslog"
)

var commands = []struct {
	name, summary string
	run           func(args []string, stdout, stderr io.Writer) error
}{
	{"bench", "time g16's prover beside gnark's on a synthetic circuit or one of gnark's std", runBench},
	{"setup", "compile a synthetic circuit or one of gnark's std; write its R1CS, keys and a witness", runSetup},
	{"prove", "prove from gnark files: R1CS, proving key (raw or compressed), full witness", runProve},
	{"verify", "verify a proof with gnark's verifier", runVerify},
	{"selftest", "run the built-in test vectors on a backend", runSelftest},
	{"serve", "run the proving service: HTTP API, embedded NATS, local workers", runServe},
	{"worker", "run workers of a service (g16 serve) on this host's devices", runWorker},
	{"submit", "register a circuit and submit jobs to a service", runSubmit},
	{"status", "report a service's jobs", runStatus},
	{"fetch", "fetch a job's proof from a service", runFetch},
	{"loadtest", "time jobs through the service beside ProveBatch on the same devices", runLoadtest},
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

// Exit codes; see the package documentation.
const (
	exitOK     = 0
	exitInput  = 1
	exitUsage  = 2
	exitDevice = 3
)

func main() {
	logger.Disable() // until a command's flags are parsed: logFor routes gnark's lines through its handler
	if len(os.Args) > 1 {
		tuneGC(os.Args[1])
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	for _, c := range commands {
		if c.name == args[0] {
			err := runCommand(c.run, args[1:], stdout, stderr)
			code := exitCode(err)
			if code != exitOK && !errors.Is(err, errUsage) {
				fmt.Fprintf(stderr, "g16 %s: %v\n", c.name, err)
			}
			return code
		}
	}
	fmt.Fprintf(stderr, "g16: unknown command %q\n\n", args[0])
	usage(stderr)
	return exitUsage
}

// runCommand runs a command, turning a panic into an internal failure.
func runCommand(f func([]string, io.Writer, io.Writer) error, args []string, stdout, stderr io.Writer) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = deviceFailure(fmt.Errorf("internal error: %v", r))
		}
	}()
	return f(args, stdout, stderr)
}

// exitCode maps a command's error to the exit code.
func exitCode(err error) int {
	var f *failure
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.Is(err, errUsage):
		return exitUsage
	case errors.As(err, &f):
		return f.code
	}
	return exitInput
}

// failure is an error with the exit code it gives.
type failure struct {
	code int
	err  error
}

func (f *failure) Error() string { return f.err.Error() }
func (f *failure) Unwrap() error { return f.err }

// deviceFailure marks err as a device or internal failure (exit 3),
// unless it already carries an exit code.
func deviceFailure(err error) error {
	var f *failure
	if err == nil || errors.As(err, &f) {
		return err
	}
	return &failure{code: exitDevice, err: err}
}

// errUsage marks an error already reported by the flag package.
var errUsage = errors.New("usage")

// newFlags makes a command's flag set, with the -v every command takes.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("g16 "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Bool("v", false, "log what g16 and gnark do (log/slog, to standard error)")
	return fs
}

// logFor is the logger of a command whose flags fs has parsed: warnings
// only, or with -v everything. gnark's logger goes through the same
// handler (zslog), so its lines come out in the same format at the same
// levels, without colour codes.
func logFor(fs *flag.FlagSet) *slog.Logger {
	level := slog.LevelWarn
	if f := fs.Lookup("v"); f != nil && f.Value.String() == "true" {
		level = slog.LevelDebug
	}
	h := slog.NewTextHandler(fs.Output(), &slog.HandlerOptions{Level: level})
	logger.Set(zslog.New(h))
	return slog.New(h)
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
