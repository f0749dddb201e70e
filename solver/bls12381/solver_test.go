package bls12381_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/fnv"
	"math/big"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/witness"
	cs "github.com/consensys/gnark/constraint/bls12-381"
	gsolver "github.com/consensys/gnark/constraint/solver"
	"github.com/consensys/gnark/frontend"
	fcs "github.com/consensys/gnark/frontend/cs"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	"github.com/consensys/gnark/logger"
	"github.com/rs/zerolog"

	"github.com/g16prover/g16/internal/gnarkio"
	"github.com/g16prover/g16/internal/stdcircuits"
	"github.com/g16prover/g16/internal/testvectors"
	solver "github.com/g16prover/g16/solver/bls12381"
)

var fcsPlaceholder = fcs.Bsb22CommitmentComputePlaceholder

var randomizeID = func() gsolver.HintID {
	h := fnv.New32a()
	h.Write([]byte("github.com/consensys/gnark/internal/hints.Randomize"))
	return gsolver.HintID(h.Sum32())
}()

func init() {
	logger.Set(zerolog.Nop())
}

// testCircuit is a circuit of the tests: its shape, and a satisfying
// assignment drawn from a seeded stream.
type testCircuit struct {
	name   string
	shape  frontend.Circuit
	assign func(rng *rand.Rand) (frontend.Circuit, error)
	large  bool // skipped in -short mode
}

// ours wraps an assignment function of this package's circuits.
func ours(f func(rng *rand.Rand) frontend.Circuit) func(*rand.Rand) (frontend.Circuit, error) {
	return func(r *rand.Rand) (frontend.Circuit, error) { return f(r), nil }
}

// std returns the internal/stdcircuits circuit kind of the given size.
func std(name, kind string, size int, large bool) testCircuit {
	c, err := stdcircuits.NewOn(ecc.BLS12_381, kind, size)
	if err != nil {
		panic(err)
	}
	return testCircuit{name: name, shape: c.Shape, assign: c.Assign, large: large}
}

// The test circuits, by index.
const (
	tcMulChain = iota
	tcArith
	tcSHA256
	tcSHA3
	tcEdDSA
	tcRangeLookup
	tcUserHint
	tcECDSA
)

func testCircuits() []testCircuit {
	return []testCircuit{
		tcMulChain:    {name: "mulchain-1000", shape: &mulChain{N: 1000}, assign: ours(func(r *rand.Rand) frontend.Circuit { return mulChainAssignment(1000, r) })},
		tcArith:       {name: "arith-12", shape: &arith{X: make([]frontend.Variable, 12), Y: make([]frontend.Variable, 12)}, assign: ours(func(r *rand.Rand) frontend.Circuit { return arithAssignment(12, r) })},
		tcSHA256:      std("sha256-32B", "sha256", 32, false),
		tcSHA3:        std("sha3-32B", "sha3", 32, false),
		tcEdDSA:       std("eddsa-jubjub-mimc", "eddsa", 1, false),
		tcRangeLookup: {name: "rangecheck-lookup", shape: &rangeLookup{V: make([]frontend.Variable, 300), Table: make([]frontend.Variable, 64), Idx: make([]frontend.Variable, 300)}, assign: ours(func(r *rand.Rand) frontend.Circuit { return rangeLookupAssignment(300, 64, r) })},
		tcUserHint:    {name: "user-hint", shape: &withHint{X: make([]frontend.Variable, 50)}, assign: ours(func(r *rand.Rand) frontend.Circuit { return withHintAssignment(50, r) })},
		tcECDSA:       std("ecdsa-secp256k1", "ecdsa", 1, true),
	}
}

// assignment draws c's assignment and makes its full witness.
func assignment(tb testing.TB, c testCircuit, rng *rand.Rand) witness.Witness {
	tb.Helper()
	a, err := c.assign(rng)
	if err != nil {
		tb.Fatalf("%s: assignment: %v", c.name, err)
	}
	return fullWitness(tb, a)
}

var (
	compiled  sync.Map // name → *compiledCircuit
	compileMu sync.Mutex
)

type compiledCircuit struct {
	r1cs *cs.R1CS
	s    *solver.Solver
}

