package cpu

import (
	"errors"
	"fmt"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
)

// TestDeviceLost: a hook error matching ErrDeviceLost loses the backend:
// that call and every later one (of any kind) fail with ErrDeviceLost; a
// new backend works.
func TestDeviceLost(t *testing.T) {
	var lose bool
	b := MustNew(WithHook(func(op Op, size int64) error {
		if lose && op == OpNTT {
			return fmt.Errorf("injected fault: %w", backend.ErrDeviceLost)
		}
		return nil
	}))
	defer b.Close()
	x, err := b.Alloc(nil, 4*curve.Must(ecc.BLS12_381).FrBytes)
	if err != nil {
		t.Fatal(err)
	}
	lose = true
	if err := b.NTT(nil, x, backend.NTTSpec{Curve: ecc.BLS12_381, LogN: 2}); !errors.Is(err, backend.ErrDeviceLost) {
		t.Fatalf("NTT: %v, want ErrDeviceLost", err)
	}
	lose = false
	checks := map[string]error{
		"Upload": b.Upload(nil, x, 0, make([]byte, 8)),
		"Free":   b.Free(nil, x),
		"Sync":   b.Sync(),
	}
	_, checks["Alloc"] = b.Alloc(nil, 8)
	_, checks["NewQueue"] = b.NewQueue()
	for op, err := range checks {
		if !errors.Is(err, backend.ErrDeviceLost) {
			t.Errorf("%s after the loss: %v, want ErrDeviceLost", op, err)
		}
	}
	if err := b.Close(); err != nil {
		t.Errorf("Close of a lost backend: %v", err)
	}
	fresh := MustNew()
	defer fresh.Close()
	y, err := fresh.Alloc(nil, 4*curve.Must(ecc.BLS12_381).FrBytes)
	if err != nil {
		t.Fatalf("a new backend: %v", err)
	}
	if err := fresh.NTT(nil, y, backend.NTTSpec{Curve: ecc.BLS12_381, LogN: 2}); err != nil {
		t.Fatalf("a new backend: %v", err)
	}
}
