package gnarkio

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"io"
	mrand "math/rand/v2"
	"strings"
	"testing"

	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"
	cs "github.com/consensys/gnark/constraint/bls12-381"

	"github.com/g16prover/g16/internal/stdcircuits"
	"github.com/g16prover/g16/internal/synth"
)

// testRand returns a generator from a fresh seed, logged.
func testRand(t testing.TB) *mrand.Rand {
	var b [8]byte
	_, _ = rand.Read(b[:])
	seed := binary.LittleEndian.Uint64(b[:])
	t.Logf("seed %d", seed)
	return mrand.New(mrand.NewPCG(seed, 7))
}

func encode(t testing.TB, w io.WriterTo) []byte {
	t.Helper()
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// synthR1CS compiles the synthetic circuit of about n constraints and
// returns its encoding and a witness.
func synthR1CS(t testing.TB, n int) ([]byte, witness.Witness) {
	t.Helper()
	ccs, s, err := synth.Compile(synth.Mix, n)
	if err != nil {
		t.Fatal(err)
	}
	w, err := synth.Witness(s, 1)
	if err != nil {
		t.Fatal(err)
	}
	return encode(t, ccs), w
}

// TestDecodeR1CS: the systems gnark writes decode to the same system (the
// same bytes once written again) and solve, for the synthetic circuit and
// gnark std circuits with hints, commitments and lookups.
func TestDecodeR1CS(t *testing.T) {
	type sys struct {
		name string
		ccs  constraint.ConstraintSystem
		w    witness.Witness
	}
	var all []sys
	ccs, s, err := synth.Compile(synth.Mix, 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	w, err := synth.Witness(s, 3)
	if err != nil {
		t.Fatal(err)
	}
	all = append(all, sys{"synth/2^10", ccs, w})
	kinds := []string{"rangecheck", "lookup"}
	if !testing.Short() {
		kinds = append(kinds, "sha256", "eddsa")
	}
	rng := testRand(t)
	for _, k := range kinds {
		size := 1
		if k == "rangecheck" || k == "lookup" {
			size = 40
		}
		c, err := stdcircuits.New(k, size)
		if err != nil {
			t.Fatal(err)
		}
		ccs, err := c.Compile()
		if err != nil {
			t.Fatal(err)
		}
		a, err := c.Assign(rng)
		if err != nil {
			t.Fatal(err)
		}
		w, err := frontendWitness(a)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, sys{c.Name, ccs, w})
	}
	for _, s := range all {
		t.Run(s.name, func(t *testing.T) {
			data := encode(t, s.ccs)
			got, err := DecodeR1CS(data)
			if err != nil {
				t.Fatalf("DecodeR1CS: %v", err)
			}
			if !bytes.Equal(encode(t, got), data) {
				t.Fatal("decoded system writes other bytes")
			}
			if _, err := got.Solve(s.w); err != nil {
				t.Fatalf("decoded system does not solve: %v", err)
			}
		})
	}
}

// TestCorruptR1CS: 100 random bytes written into a valid R1CS (at offset
// 1000, as in the issue, then anywhere) give an error or a system that
// passes every check; neither decoding nor solving crashes the process.
func TestCorruptR1CS(t *testing.T) {
	data, w := synthR1CS(t, 1<<12)
	rng := testRand(t)
	trials := 300
	if testing.Short() {
		trials = 60
	}
	var rejected, decoded int
	reasons := map[string]int{}
	for i := 0; i < trials; i++ {
		bad := bytes.Clone(data)
		off := 1000
		if i > 0 {
			off = rng.IntN(len(bad) - 100)
		}
		for k := 0; k < 100; k++ {
			bad[off+k] = byte(rng.Uint32())
		}
		r1cs, err := DecodeR1CS(bad)
		if err != nil {
			rejected++
			const prefix = "gnarkio: R1CS"
			if !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("error without the package prefix: %v", err)
			}
			msg := err.Error()
			if j := strings.IndexAny(msg[len(prefix)+2:], ":0123456789"); j > 0 {
				msg = msg[:len(prefix)+2+j]
			}
			reasons[msg]++
			continue
		}
		decoded++
		_, _ = r1cs.Solve(w) // an error is fine; a crash is not
	}
	t.Logf("%d trials: %d rejected, %d decoded (corruption inside values); reasons: %v", trials, rejected, decoded, reasons)
	if rejected == 0 {
		t.Error("no corruption was rejected")
	}
}

// TestR1CSHeaderLengths: lengths in the headers that overflow, or ask for
// more than the file holds, are errors.
func TestR1CSHeaderLengths(t *testing.T) {
	data, _ := synthR1CS(t, 1<<8)
	cases := map[string]func(b []byte){
		"total=MaxUint64":  func(b []byte) { binary.LittleEndian.PutUint64(b, ^uint64(0)) },
		"total=2^40":       func(b []byte) { binary.LittleEndian.PutUint64(b, 1<<40) },
		"levels=MaxUint64": func(b []byte) { binary.LittleEndian.PutUint64(b[32:], ^uint64(0)) },
		"levels+body wrap": func(b []byte) {
			binary.LittleEndian.PutUint64(b[32:], 1<<63)
			binary.LittleEndian.PutUint64(b[56:], 1<<63)
		},
		"level count 2^60": func(b []byte) { binary.LittleEndian.PutUint64(b[64:], 1<<60) },
		"level words 2^62": func(b []byte) { binary.LittleEndian.PutUint64(b[72:], 1<<62) },
		"truncated":        nil,
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			bad := bytes.Clone(data)
			if mutate == nil {
				bad = bad[:len(bad)/2]
			} else {
				mutate(bad)
			}
			if _, err := DecodeR1CS(bad); err == nil || !errors.Is(err, ErrCorrupt) {
				t.Errorf("DecodeR1CS: %v, want a corrupt-data error", err)
			}
		})
	}
}

// TestCheckR1CSCatches: a decoded system whose indices point outside its
// tables, or whose levels read a wire before it is solved, is rejected.
func TestCheckR1CSCatches(t *testing.T) {
	data, _ := synthR1CS(t, 1<<8)
	fresh := func() *cs.R1CS {
		r, err := DecodeR1CS(data)
		if err != nil {
			t.Fatal(err)
		}
		return r.(*cs.R1CS)
	}
	cases := map[string]func(r *cs.R1CS){
		"level names a missing instruction": func(r *cs.R1CS) { r.Levels[0][0] = uint32(len(r.Instructions)) },
		"instruction listed twice":          func(r *cs.R1CS) { r.Levels[1] = append(r.Levels[1], r.Levels[0][0]) },
		"missing blueprint":                 func(r *cs.R1CS) { r.Instructions[0].BlueprintID = 1 << 20 },
		"call data past the end":            func(r *cs.R1CS) { r.Instructions[0].StartCallData = uint64(len(r.CallData)) + 5 },
		"levels in the wrong order":         func(r *cs.R1CS) { r.Levels[0], r.Levels[len(r.Levels)-1] = r.Levels[len(r.Levels)-1], r.Levels[0] },
		"wire out of range":                 func(r *cs.R1CS) { r.NbInternalVariables = 1 },
		"coefficient out of range":          func(r *cs.R1CS) { r.Coefficients = r.Coefficients[:1] },
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			r := fresh()
			mutate(r)
			if err := CheckR1CS(r); err == nil {
				t.Error("CheckR1CS accepted it")
			} else {
				t.Log(err)
			}
		})
	}
	if err := CheckR1CS(fresh()); err != nil {
		t.Errorf("CheckR1CS of the unchanged system: %v", err)
	}
}