// compile compiles c once per test binary and prepares its solver.
func compile(tb testing.TB, c testCircuit) *compiledCircuit {
	tb.Helper()
	compileMu.Lock()
	defer compileMu.Unlock()
	if v, ok := compiled.Load(c.name); ok {
		return v.(*compiledCircuit)
	}
	start := time.Now()
	ccs, err := frontend.Compile(ecc.BLS12_381.ScalarField(), r1cs.NewBuilder, c.shape)
	if err != nil {
		tb.Fatalf("compiling %s: %v", c.name, err)
	}
	r := ccs.(*cs.R1CS)
	compiledAt := time.Now()
	s, err := solver.New(r)
	if err != nil {
		tb.Fatalf("solver.New(%s): %v", c.name, err)
	}
	tb.Logf("%s: %d constraints, %d levels; compiled in %v, solver prepared in %v",
		c.name, r.GetNbConstraints(), len(r.Levels), compiledAt.Sub(start).Round(time.Millisecond), time.Since(compiledAt).Round(time.Millisecond))
	cc := &compiledCircuit{r1cs: r, s: s}
	compiled.Store(c.name, cc)
	return cc
}

func fullWitness(tb testing.TB, a frontend.Circuit) witness.Witness {
	tb.Helper()
	w, err := frontend.NewWitness(a, ecc.BLS12_381.ScalarField())
	if err != nil {
		tb.Fatalf("witness: %v", err)
	}
	return w
}

func newSeed(t *testing.T) uint64 {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	return seed
}

// sameSolution requires our solution to equal gnark's element for element,
// with the capacities gnark gives A, B and C.
func sameSolution(t *testing.T, got, want *cs.R1CSSolution) {
	t.Helper()
	for _, v := range []struct {
		name      string
		got, want fr.Vector
	}{{"W", got.W, want.W}, {"A", got.A, want.A}, {"B", got.B, want.B}, {"C", got.C, want.C}} {
		if len(v.got) != len(v.want) {
			t.Fatalf("%s: %d elements, gnark %d", v.name, len(v.got), len(v.want))
		}
		if cap(v.got) != cap(v.want) {
			t.Errorf("%s: capacity %d, gnark %d", v.name, cap(v.got), cap(v.want))
		}
		for i := range v.got {
			if v.got[i] != v.want[i] {
				t.Fatalf("%s[%d] = %s, gnark %s", v.name, i, v.got[i].String(), v.want[i].String())
			}
		}
	}
}

func gnarkSolve(t *testing.T, r *cs.R1CS, w witness.Witness, opts ...gsolver.Option) (*cs.R1CSSolution, error) {
	t.Helper()
	sol, err := r.Solve(w, opts...)
	if err != nil {
		return nil, err
	}
	return sol.(*cs.R1CSSolution), nil
}

// TestSameAsGnark solves each circuit for a fresh random witness with
// gnark's solver and ours (inline, and cut into many small tasks) and
// requires the same W, A, B and C.
func TestSameAsGnark(t *testing.T) {
	for _, c := range testCircuits() {
		t.Run(c.name, func(t *testing.T) {
			if c.large && testing.Short() {
				t.Skip("large circuit: skipped in -short mode")
			}
			sameAsGnark(t, c)
		})
	}
}

// sameAsGnark solves c on a fresh assignment with gnark's solver and ours,
// with the default parallelism, then with 5 tasks cutting every level of
// more than one instruction, and requires the same W, A, B and C.
func sameAsGnark(t *testing.T, c testCircuit) {
	cc := compile(t, c)
	if reason := cc.s.Fallback(); reason != "" {
		t.Fatalf("falls back to gnark: %s", reason)
	}
	seed := newSeed(t)
	w := assignment(t, c, rand.New(rand.NewPCG(seed, 1)))
	opts := testHints(seed)
	want, err := gnarkSolve(t, cc.r1cs, w, opts...)
	if err != nil {
		t.Fatalf("gnark's solver: %v", err)
	}
	for _, tasks := range []int{0, 5} {
		restore := func() {}
		if tasks > 0 {
			restore = solver.SetParallelism(tasks, 1)
		}
		got, err := cc.s.Solve(context.Background(), w, opts...)
		restore()
		if err != nil {
			t.Fatalf("tasks=%d: %v", tasks, err)
		}
		sameSolution(t, got, want)
	}
}

