package groth16_test

import (
	"bytes"
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	groth16bls "github.com/consensys/gnark/backend/groth16/bls12-381"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/curve"
	"github.com/g16prover/g16/groth16"
	"github.com/g16prover/g16/pool"
)

// keyUploads counts, per device, the uploads of a proving key's Z bases
// (the one upload of (n−1)·96 bytes that only the key makes).
type keyUploads struct {
	zBytes int64
	n      atomic.Int32
}

func (k *keyUploads) hook(op cpu.Op, size int64) error {
	if op == cpu.OpUpload && size == k.zBytes {
		k.n.Add(1)
	}
	return nil
}

// TestProverKeyResident: a Prover on two devices proving three batches and
// two single proofs uploads its key at most once per device (once on each
// device it used), every proof matches Prove's bytes, and Close gives back
// every device byte and goroutine.
func TestProverKeyResident(t *testing.T) {
	f := fixtureNamed(t, "rangecheck-bsb22")
	pk := f.pk.(*groth16bls.ProvingKey)
	goroutines := runtime.NumGoroutine()
	counts := []*keyUploads{{zBytes: int64(len(pk.G1.Z)) * curve.Must(ecc.BLS12_381).G1AffineBytes}, {zBytes: int64(len(pk.G1.Z)) * curve.Must(ecc.BLS12_381).G1AffineBytes}}
	devs := []*cpu.Backend{cpuDevice(t, 0, 0, counts[0].hook), cpuDevice(t, 1, 0, counts[1].hook)}
	before := baseline(devs)
	pr, err := groth16.NewProver(f.ccs, f.pk, groth16.WithBackends(devs[0], devs[1]))
	if err != nil {
		t.Fatal(err)
	}
	const n = 4
	want := expected(t, f, n)
	ctx, cancel := context.WithTimeout(context.Background(), batchDeadline)
	defer cancel()
	for b := 0; b < 3; b++ {
		proofs, err := pr.ProveBatch(ctx, same(f, n), groth16.WithBatchRandomness(seedsFrom(batchSeed)))
		if err != nil {
			t.Fatalf("batch %d: %v", b, err)
		}
		checkProofs(t, proofs, want, nil)
	}
	for i := 0; i < 2; i++ {
		proof, err := pr.Prove(ctx, f.witness, groth16.WithRandomness(seeded(batchSeed+uint64(i))))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(proofBytes(t, proof), want[i]) {
			t.Fatalf("Prover.Prove %d differs from Prove", i)
		}
	}
	used := 0
	for i, c := range counts {
		switch got := c.n.Load(); got {
		case 0:
		case 1:
			used++
		default:
			t.Errorf("%s: the key was uploaded %d times", devs[i], got)
		}
	}
	if used == 0 {
		t.Fatal("no key upload seen on either device: the count is broken")
	}
	if err := pr.Close(); err != nil {
		t.Fatal(err)
	}
	checkReleased(t, devs, before)
	waitGoroutines(t, goroutines)
	if _, err := pr.Prove(ctx, f.witness); !errors.Is(err, backend.ErrClosed) {
		t.Fatalf("Prove after Close: want ErrClosed, got %v", err)
	}
	if _, err := pr.ProveBatch(ctx, same(f, 1)); !errors.Is(err, backend.ErrClosed) {
		t.Fatalf("ProveBatch after Close: want ErrClosed, got %v", err)
	}
	if err := pr.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

// TestProverOpenClose: NewProver and Close on devices it is given leave no
// device memory, cached or in use, and no goroutine behind, with and
// without a proof in between.
func TestProverOpenClose(t *testing.T) {
	f := fixtureNamed(t, "mulchain")
	goroutines := runtime.NumGoroutine()
	devs := []*cpu.Backend{cpuDevice(t, 0, 0, nil)}
	before := baseline(devs)
	for _, prove := range []bool{false, true} {
		pr, err := groth16.NewProver(f.ccs, f.pk, groth16.WithBackend(devs[0]))
		if err != nil {
			t.Fatal(err)
		}
		if prove {
			if _, err := pr.Prove(context.Background(), f.witness); err != nil {
				t.Fatal(err)
			}
		}
		if err := pr.Close(); err != nil {
			t.Fatal(err)
		}
		checkReleased(t, devs, before)
	}
	waitGoroutines(t, goroutines)
}

// TestProverConcurrent: Prove and ProveBatch called from several
// goroutines at once on one Prover give Prove's bytes.
func TestProverConcurrent(t *testing.T) {
	f := fixtureNamed(t, "manypublic")
	devs := []*cpu.Backend{cpuDevice(t, 0, 0, nil), cpuDevice(t, 1, 0, nil)}
	before := baseline(devs)
	pr, err := groth16.NewProver(f.ccs, f.pk, groth16.WithBackends(devs[0], devs[1]))
	if err != nil {
		t.Fatal(err)
	}
	const n = 3
	want := expected(t, f, n)
	ctx, cancel := context.WithTimeout(context.Background(), batchDeadline)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if g%2 == 0 {
				proofs, err := pr.ProveBatch(ctx, same(f, n), groth16.WithBatchRandomness(seedsFrom(batchSeed)))
				if err != nil {
					errs <- err
					return
				}
				checkProofs(t, proofs, want, nil)
				return
			}
			for i := 0; i < n; i++ {
				p, err := pr.Prove(ctx, f.witness, groth16.WithRandomness(seeded(batchSeed+uint64(i))))
				if err != nil {
					errs <- err
					return
				}
				if !bytes.Equal(proofBytes(t, p), want[i]) {
					errs <- errors.New("a concurrent Prove differs from Prove")
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if err := pr.Close(); err != nil {
		t.Fatal(err)
	}
	checkReleased(t, devs, before)
}

// TestOptionMisuse: every option given to a call it does not apply to
// fails that call with ErrInput and the option's name.
func TestOptionMisuse(t *testing.T) {
	f := fixtureNamed(t, "mulchain")
	dev := cpu.MustNew()
	k, err := groth16.NewDeviceKey(dev, f.pk)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	ctx := context.Background()
	opts := map[string]groth16.Option{
		"WithBackend":          groth16.WithBackend(dev),
		"WithBackends":         groth16.WithBackends(dev),
		"WithDeviceKey":        groth16.WithDeviceKey(k),
		"WithProverOptions":    groth16.WithProverOptions(),
		"WithLogger":           groth16.WithLogger(discardLogger()),
		"WithRandomness":       groth16.WithRandomness(seeded(1)),
		"WithPhaseTimes":       groth16.WithPhaseTimes(func(int, groth16.PhaseTimes) {}),
		"WithProofDone":        groth16.WithProofDone(func(int, gnarkgroth16.Proof) {}),
		"WithVerify":           groth16.WithVerify(f.vk),
		"WithBatchRandomness":  groth16.WithBatchRandomness(seedsFrom(1)),
		"WithWorkersPerDevice": groth16.WithWorkersPerDevice(1),
		"WithMemoryBudget":     groth16.WithMemoryBudget(1 << 40),
		"WithTrace":            groth16.WithTrace(pool.NewTrace()),
		"WithPoolOptions":      groth16.WithPoolOptions(pool.WithRetry(false)),
		"WithSolvers":          groth16.WithSolvers(1),
		"WithB2Placement":      groth16.WithB2Placement(groth16.B2Host),
	}
	for _, name := range exportedOptions(t) {
		if _, ok := opts[name]; !ok {
			t.Errorf("option %s has no misuse test: add it to this table", name)
		}
	}
	proverOnly := []string{"WithBackend", "WithBackends", "WithDeviceKey", "WithProverOptions", "WithLogger", "WithB2Placement"}
	batchOnly := []string{"WithBatchRandomness", "WithWorkersPerDevice", "WithMemoryBudget", "WithTrace", "WithPoolOptions", "WithSolvers"}
	callOnly := []string{"WithRandomness", "WithPhaseTimes", "WithProofDone", "WithVerify"}

	pr, err := groth16.NewProver(f.ccs, f.pk, groth16.WithBackend(dev))
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	calls := map[string]struct {
		run     func(groth16.Option) error
		refuses []string
	}{
		"NewProver": {func(o groth16.Option) error {
			p, err := groth16.NewProver(f.ccs, f.pk, o)
			if err == nil {
				p.Close()
			}
			return err
		}, append(append([]string{}, batchOnly...), callOnly...)},
		"Prover.Prove": {func(o groth16.Option) error {
			_, err := pr.Prove(ctx, f.witness, o)
			return err
		}, append(append([]string{}, proverOnly...), batchOnly...)},
		"Prover.ProveBatch": {func(o groth16.Option) error {
			_, err := pr.ProveBatch(ctx, same(f, 1), o)
			return err
		}, proverOnly},
		"Prove": {func(o groth16.Option) error {
			_, err := groth16.Prove(f.ccs, f.pk, f.witness, o)
			return err
		}, batchOnly},
		"ProveBatch": {func(o groth16.Option) error {
			_, err := groth16.ProveBatch(ctx, f.ccs, f.pk, same(f, 1), o)
			return err
		}, nil},
	}
	for call, c := range calls {
		refused := map[string]bool{}
		for _, name := range c.refuses {
			refused[name] = true
			err := c.run(opts[name])
			if !errors.Is(err, groth16.ErrInput) || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "does not apply") {
				t.Errorf("%s(%s): want ErrInput naming %s, got %v", call, name, name, err)
			}
		}
		for name, o := range opts {
			if refused[name] {
				continue
			}
			if err := c.run(o); err != nil {
				t.Errorf("%s(%s): %v", call, name, err)
			}
		}
	}
}

// exportedOptions lists the package's exported functions that return an
// Option, from its source.
func exportedOptions(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !fn.Name.IsExported() || fn.Type.Results == nil || len(fn.Type.Results.List) != 1 {
				continue
			}
			if id, ok := fn.Type.Results.List[0].Type.(*ast.Ident); ok && id.Name == "Option" {
				names = append(names, fn.Name.Name)
			}
		}
	}
	if len(names) < 10 {
		t.Fatalf("found only %d options: %v", len(names), names)
	}
	return names
}

