package bls12381_test

import (
	"context"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	cs "github.com/consensys/gnark/constraint/bls12-381"

	solver "github.com/g16prover/g16/solver/bls12381"
)

// mix is a hash of the seed, a worker and its chunk: the hooks below draw
// their delays from it, so that a run's schedule of delays follows from
// its logged seed.
func mix(seed uint64, w, c int) uint64 {
	z := seed ^ uint64(w)<<40 ^ uint64(c)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// adversarialHook delays workers at their readiness points: before a
// chunk, one worker in two yields, one in sixteen sleeps, and worker 0 (the
// caller) sleeps longer at its first chunks, so that the others run ahead
// as far as their waits let them.
func adversarialHook(seed uint64) func(w, c int) {
	return func(w, c int) {
		h := mix(seed, w, c)
		switch {
		case w == 0 && c < 3:
			time.Sleep(2 * time.Millisecond)
		case h%16 == 0:
			time.Sleep(time.Duration(h>>32%50) * time.Microsecond)
		case h%2 == 0:
			runtime.Gosched()
		}
	}
}

// TestAdversarialSchedule solves the test circuits on many small chunks
// (7 workers, every level split) with the workers delayed at random at
// their readiness points, and requires gnark's W, A, B and C; and, for a
// broken witness, gnark's error.
func TestAdversarialSchedule(t *testing.T) {
	seed := newSeed(t)
	defer solver.SetParallelism(7, 1)()
	defer solver.SetScheduleHook(adversarialHook(seed), false)()
	for k, c := range testCircuits() {
		if c.large {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			cc := compile(t, c)
			chunks, waits := cc.s.ScheduleStats(7)
			t.Logf("7 workers: %d chunks, %d waits", chunks, waits)
			w := assignment(t, c, rand.New(rand.NewPCG(seed, uint64(100+k))))
			opts := testHints(seed)
			want, err := gnarkSolve(t, cc.r1cs, w, opts...)
			if err != nil {
				t.Fatal(err)
			}
			reps := 3
			if cc.r1cs.GetNbConstraints() > 50000 {
				reps = 1 // sha2, sha3: thousands of waits in one solve already
			}
			for range reps {
				got, err := cc.s.Solve(context.Background(), w, opts...)
				if err != nil {
					t.Fatal(err)
				}
				sameSolution(t, got, want)
			}
		})
	}
}

// TestBrokenScheduleFails: the same solve with the waits dropped (workers
// read wires before the workers that solve them have) gives a wrong
// solution or an error, so the adversarial test above would see a missing
// wait. Not run under the race detector: the broken solve races by design.
func TestBrokenScheduleFails(t *testing.T) {
	if raceEnabled {
		t.Skip("the broken schedule is a data race by design")
	}
	seed := newSeed(t)
	c := testCircuits()[tcSHA256]
	cc := compile(t, c)
	if _, waits := cc.s.ScheduleStats(4); waits == 0 {
		t.Fatal("sha256's schedule on 4 workers has no waits")
	}
	w := assignment(t, c, rand.New(rand.NewPCG(seed, 200)))
	opts := testHints(seed)
	want, err := gnarkSolve(t, cc.r1cs, w, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer solver.SetParallelism(4, 1)()
	restore := solver.SetScheduleHook(adversarialHook(seed), true)
	got, err := cc.s.Solve(context.Background(), w, opts...)
	restore()
	if err == nil && equalSolution(got, want) {
		t.Fatal("the solve without waits gave gnark's solution: the adversarial test cannot see a missing wait")
	}
	t.Logf("without waits: error %v", err)
	// the same solver, waits restored, is right again.
	got, err = cc.s.Solve(context.Background(), w, opts...)
	if err != nil {
		t.Fatal(err)
	}
	sameSolution(t, got, want)
}

func equalSolution(a, b *cs.R1CSSolution) bool {
	eq := func(x, y fr.Vector) bool {
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if x[i] != y[i] {
				return false
			}
		}
		return true
	}
	return eq(a.W, b.W) && eq(a.A, b.A) && eq(a.B, b.B) && eq(a.C, b.C)
}