// TestVectorCircuits solves the checked-in test vectors' circuits.
func TestVectorCircuits(t *testing.T) {
	vecs, err := testvectors.Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs.Proofs) == 0 {
		t.Fatal("no proof vectors")
	}
	// The vectors of this package's curve: a system's serialized header
	// names its field.
	solved := 0
	for _, v := range vecs.Proofs {
		id, _, err := gnarkio.SystemHeader(v.R1CS)
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		if id != ecc.BLS12_381 {
			continue
		}
		ccs := gnarkgroth16.NewCS(ecc.BLS12_381)
		if _, err := ccs.ReadFrom(bytes.NewReader(v.R1CS)); err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		solved++
		t.Run(v.Name, func(t *testing.T) {
			r := ccs.(*cs.R1CS)
			w, err := witness.New(ecc.BLS12_381.ScalarField())
			if err != nil {
				t.Fatal(err)
			}
			if err := w.UnmarshalBinary(v.Witness); err != nil {
				t.Fatal(err)
			}
			s, err := solver.New(r)
			if err != nil {
				t.Fatal(err)
			}
			if reason := s.Fallback(); reason != "" {
				t.Fatalf("falls back to gnark: %s", reason)
			}
			opts := testHints(binary.LittleEndian.Uint64(v.Seed[:]))
			want, err := gnarkSolve(t, r, w, opts...)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.Solve(context.Background(), w, opts...)
			if err != nil {
				t.Fatal(err)
			}
			sameSolution(t, got, want)
		})
	}
	if solved == 0 {
		t.Fatalf("none of the %d proof vectors is over %s", len(vecs.Proofs), ecc.BLS12_381)
	}
}

// TestUnsatisfied breaks one value of a satisfying witness and requires
// gnark's error: the same constraint, the same message.
func TestUnsatisfied(t *testing.T) {
	for _, c := range testCircuits() {
		if c.large {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			cc := compile(t, c)
			seed := newSeed(t)
			rng := rand.New(rand.NewPCG(seed, 2))
			w := assignment(t, c, rng)
			v := w.Vector().(fr.Vector)
			nbPub := len(cc.r1cs.Public) - 1
			// a public value (a claimed output) or, without one, any.
			i := rng.IntN(len(v))
			if nbPub > 0 {
				i = rng.IntN(nbPub)
			}
			v[i].SetUint64(rng.Uint64())
			opts := testHints(seed)
			// gnark's solver on one task: on several it reports whichever
			// failing instruction of a level a goroutine reaches first; on
			// one, the first in level order, as ours does on any number.
			_, want := gnarkSolve(t, cc.r1cs, w, append(opts, gsolver.WithNbTasks(1))...)
			if want == nil {
				t.Skip("the changed value still satisfies the circuit")
			}
			for _, tasks := range []int{0, 5} {
				restore := solver.SetParallelism(tasks, 1)
				_, got := cc.s.Solve(context.Background(), w, opts...)
				restore()
				if got == nil {
					t.Fatalf("no error; gnark: %v", want)
				}
				var gu, wu *cs.UnsatisfiedConstraintError
				if errors.As(want, &wu) != errors.As(got, &gu) {
					t.Fatalf("error %v; gnark: %v", got, want)
				}
				if wu != nil && gu.CID != wu.CID {
					t.Fatalf("constraint #%d; gnark #%d (%v)", gu.CID, wu.CID, want)
				}
				if got.Error() != want.Error() {
					t.Fatalf("error\n  %v\ngnark\n  %v", got, want)
				}
			}
		})
	}
}

// TestUnregisteredHint: a circuit whose hint is neither registered nor
// given fails with gnark's error naming it.
func TestUnregisteredHint(t *testing.T) {
	cc := compile(t, testCircuits()[tcUserHint])
	seed := newSeed(t)
	w := fullWitness(t, withHintAssignment(50, rand.New(rand.NewPCG(seed, 3))))
	_, want := gnarkSolve(t, cc.r1cs, w)
	_, got := cc.s.Solve(context.Background(), w)
	if got == nil || want == nil {
		t.Fatalf("error %v, gnark's %v: want both", got, want)
	}
	if got.Error() != want.Error() || !strings.Contains(got.Error(), "sqrtHint") {
		t.Fatalf("error %q, gnark's %q", got, want)
	}
}

