package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/consensys/gnark"
	"github.com/consensys/gnark-crypto/ecc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"

	g16curve "github.com/g16prover/g16/curve"
	"github.com/g16prover/g16/groth16"
	"github.com/g16prover/g16/internal/gnarkio"
	"github.com/g16prover/g16/internal/synth"
)

// The files g16 setup writes and g16 prove and verify read: gnark's own
// formats.
const (
	fileR1CS    = "circuit.r1cs" // constraint system (WriteTo)
	filePK      = "pk.raw"       // proving key, raw points (WriteRawTo)
	fileVK      = "vk"           // verifying key (WriteTo)
	fileWitness = "witness"      // full witness, binary (WriteTo)
	filePublic  = "public"       // public witness, binary (WriteTo)
	fileProof   = "proof"        // proof (WriteTo)
)

func runSetup(args []string, stdout, stderr io.Writer) error {
	size := sizeFlag(1 << 12)
	fs := newFlags("setup", stderr)
	fs.Var(&size, "size", "the circuit's size: for a synthetic circuit, its constraints (a number or 2^k; the default below); for a circuit of gnark's std, what it counts ("+stdSizes()+"), 1 unless given")
	mix := fs.String("circuit", synth.Mix, "circuit: mix or chain (synthetic, BLS12-381 only), or from gnark's std: "+stdNames())
	curveName := fs.String("curve", "bls12-381", "curve of the circuit: "+g16curve.SupportedNames())
	out := fs.String("out", "g16-files", "directory to write the files to")
	seed := fs.Uint64("witness-seed", 1, "seed of the witness values")
	if err := parse(fs, args); err != nil {
		return err
	}
	id, err := g16curve.Parse(*curveName)
	if err != nil {
		return &failure{code: exitUsage, err: fmt.Errorf("--curve: %w", err)}
	}
	given := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { given[fl.Name] = true })
	ccs, w, err := setupCircuit(*mix, id, int(size), given["size"], *seed)
	if err != nil {
		return err
	}
	pub, err := w.Public()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "setup: running gnark's Groth16 setup for %d constraints over %s\n", ccs.GetNbConstraints(), g16curve.Name(id))
	pk, vk, err := gnarkgroth16.Setup(ccs)
	if err != nil {
		return fmt.Errorf("gnark setup: %w", err)
	}
	files := []struct {
		name  string
		write func(io.Writer) (int64, error)
	}{
		{fileR1CS, ccs.WriteTo},
		{filePK, pk.WriteRawTo},
		{fileVK, vk.WriteTo},
		{fileWitness, w.WriteTo},
		{filePublic, pub.WriteTo},
	}
	for _, f := range files {
		path := filepath.Join(*out, f.name)
		if err := writeAtomic(path, func(w io.Writer) error { _, err := f.write(w); return err }); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s\n", path)
	}
	return nil
}

