package solver_test

import (
	"math/big"
	"math/rand/v2"
	"testing"

	gsolver "github.com/consensys/gnark/constraint/solver"

	"github.com/g16prover/g16/solver"
)

// TestRationalReconstructExtHintOnECDSA solves the ECDSA circuit with
// gnark's solver, its rationalReconstructExt hint replaced by one that
// calls gnark's hint function and ours on the inputs the circuit passes
// and requires the same outputs and errors.
func TestRationalReconstructExtHintOnECDSA(t *testing.T) {
	c := testCircuits()[tcECDSA]
	if testing.Short() {
		t.Skip("large circuit: skipped in -short mode")
	}
	var gnarkHint gsolver.Hint
	for _, h := range gsolver.GetRegisteredHints() {
		if gsolver.GetHintName(h) == solver.RationalReconstructExtName {
			gnarkHint = h
		}
	}
	if gnarkHint == nil {
		t.Fatalf("gnark registers no hint named %s", solver.RationalReconstructExtName)
	}
	cc := compile(t, c)
	seed := newSeed(t)
	calls := 0
	compare := func(mod *big.Int, in, out []*big.Int) error {
		calls++
		ours := make([]*big.Int, len(out))
		for i := range ours {
			ours[i] = new(big.Int)
		}
		errOurs := solver.RationalReconstructExtHint(mod, in, ours)
		errGnark := gnarkHint(mod, in, out)
		if (errOurs == nil) != (errGnark == nil) {
			t.Errorf("call %d: our error %v, gnark's %v", calls, errOurs, errGnark)
		}
		for i := range out {
			if ours[i].Cmp(out[i]) != 0 {
				t.Errorf("call %d: output %d is %s, gnark's %s", calls, i, ours[i], out[i])
			}
		}
		return errGnark
	}
	for i := 0; i < 2; i++ {
		w := assignment(t, c, rand.New(rand.NewPCG(seed, uint64(i))))
		opts := append(testHints(seed), gsolver.OverrideHint(gsolver.GetHintID(gnarkHint), compare))
		if _, err := cc.r1cs.Solve(w, opts...); err != nil {
			t.Fatalf("witness %d: gnark's solver: %v", i, err)
		}
	}
	if calls == 0 {
		t.Fatal("the ECDSA circuit did not call rationalReconstructExt")
	}
	t.Logf("%d calls, all the same", calls)
}