// TestHintError: a hint that fails stops the solve with its error.
func TestHintError(t *testing.T) {
	cc := compile(t, testCircuits()[tcUserHint])
	w := fullWitness(t, withHintAssignment(50, rand.New(rand.NewPCG(newSeed(t), 4))))
	failing := gsolver.OverrideHint(gsolver.GetHintID(sqrtHint), func(*big.Int, []*big.Int, []*big.Int) error {
		return errors.New("hint says no")
	})
	_, want := gnarkSolve(t, cc.r1cs, w, failing)
	_, got := cc.s.Solve(context.Background(), w, failing)
	if got == nil || want == nil || got.Error() != want.Error() {
		t.Fatalf("error %v, gnark's %v", got, want)
	}
}

// TestWitnessSize: a witness of the wrong length gets gnark's error.
func TestWitnessSize(t *testing.T) {
	cc := compile(t, testCircuits()[tcMulChain])
	w := fullWitness(t, withHintAssignment(50, rand.New(rand.NewPCG(newSeed(t), 5))))
	_, want := gnarkSolve(t, cc.r1cs, w)
	_, got := cc.s.Solve(context.Background(), w)
	if got == nil || want == nil || got.Error() != want.Error() {
		t.Fatalf("error %v, gnark's %v", got, want)
	}
}

// TestCancel: a cancelled context stops the solve with its error.
func TestCancel(t *testing.T) {
	c := testCircuits()[tcSHA256]
	cc := compile(t, c)
	w := assignment(t, c, rand.New(rand.NewPCG(newSeed(t), 6)))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := cc.s.Solve(ctx, w, testHints(1)...); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	time.Sleep(time.Millisecond)
	if _, err := cc.s.Solve(ctx, w, testHints(1)...); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want context.DeadlineExceeded", err)
	}
}

// TestConcurrentSolves: one Solver, several witnesses solved at once.
func TestConcurrentSolves(t *testing.T) {
	c := testCircuits()[tcRangeLookup]
	cc := compile(t, c)
	seed := newSeed(t)
	const n = 4
	var wg sync.WaitGroup
	errs := make([]error, n)
	sols := make([]*cs.R1CSSolution, n)
	ws := make([]witness.Witness, n)
	for i := range ws {
		ws[i] = assignment(t, c, rand.New(rand.NewPCG(seed, uint64(10+i))))
	}
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sols[i], errs[i] = cc.s.Solve(context.Background(), ws[i], testHints(seed)...)
		}()
	}
	wg.Wait()
	for i := 0; i < n; i++ {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		want, err := gnarkSolve(t, cc.r1cs, ws[i], testHints(seed)...)
		if err != nil {
			t.Fatal(err)
		}
		sameSolution(t, sols[i], want)
	}
}

// TestOutOfRange: a value outside its std/rangecheck range fails as in
// gnark (the range check's table lookup finds no row).
func TestOutOfRange(t *testing.T) {
	c := testCircuits()[tcRangeLookup]
	cc := compile(t, c)
	seed := newSeed(t)
	a := rangeLookupAssignment(300, 64, rand.New(rand.NewPCG(seed, 30))).(*rangeLookup)
	a.V[7] = 1 << 20
	w := fullWitness(t, a)
	opts := testHints(seed)
	_, want := gnarkSolve(t, cc.r1cs, w, append(opts, gsolver.WithNbTasks(1))...)
	_, got := cc.s.Solve(context.Background(), w, opts...)
	if want == nil || got == nil || got.Error() != want.Error() {
		t.Fatalf("error %v, gnark's %v", got, want)
	}
	t.Logf("error: %v", got)
}

// printing is a circuit with api.Println lines.
type printing struct {
	X frontend.Variable `gnark:",secret"`
	Y frontend.Variable `gnark:",public"`
}

