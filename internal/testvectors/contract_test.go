package testvectors

import (
	"errors"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
)

// sloppy breaks the contract the way the issues found: MSMG1 writes
// through a nil result, TrimPool forgets the argument's name, and Alloc of
// an impossible size reports a plain error instead of ErrOutOfMemory.
type sloppy struct{ backend.Backend }

func (s sloppy) MSMG1(q backend.Queue, cv ecc.ID, out []byte, bases backend.Buffer, basesOff int64, scalars backend.Buffer, n int) error {
	out[0] = 0 // no check of out first
	return s.Backend.MSMG1(q, cv, out, bases, basesOff, scalars, n)
}

func (s sloppy) TrimPool(keep int64) error {
	if keep < 0 {
		return errors.New("cpu:0: TrimPool: bad size")
	}
	return s.Backend.TrimPool(keep)
}

func (s sloppy) Alloc(q backend.Queue, bytes int64) (backend.Buffer, error) {
	if bytes > 1<<40 {
		return nil, errors.New("cpu:0: Alloc: bytes: too large")
	}
	return s.Backend.Alloc(q, bytes)
}

// TestContractCatches: the contract's checks fail on a backend that
// panics, misnames an argument or loses the error's kind.
func TestContractCatches(t *testing.T) {
	b := sloppy{newCPU(t)}
	f, err := NewContractFixture(b, newCPU(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"MSMG1/out=nil":        "panicked",
		"TrimPool/keep=-1":     "does not name the argument",
		"Alloc/bytes=MaxInt64": "does not match",
	}
	seen := 0
	for _, c := range ContractCases() {
		w, ok := want[c.Method+"/"+c.Name]
		if !ok {
			continue
		}
		seen++
		err := f.Check(c)
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("%s/%s: want a failure saying %q, got %v", c.Method, c.Name, w, err)
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of the %d cases", seen, len(want))
	}
}