func runProve(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("prove", stderr)
	dir := fs.String("dir", "", "read "+fileR1CS+", "+filePK+" and "+fileWitness+" (and "+fileVK+" if there) from this directory (as g16 setup writes them)")
	r1csPath := fs.String("r1cs", "", "R1CS file (gnark WriteTo)")
	pkPath := fs.String("pk", "", "proving key file (gnark WriteRawTo or WriteTo)")
	wPath := fs.String("witness", "", "full witness file (gnark binary)")
	vkPath := fs.String("vk", "", "verifying key: when given (or found by --dir), the proof is checked with gnark's verifier before it is written")
	verify := fs.Bool("verify", false, "require the check: fail when there is no verifying key")
	out := fs.String("out", "", "proof file to write (default: "+fileProof+" beside the witness)")
	backendName := fs.String("backend", "cpu", "backend: cpu or cuda")
	if err := parse(fs, args); err != nil {
		return err
	}
	log := logFor(fs)
	if *dir != "" {
		def := func(p *string, name string) {
			if *p == "" {
				*p = filepath.Join(*dir, name)
			}
		}
		def(r1csPath, fileR1CS)
		def(pkPath, filePK)
		def(wPath, fileWitness)
		if _, err := os.Stat(filepath.Join(*dir, fileVK)); err == nil {
			def(vkPath, fileVK)
		}
	}
	if *r1csPath == "" || *pkPath == "" || *wPath == "" {
		return errors.New("need --r1cs, --pk and --witness (or --dir)")
	}
	if *verify && *vkPath == "" {
		return errors.New("--verify needs a verifying key: --vk, or " + fileVK + " in --dir")
	}
	if *out == "" {
		*out = filepath.Join(filepath.Dir(*wPath), fileProof)
	}

	start := time.Now()
	ccs, err := readChecked(*r1csPath, "constraint system", gnarkio.ReadR1CS)
	if err != nil {
		return err
	}
	id, err := gnarkio.SystemCurve(ccs)
	if err != nil {
		return fmt.Errorf("constraint system %s: %w", *r1csPath, err)
	}
	pk, err := readKey(*pkPath)
	if err != nil {
		return err
	}
	if pk.CurveID() != id {
		return fmt.Errorf("proving key %s is over %s, constraint system %s over %s: they are not of one circuit",
			*pkPath, g16curve.Name(pk.CurveID()), *r1csPath, g16curve.Name(id))
	}
	if err := gnarkio.CheckKeyPoints(pk); err != nil {
		return fmt.Errorf("%s: %w", *pkPath, err)
	}
	w, err := readChecked(*wPath, "witness", func(r io.Reader) (witness.Witness, error) { return gnarkio.ReadWitness(r, id) })
	if err != nil {
		if errors.Is(err, gnarkio.ErrCurveMismatch) {
			return fmt.Errorf("%w (constraint system %s is over %s)", err, *r1csPath, g16curve.Name(id))
		}
		return err
	}
	opts := []groth16.Option{groth16.WithLogger(log)}
	if *vkPath != "" {
		vk := gnarkgroth16.NewVerifyingKey(id)
		if err := readFile(*vkPath, "verifying key", vk.ReadFrom); err != nil {
			if _, other, ok := decodeOver(*vkPath, id, gnarkgroth16.NewVerifyingKey); ok {
				return fmt.Errorf("verifying key %s is over %s, constraint system %s over %s: they are not of one circuit",
					*vkPath, g16curve.Name(other), *r1csPath, g16curve.Name(id))
			}
			return fmt.Errorf("%w (the constraint system is over %s)", err, g16curve.Name(id))
		}
		opts = append(opts, groth16.WithVerify(vk))
	}
	read := time.Since(start)
	log.Debug("prove: files read", "r1cs", *r1csPath, "pk", *pkPath, "witness", *wPath, "took", read)

	dev, err := openBackend(*backendName)
	if err != nil {
		return deviceFailure(err)
	}
	defer dev.close()
	var times groth16.PhaseTimes
	opts = append(opts, groth16.WithBackend(dev.dev), groth16.WithPhaseTimes(func(_ int, t groth16.PhaseTimes) { times = t }))
	start = time.Now()
	proof, err := groth16.Prove(ccs, pk, w, opts...)
	if err != nil {
		if errors.Is(err, groth16.ErrInput) || errors.Is(err, groth16.ErrVerify) {
			return err
		}
		return deviceFailure(err)
	}
	wall := time.Since(start)
	if err := writeAtomic(*out, func(wr io.Writer) error { _, err := proof.WriteTo(wr); return err }); err != nil {
		return err
	}
	checked := "not verified (no verifying key)"
	if *vkPath != "" {
		checked = "verified by gnark"
	}
	fmt.Fprintf(stdout, "wrote %s (%s, %s)\n", *out, dev.name, checked)
	fmt.Fprintf(stdout, "time: read %s, prove %s: solve %s, upload %s, H %s, MSMs %s, assemble %s",
		fmtDur(read), fmtDur(wall), fmtDur(times.Solve), fmtDur(times.Upload), fmtDur(times.H), fmtDur(times.MSM), fmtDur(times.Assemble))
	if *vkPath != "" {
		fmt.Fprintf(stdout, ", verify %s", fmtDur(times.Verify))
	}
	fmt.Fprintln(stdout)
	return nil
}

func runVerify(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("verify", stderr)
	dir := fs.String("dir", "", "read "+fileVK+", "+fileProof+" and "+filePublic+" from this directory")
	vkPath := fs.String("vk", "", "verifying key file")
	proofPath := fs.String("proof", "", "proof file")
	pubPath := fs.String("public", "", "public witness file (gnark binary)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *dir != "" {
		for _, d := range []struct {
			p    *string
			name string
		}{{vkPath, fileVK}, {proofPath, fileProof}, {pubPath, filePublic}} {
			if *d.p == "" {
				*d.p = filepath.Join(*dir, d.name)
			}
		}
	}
	if *vkPath == "" || *proofPath == "" || *pubPath == "" {
		return errors.New("need --vk, --proof and --public (or --dir)")
	}
	vk, id, err := readVerifyingKey(*vkPath)
	if err != nil {
		return err
	}
	proof := gnarkgroth16.NewProof(id)
	if err := readFile(*proofPath, "proof", proof.ReadFrom); err != nil {
		if _, other, ok := decodeOver(*proofPath, id, gnarkgroth16.NewProof); ok {
			return fmt.Errorf("proof %s is over %s, verifying key %s over %s: files of different curves",
				*proofPath, g16curve.Name(other), *vkPath, g16curve.Name(id))
		}
		return fmt.Errorf("%w (the verifying key is over %s)", err, g16curve.Name(id))
	}
	pub, err := readChecked(*pubPath, "public witness", func(r io.Reader) (witness.Witness, error) { return gnarkio.ReadWitness(r, id) })
	if err != nil {
		return err
	}
	if err := gnarkgroth16.Verify(proof, vk, pub); err != nil {
		return fmt.Errorf("proof rejected: %w", err)
	}
	logFor(fs).Debug("verify: gnark's verifier accepts the proof", "vk", *vkPath, "proof", *proofPath, "public", *pubPath)
	fmt.Fprintln(stdout, "proof verified")
	return nil
}

