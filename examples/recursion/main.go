// Command recursion proves a Groth16 proof inside a Groth16 proof with g16,
// on gnark's two-chain of curves: an inner proof over BLS12-377 that the
// prover knows a MiMC preimage, and an outer proof over BW6-761 that the
// inner proof verifies (gnark's std/recursion/groth16, whose pairing on
// BLS12-377 is native arithmetic in BW6-761's scalar field, BLS12-377's
// base field). Both proofs are made by g16 and by gnark's Prove, timed side
// by side; the outer proof is checked by gnark's Verify.
//
//	go run ./examples/recursion
//
// The outer circuit is gnark's verifier of any BLS12-377 proof of the
// inner circuit's shape: the inner verifying key is part of its secret
// witness, as in gnark's own example, so one outer setup serves every
// inner setup; the public input is the inner one, the hash H. (An
// aggregator binds the key too, by making it a constant of the circuit,
// stdgroth16.ValueOfVerifyingKeyFixed, or by a public hash of it.) The keys
// come from gnark's Setup, which on BW6-761 takes about a minute on two
// cores: the outer circuit has 21,525 constraints. The two circuits are in
// package circuit beside this file (g16 bench --circuit recursion proves
// the same outer circuit).
package main

import (
	"context"
	"crypto/rand"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bls12-377/fr"
	gnarkbackend "github.com/consensys/gnark/backend"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	stdgroth16 "github.com/consensys/gnark/std/recursion/groth16"

	"github.com/g16prover/g16/examples/recursion/circuit"
	"github.com/g16prover/g16/groth16"
)

var (
	innerCurve = ecc.BLS12_377
	outerCurve = ecc.BW6_761
)

func main() {
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: recursion\n\nProves a BLS12-377 Groth16 proof inside a BW6-761 one with g16 and with gnark, and prints the times.")
		flag.PrintDefaults()
	}
	flag.Parse()
	if _, err := run(os.Stdout, rand.Reader); err != nil {
		fmt.Fprintln(os.Stderr, "recursion:", err)
		os.Exit(1)
	}
}

// Result is what run measured, and the outer proof's inputs.
type Result struct {
	InnerConstraints, OuterConstraints int
	InnerG16, InnerGnark               time.Duration // best of innerRuns
	OuterG16, OuterGnark               time.Duration
	OuterSetup                         time.Duration
	OuterPhases                        groth16.PhaseTimes // g16's outer proof

	OuterCCS constraint.ConstraintSystem
	OuterPK  gnarkgroth16.ProvingKey
	OuterVK  gnarkgroth16.VerifyingKey
	OuterW   witness.Witness
}

// innerRuns is how many inner proofs each prover makes, the best timed (a
// proof of 300 constraints takes milliseconds: the first one's warm-up
// would dominate).
const innerRuns = 3

