// Reference only: internal/generator does not copy this file.

package bls12381

import (
	"bytes"
	"context"
	"math/rand/v2"
	"sync"
	"testing"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"
	cs "github.com/consensys/gnark/constraint/bls12-381"

	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/internal/synth"
)

// TestPreparedReused: the package-level Prove and ProveBatch take the
// circuit's solver from the cache on their second call (the same solver,
// not a new one), and their proofs equal a fresh Prover's with the same
// randomness.
func TestPreparedReused(t *testing.T) {
	ReleasePrepared()
	defer ReleasePrepared()
	ccs, shape, pk := randomKeyed(t, synth.Mix, 1<<9)
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	w, err := synth.Witness(shape, seed)
	if err != nil {
		t.Fatal(err)
	}
	r := ccs.(*cs.R1CS)
	dev := cpu.MustNew()
	bytesOf := func(p gnarkgroth16.Proof) []byte {
		var b bytes.Buffer
		if _, err := p.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	fresh, err := NewProver(ccs, pk, onDevice(dev))
	if err != nil {
		t.Fatal(err)
	}
	want, err := fresh.Prove(context.Background(), w, call(withRandomness(seededReader(seed))))
	fresh.Close()
	if err != nil {
		t.Fatal(err)
	}
	var first *witnessSolver
	for round := 0; round < 3; round++ {
		var got gnarkgroth16.Proof
		if round < 2 {
			got, err = proveOnce(ccs, pk, w, onDevice(dev), call(withRandomness(seededReader(seed))))
		} else {
			var ps []gnarkgroth16.Proof
			ps, err = proveBatchOnce(ccs, pk, []witness.Witness{w}, onDevice(dev), call(withRandomness(seededReader(seed))))
			if err == nil {
				got = ps[0]
			}
		}
		if err != nil {
			t.Fatalf("call %d: %v", round, err)
		}
		if !bytes.Equal(bytesOf(got), bytesOf(want)) {
			t.Fatalf("call %d: the proof differs from a fresh Prover's", round)
		}
		ws := cachedFor(r)
		if ws == nil {
			t.Fatalf("call %d: nothing kept for the circuit", round)
		}
		if first == nil {
			first = ws
		} else if ws != first {
			t.Fatalf("call %d: prepared again", round)
		}
	}
}

// cachedFor returns the cached solver of r, or nil.
func cachedFor(r *cs.R1CS) *witnessSolver {
	prepared.mu.Lock()
	defer prepared.mu.Unlock()
	for _, e := range prepared.entries {
		if e.r1cs == r {
			return e.ws
		}
	}
	return nil
}

// TestPreparedCache: hits return the kept solver, the least recently used
// goes when a fifth system comes, a system whose shape changed is prepared
// again, ReleasePrepared empties the cache, and concurrent calls (under
// the race detector in CI) agree.
func TestPreparedCache(t *testing.T) {
	ReleasePrepared()
	defer ReleasePrepared()
	var systems []*cs.R1CS
	for k := 0; k < preparedSize+1; k++ {
		ccs, _, err := synth.Compile(synth.Chain, 64+16*k)
		if err != nil {
			t.Fatal(err)
		}
		systems = append(systems, ccs.(*cs.R1CS))
	}
	get := func(r *cs.R1CS) *witnessSolver {
		ws, err := preparedSolver(r)
		if err != nil {
			t.Fatal(err)
		}
		return ws
	}
	kept := make([]*witnessSolver, len(systems))
	for k := 0; k < preparedSize; k++ {
		kept[k] = get(systems[k])
	}
	if get(systems[0]) != kept[0] { // a hit; systems[0] is now the most recent
		t.Fatal("a second call prepared the system again")
	}
	kept[preparedSize] = get(systems[preparedSize]) // evicts systems[1]
	if cachedFor(systems[1]) != nil {
		t.Fatal("the least recently used system is still kept")
	}
	for _, k := range []int{0, 2, 3, preparedSize} {
		if cachedFor(systems[k]) != kept[k] {
			t.Fatalf("system %d: not kept", k)
		}
	}
	// a system decoded anew into the same value (here: its calldata grown)
	r := systems[0]
	saved := r.CallData
	r.CallData = append(r.CallData[:len(r.CallData):len(r.CallData)], 0)
	if get(r) == kept[0] {
		t.Fatal("a system whose shape changed got the old solver")
	}
	r.CallData = saved
	ReleasePrepared()
	if cachedFor(systems[2]) != nil {
		t.Fatal("ReleasePrepared kept a system")
	}

	var wg sync.WaitGroup
	got := make([]*witnessSolver, 16)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws, err := preparedSolver(systems[i%2])
			if err != nil {
				t.Error(err)
			}
			got[i] = ws
		}()
	}
	wg.Wait()
	for i, ws := range got {
		if ws == nil || ws.s.Fallback() != "" {
			t.Fatalf("call %d: no solver of g16's", i)
		}
	}
	for k := 0; k < 2; k++ {
		if again := get(systems[k]); again != cachedFor(systems[k]) || again == nil {
			t.Fatalf("system %d: concurrent calls left no entry", k)
		}
	}
}