// readChecked reads a file with one of package gnarkio's validating
// readers, which fail on corrupt data instead of crashing.
func readChecked[T any](path, what string, read func(io.Reader) (T, error)) (T, error) {
	var zero T
	f, err := os.Open(path)
	if err != nil {
		return zero, fmt.Errorf("reading %s: %w", what, err)
	}
	defer f.Close()
	v, err := read(bufio.NewReaderSize(f, 1<<20))
	if err != nil {
		return zero, describe(path, what, err)
	}
	return v, nil
}

// readKey reads a proving key, raw or compressed, over any curve g16
// proves on, checking the file before gnark decodes it.
func readKey(path string) (gnarkgroth16.ProvingKey, error) {
	pk, err := gnarkio.ReadProvingKey(func() (io.ReadCloser, error) { return os.Open(path) }, true)
	if errors.Is(err, gnarkio.ErrCorrupt) {
		return nil, fmt.Errorf("reading proving key %s: corrupt or truncated file, or not a Groth16 proving key as gnark writes one (a PLONK key, say): %w", path, err)
	}
	if err != nil {
		return nil, describe(path, "proving key", err)
	}
	return pk, nil
}

// describe says what was wrong with a file a gnarkio reader rejected.
func describe(path, what string, err error) error {
	if errors.Is(err, gnarkio.ErrCorrupt) {
		return fmt.Errorf("reading %s %s: corrupt or truncated file: %w", what, path, err)
	}
	return fmt.Errorf("reading %s %s: %w", what, path, err)
}

// readFile decodes a gnark file, turning a decoder's panic on corrupt data
// into an error and a short read into one that says so.
func readFile(path, what string, read func(io.Reader) (int64, error)) (err error) {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("reading %s: %w", what, err)
	}
	defer f.Close()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("reading %s %s: corrupt file (decoder failed: %v)", what, path, r)
		}
	}()
	br := bufio.NewReaderSize(f, 1<<20)
	if _, err := read(br); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return fmt.Errorf("reading %s %s: truncated file (%w)", what, path, err)
		}
		return fmt.Errorf("reading %s %s: corrupt or wrong kind of file: %w", what, path, err)
	}
	if _, err := br.ReadByte(); err == nil {
		return fmt.Errorf("reading %s %s: trailing data after the %s: corrupt or wrong kind of file", what, path, what)
	}
	return nil
}

// decodeOver decodes the whole file at path as what newFor makes (a
// verifying key, a proof) over the first curve other than skip, among
// those gnark supports, that reads it, and returns it with that curve; ok
// is false when none does. gnark's decoders check that every point is on
// its curve and in its subgroup, so such a file decodes over one curve
// only: a file of another curve than the others given with it is named
// by its curve rather than called corrupt.
func decodeOver[T io.ReaderFrom](path string, skip ecc.ID, newFor func(ecc.ID) T) (v T, id ecc.ID, ok bool) {
	for _, id := range gnark.Curves() {
		if id == skip {
			continue
		}
		if v := newFor(id); readFile(path, "", v.ReadFrom) == nil {
			return v, id, true
		}
	}
	return v, ecc.UNKNOWN, false
}

// readVerifyingKey decodes a Groth16 verifying key over whichever curve
// gnark supports reads all of the file, BLS12-381 first (decodeOver), and
// returns it with its curve. Verifying is gnark's, so g16 verify takes
// proofs on every curve gnark proves on.
func readVerifyingKey(path string) (gnarkgroth16.VerifyingKey, ecc.ID, error) {
	vk := gnarkgroth16.NewVerifyingKey(ecc.BLS12_381)
	err := readFile(path, "verifying key", vk.ReadFrom)
	if err == nil {
		return vk, ecc.BLS12_381, nil
	}
	if vk, id, ok := decodeOver(path, ecc.BLS12_381, gnarkgroth16.NewVerifyingKey); ok {
		return vk, id, nil
	}
	return nil, ecc.UNKNOWN, fmt.Errorf("%w (nor a verifying key over any other curve gnark supports)", err)
}