// TestBadOptionArguments: each option's bad argument is an error naming
// the option.
func TestBadOptionArguments(t *testing.T) {
	f := fixtureNamed(t, "mulchain")
	dev := cpu.MustNew()
	closed, err := groth16.NewDeviceKey(dev, f.pk)
	if err != nil {
		t.Fatal(err)
	}
	closed.Close()
	other := fixtureNamed(t, "manypublic")
	for name, o := range map[string]groth16.Option{
		"WithBackend":          groth16.WithBackend(nil),
		"WithBackends":         groth16.WithBackends(dev, dev),
		"WithDeviceKey":        groth16.WithDeviceKey(closed),
		"WithLogger":           groth16.WithLogger(nil),
		"WithRandomness":       groth16.WithRandomness(nil),
		"WithPhaseTimes":       groth16.WithPhaseTimes(nil),
		"WithProofDone":        groth16.WithProofDone(nil),
		"WithVerify":           groth16.WithVerify(nil),
		"WithBatchRandomness":  groth16.WithBatchRandomness(func(int) io.Reader { return nil }),
		"WithWorkersPerDevice": groth16.WithWorkersPerDevice(0),
		"WithMemoryBudget":     groth16.WithMemoryBudget(1),
		"WithTrace":            groth16.WithTrace(nil),
		"WithPoolOptions":      groth16.WithPoolOptions(nil),
		"WithSolvers":          groth16.WithSolvers(0),
		"WithB2Placement":      groth16.WithB2Placement(groth16.B2Host + 1),
	} {
		_, err := groth16.ProveBatch(context.Background(), f.ccs, f.pk, same(f, 1), o, groth16.WithBackend(dev))
		if name == "WithBackend" || name == "WithBackends" || name == "WithDeviceKey" {
			_, err = groth16.ProveBatch(context.Background(), f.ccs, f.pk, same(f, 1), o)
		}
		if !errors.Is(err, groth16.ErrInput) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: want ErrInput naming it, got %v", name, err)
		}
	}
	// A device key from another proving key, and one on a device the
	// Prover does not use.
	k, err := groth16.NewDeviceKey(dev, other.pk)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	if _, err := groth16.ProveBatch(context.Background(), f.ccs, f.pk, same(f, 1), groth16.WithDeviceKey(k)); !errors.Is(err, groth16.ErrInput) {
		t.Errorf("device key of another proving key: want ErrInput, got %v", err)
	}
	if _, err := groth16.NewProver(other.ccs, other.pk, groth16.WithDeviceKey(k), groth16.WithBackend(cpu.MustNew())); !errors.Is(err, groth16.ErrInput) {
		t.Errorf("device key on another device: want ErrInput, got %v", err)
	}
}