func (c *printing) Define(api frontend.API) error {
	sq := api.Mul(c.X, c.X)
	api.Println("x", c.X, "x²", sq)
	api.AssertIsEqual(api.Mul(sq, c.X), c.Y)
	// a wire of a later level than the check: "<unsolved>" when it fails.
	api.Println("done", c.Y, "x⁶", api.Mul(api.Mul(sq, sq), sq))
	return nil
}

// TestPrintln: a circuit's Println lines go to the options' logger as
// gnark's solver writes them, after a solve and after a failed one.
func TestPrintln(t *testing.T) {
	c := testCircuit{name: "println", shape: &printing{}}
	cc := compile(t, c)
	rng := rand.New(rand.NewPCG(newSeed(t), 50))
	x := randFr(rng)
	var y fr.Element
	y.Square(&x).Mul(&y, &x)
	for _, good := range []bool{true, false} {
		if !good {
			y.SetUint64(7)
		}
		w := fullWitness(t, &printing{X: x.String(), Y: y.String()})
		var gb, ob bytes.Buffer
		_, werr := gnarkSolve(t, cc.r1cs, w, gsolver.WithLogger(zerolog.New(&gb).Level(zerolog.DebugLevel)))
		_, gerr := cc.s.Solve(context.Background(), w, gsolver.WithLogger(zerolog.New(&ob).Level(zerolog.DebugLevel)))
		if (werr == nil) != good || (gerr == nil) != good {
			t.Fatalf("satisfied %v: error %v, gnark's %v", good, gerr, werr)
		}
		if gb.Len() == 0 || ob.String() != gb.String() {
			t.Fatalf("satisfied %v: log\\n%s\\ngnark's\\n%s", good, ob.String(), gb.String())
		}
	}
}

// TestHintPanic: a hint that panics panics out of Solve, as out of gnark's;
// the Solver then solves the next witness right (the solve's goroutines
// have stopped before its state is reused).
func TestHintPanic(t *testing.T) {
	cc := compile(t, testCircuits()[tcUserHint])
	seed := newSeed(t)
	w := fullWitness(t, withHintAssignment(50, rand.New(rand.NewPCG(seed, 7))))
	panicking := gsolver.OverrideHint(gsolver.GetHintID(sqrtHint), func(*big.Int, []*big.Int, []*big.Int) error {
		panic("hint panics")
	})
	restore := solver.SetParallelism(5, 1)
	defer restore()
	for i := 0; i < 3; i++ {
		func() {
			defer func() {
				if r := recover(); r != "hint panics" {
					t.Fatalf("recovered %v, want the hint's panic", r)
				}
			}()
			_, _ = cc.s.Solve(context.Background(), w, panicking)
		}()
	}
	want, err := gnarkSolve(t, cc.r1cs, w, gsolver.WithHints(sqrtHint))
	if err != nil {
		t.Fatal(err)
	}
	got, err := cc.s.Solve(context.Background(), w, gsolver.WithHints(sqrtHint))
	if err != nil {
		t.Fatal(err)
	}
	sameSolution(t, got, want)
}

// TestStateKeptThroughGC: a Solver keeps a finished solve's state (its
// workers' scratch) for the next solve through garbage collections, which
// a batch's proofs make often: a solve into the previous solution's
// vectors after two collections allocates almost nothing.
func TestStateKeptThroughGC(t *testing.T) {
	c := testCircuits()[tcSHA256]
	cc := compile(t, c)
	defer solver.SetTasks(2)()
	seed := newSeed(t)
	w := assignment(t, c, rand.New(rand.NewPCG(seed, 1)))
	sol, err := cc.s.Solve(context.Background(), w)
	if err != nil {
		t.Fatal(err)
	}
	var ms runtime.MemStats
	for i := range 3 {
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&ms)
		before := ms.TotalAlloc
		buf := solver.Vectors{W: sol.W, A: sol.A, B: sol.B, C: sol.C}
		if sol, err = cc.s.SolveInto(context.Background(), w, buf); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&ms)
		if got := ms.TotalAlloc - before; got > 64<<10 {
			t.Errorf("solve %d after two collections: %d bytes allocated, want at most 64 KiB", i+2, got)
		}
	}
}