// run makes the inner and the outer proof, the preimage drawn from rnd,
// and writes what it did to out.
func run(out io.Writer, rnd io.Reader) (*Result, error) {
	var res Result
	// The inner circuit, its keys and a witness: H = MiMC(X) for a random X.
	innerCCS, err := frontend.Compile(innerCurve.ScalarField(), r1cs.NewBuilder, &circuit.Inner{})
	if err != nil {
		return nil, err
	}
	res.InnerConstraints = innerCCS.GetNbConstraints()
	innerPK, innerVK, err := gnarkgroth16.Setup(innerCCS)
	if err != nil {
		return nil, err
	}
	innerW, err := innerWitness(rnd)
	if err != nil {
		return nil, err
	}
	innerPub, err := innerW.Public()
	if err != nil {
		return nil, err
	}

	// The inner proof, by gnark and by g16. An inner proof to be verified
	// in a circuit hashes its commitments (if any) to the field as the
	// circuit does: gnark's native prover and verifier options say how.
	proverOpt := stdgroth16.GetNativeProverOptions(outerCurve.ScalarField(), innerCurve.ScalarField())
	verifierOpt := stdgroth16.GetNativeVerifierOptions(outerCurve.ScalarField(), innerCurve.ScalarField())
	var innerProof gnarkgroth16.Proof
	for i := range innerRuns {
		dg, err := timeGnark(innerCCS, innerPK, innerW, proverOpt)
		if err != nil {
			return nil, err
		}
		p, d, _, err := proveG16(innerCCS, innerPK, innerW, groth16.WithProverOptions(proverOpt))
		if err != nil {
			return nil, fmt.Errorf("inner proof: %w", err)
		}
		if i == 0 || dg < res.InnerGnark {
			res.InnerGnark = dg
		}
		if i == 0 || d < res.InnerG16 {
			res.InnerG16 = d
		}
		innerProof = p
	}
	if err := gnarkgroth16.Verify(innerProof, innerVK, innerPub, verifierOpt); err != nil {
		return nil, fmt.Errorf("gnark rejects g16's inner proof: %w", err)
	}
	fmt.Fprintf(out, "inner: BLS12-377, %d constraints: prove g16 %v, gnark %v (best of %d); verified by gnark\n",
		res.InnerConstraints, res.InnerG16.Round(time.Microsecond), res.InnerGnark.Round(time.Microsecond), innerRuns)

	// The outer circuit, verifying one inner proof: the inner key, proof
	// and public input are its witness.
	outer := &circuit.Outer{}
	if err := outer.Append(innerVK, innerProof, innerPub); err != nil {
		return nil, err
	}
	res.OuterCCS, err = frontend.Compile(outerCurve.ScalarField(), r1cs.NewBuilder, circuit.OuterShape(innerCCS, 1))
	if err != nil {
		return nil, fmt.Errorf("compiling the outer circuit: %w", err)
	}
	res.OuterConstraints = res.OuterCCS.GetNbConstraints()
	fmt.Fprintf(out, "outer: BW6-761, %d constraints (gnark's verifier of a BLS12-377 Groth16 proof)\n", res.OuterConstraints)
	start := time.Now()
	res.OuterPK, res.OuterVK, err = gnarkgroth16.Setup(res.OuterCCS)
	if err != nil {
		return nil, err
	}
	res.OuterSetup = time.Since(start)
	res.OuterW, err = frontend.NewWitness(outer, outerCurve.ScalarField())
	if err != nil {
		return nil, err
	}
	outerPub, err := res.OuterW.Public()
	if err != nil {
		return nil, err
	}
	res.OuterGnark, err = timeGnark(res.OuterCCS, res.OuterPK, res.OuterW)
	if err != nil {
		return nil, err
	}
	outerProof, d, pt, err := proveG16(res.OuterCCS, res.OuterPK, res.OuterW)
	if err != nil {
		return nil, fmt.Errorf("outer proof: %w", err)
	}
	res.OuterG16, res.OuterPhases = d, pt
	if err := gnarkgroth16.Verify(outerProof, res.OuterVK, outerPub); err != nil {
		return nil, fmt.Errorf("gnark rejects g16's outer proof: %w", err)
	}
	fmt.Fprintf(out, "outer: gnark setup %v; prove g16 %v, gnark %v; verified by gnark\n",
		res.OuterSetup.Round(time.Millisecond), res.OuterG16.Round(time.Millisecond), res.OuterGnark.Round(time.Millisecond))
	solver := "g16's solver"
	if pt.SolverFallback != "" {
		solver = "gnark's solver (" + pt.SolverFallback + ")"
	}
	fmt.Fprintf(out, "outer, g16's phases: solve %v (%s, commitments %v), H %v, MSMs %v\n",
		pt.Solve.Round(time.Millisecond), solver, pt.Commit.Round(time.Millisecond), pt.H.Round(time.Millisecond), pt.MSM.Round(time.Millisecond))
	return &res, nil
}

// innerWitness is the inner circuit's witness for a random X.
func innerWitness(rnd io.Reader) (witness.Witness, error) {
	x, err := rand.Int(rnd, fr.Modulus())
	if err != nil {
		return nil, err
	}
	var xe fr.Element
	xe.SetBigInt(x)
	a, err := circuit.InnerAssignment(xe)
	if err != nil {
		return nil, err
	}
	return frontend.NewWitness(a, innerCurve.ScalarField())
}

// proveG16 proves with g16 on the default devices (the GPUs of a cuda
// build that compute on the curve, else the CPU) and times Prove alone:
// NewProver prepares the circuit once for all of a program's proofs. It
// returns g16's phase times too.
func proveG16(ccs constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey, w witness.Witness, opts ...groth16.Option) (gnarkgroth16.Proof, time.Duration, groth16.PhaseTimes, error) {
	var pt groth16.PhaseTimes
	p, err := groth16.NewProver(ccs, pk, opts...)
	if err != nil {
		return nil, 0, pt, err
	}
	defer p.Close()
	start := time.Now()
	proof, err := p.Prove(context.Background(), w, groth16.WithPhaseTimes(func(_ int, t groth16.PhaseTimes) { pt = t }))
	return proof, time.Since(start), pt, err
}

// timeGnark times gnark's Prove.
func timeGnark(ccs constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey, w witness.Witness, opts ...gnarkbackend.ProverOption) (time.Duration, error) {
	start := time.Now()
	if _, err := gnarkgroth16.Prove(ccs, pk, w, opts...); err != nil {
		return 0, fmt.Errorf("gnark's prover: %w", err)
	}
	return time.Since(start), nil
}
