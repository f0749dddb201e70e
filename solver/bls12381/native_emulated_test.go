package bls12381_test

import (
	"math/big"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	gsolver "github.com/consensys/gnark/constraint/solver"

	solver "github.com/g16prover/g16/solver/bls12381"
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
	// gnark's solver calls hints from several goroutines at once
	var mu sync.Mutex
	calls := 0
	compare := func(mod *big.Int, in, out []*big.Int) error {
		mu.Lock()
		calls++
		call := calls
		mu.Unlock()
		ours := make([]*big.Int, len(out))
		for i := range ours {
			ours[i] = new(big.Int)
		}
		errOurs := solver.RationalReconstructExtHint(mod, in, ours)
		errGnark := gnarkHint(mod, in, out)
		if (errOurs == nil) != (errGnark == nil) {
			t.Errorf("call %d: our error %v, gnark's %v", call, errOurs, errGnark)
		}
		for i := range out {
			if ours[i].Cmp(out[i]) != 0 {
				t.Errorf("call %d: output %d is %s, gnark's %s", call, i, ours[i], out[i])
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

// TestEmulatedHintsOnECDSA solves the ECDSA circuit with gnark's solver,
// its mulHint and polyMvHint replaced by ones that also compute them as
// our solver does, on the inputs the circuit passes, and requires the same
// outputs wherever ours computes them natively.
func TestEmulatedHintsOnECDSA(t *testing.T) {
	c := testCircuits()[tcECDSA]
	if testing.Short() {
		t.Skip("large circuit: skipped in -short mode")
	}
	cc := compile(t, c)
	seed := newSeed(t)
	opts := testHints(seed)
	// gnark's solver calls hints from several goroutines at once
	var mu sync.Mutex
	calls, native := map[string]int{}, map[string]int{}
	for _, name := range []string{solver.MulHintName, solver.PolyMvHintName} {
		var gnarkHint gsolver.Hint
		for _, h := range gsolver.GetRegisteredHints() {
			if gsolver.GetHintName(h) == name {
				gnarkHint = h
			}
		}
		if gnarkHint == nil {
			t.Fatalf("gnark registers no hint named %s", name)
		}
		opts = append(opts, gsolver.OverrideHint(gsolver.GetHintID(gnarkHint), func(mod *big.Int, in, out []*big.Int) error {
			mu.Lock()
			calls[name]++
			call := calls[name]
			mu.Unlock()
			err := gnarkHint(mod, in, out)
			got, ok := solver.EmulatedHintNative(name, in, len(out))
			if !ok {
				return err
			}
			mu.Lock()
			native[name]++
			mu.Unlock()
			if err != nil {
				t.Errorf("%s call %d: computed natively, gnark's fails: %v", name, call, err)
				return err
			}
			var want fr.Element
			for i := range out {
				want.SetBigInt(out[i])
				if !got[i].Equal(&want) {
					t.Errorf("%s call %d: output %d is %s, gnark's %s", name, call, i, got[i].String(), want.String())
				}
			}
			return nil
		}))
	}
	w := assignment(t, c, rand.New(rand.NewPCG(seed, 1)))
	if _, err := cc.r1cs.Solve(w, opts...); err != nil {
		t.Fatalf("gnark's solver: %v", err)
	}
	for _, name := range []string{solver.MulHintName, solver.PolyMvHintName} {
		t.Logf("%s: %d calls, %d computed natively, all the same", name, calls[name], native[name])
		if calls[name] == 0 || native[name] != calls[name] {
			t.Errorf("%s: %d of %d calls computed natively", name, native[name], calls[name])
		}
	}
}