// TestProveBatchDeviceKey: a batch given a DeviceKey uses it and uploads
// no key of its own.
func TestProveBatchDeviceKey(t *testing.T) {
	f := fixtureNamed(t, "mulchain")
	pk := f.pk.(*groth16bls.ProvingKey)
	c := &keyUploads{zBytes: int64(len(pk.G1.Z)) * curve.Must(ecc.BLS12_381).G1AffineBytes}
	dev := cpuDevice(t, 0, 0, c.hook)
	k, err := groth16.NewDeviceKey(dev, f.pk)
	if err != nil {
		t.Fatal(err)
	}
	if c.n.Load() != 1 {
		t.Fatalf("NewDeviceKey: %d key uploads seen, want 1", c.n.Load())
	}
	want := expected(t, f, 3)
	ctx, cancel := context.WithTimeout(context.Background(), batchDeadline)
	defer cancel()
	proofs, err := groth16.ProveBatch(ctx, f.ccs, f.pk, same(f, 3), groth16.WithDeviceKey(k), groth16.WithBatchRandomness(seedsFrom(batchSeed)))
	if err != nil {
		t.Fatal(err)
	}
	checkProofs(t, proofs, want, nil)
	if got := c.n.Load(); got != 1 {
		t.Fatalf("the batch uploaded the key again: %d uploads", got)
	}
	if got := dev.Memory().InUse; got != k.Bytes() {
		t.Fatalf("after the batch the device holds %d bytes, the key %d", got, k.Bytes())
	}
	if err := k.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestMemoryBudgetTooSmall: a budget that cannot hold one partition's
// buffers beside even the smallest stream window fails before solving,
// naming the option. (A budget below the key and one partition streams
// the key: TestStreamedBatchMatchesProve.)
func TestMemoryBudgetTooSmall(t *testing.T) {
	f := fixtureNamed(t, "mulchain")
	key, set := memoryOf(t, f)
	dev := cpu.MustNew()
	start := time.Now()
	_, err := groth16.ProveBatch(context.Background(), f.ccs, f.pk, same(f, 2), groth16.WithBackend(dev), groth16.WithMemoryBudget(set/2))
	if !errors.Is(err, groth16.ErrInput) || !strings.Contains(err.Error(), "WithMemoryBudget") {
		t.Fatalf("want ErrInput naming WithMemoryBudget, got %v", err)
	}
	t.Logf("refused in %v", time.Since(start))
	ctx, cancel := context.WithTimeout(context.Background(), batchDeadline)
	defer cancel()
	if _, err := groth16.ProveBatch(ctx, f.ccs, f.pk, same(f, 2), groth16.WithBackend(dev), groth16.WithMemoryBudget(key+set)); err != nil {
		t.Fatalf("a budget of the key and one partition: %v", err)
	}
}
