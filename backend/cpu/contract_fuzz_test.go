package cpu_test

import (
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/curve"
	"github.com/g16prover/g16/internal/testvectors"
)

// FuzzContract makes one call of a Backend method with fuzzed offsets,
// lengths and sizes on the CPU backend (the contract of
// internal/testvectors, ContractCases, holds the fixed cases): it must not panic, an error must
// name the method, and the buffers the call only reads must keep their
// contents. The seed corpus (testdata/fuzz/FuzzContract) holds the
// contract's edge values.
func FuzzContract(f *testing.F) {
	b := cpu.MustNew(cpu.WithTasks(1))
	other := cpu.MustNew(cpu.WithTasks(1))
	fix, err := testvectors.NewContractFixture(b, other, 1)
	if err != nil {
		f.Fatal(err)
	}
	scratch, err := b.Alloc(nil, 16*curve.Must(ecc.BLS12_381).FrBytes)
	if err != nil {
		f.Fatal(err)
	}
	methods := []string{"Alloc", "AllocDirect", "TrimPool", "Upload", "Download", "NTT", "QuotientStep", "MSMG1", "MSMG2"}
	f.Fuzz(func(t *testing.T, method uint8, off, n int64, logN int) {
		name := methods[int(method)%len(methods)]
		var q backend.Queue
		if method >= 128 {
			q = fix.Q
		}
		var err error
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("%s(off %d, n %d, logN %d) panicked: %v", name, off, n, logN, r)
				}
			}()
			switch name {
			case "Alloc", "AllocDirect":
				if n > 1<<24 {
					n = 1<<40 + n%(1<<20) // large, never allocated
				}
				var x backend.Buffer
				if name == "Alloc" {
					x, err = b.Alloc(q, n)
				} else {
					x, err = b.AllocDirect(n)
				}
				if err == nil {
					err = b.Free(q, x)
				}
			case "TrimPool":
				err = b.TrimPool(n)
			case "Upload":
				err = b.Upload(q, scratch, off, make([]byte, int(uint64(n)%1024)))
			case "Download":
				err = b.Download(q, make([]byte, int(uint64(n)%1024)), fix.Scalars, off)
			case "NTT":
				err = b.NTT(q, scratch, backend.NTTSpec{Curve: ecc.BLS12_381, LogN: logN, Order: backend.Order(uint8(off) % 3), Coset: off%2 == 1, CosetShift: scalarOf(fr.NewElement(uint64(n)))})
			case "QuotientStep":
				err = b.QuotientStep(q, ecc.BLS12_381, scratch, fix.Scalars, fix.Scalars, int(n), scalarOf(fr.One()))
			case "MSMG1":
				var r bls12381.G1Jac
				err = b.MSMG1(q, ecc.BLS12_381, backend.ValueBytes(&r), fix.G1, off, fix.Scalars, int(n))
			case "MSMG2":
				var r bls12381.G2Jac
				err = b.MSMG2(q, ecc.BLS12_381, backend.ValueBytes(&r), fix.G2, off, fix.Scalars, int(n))
			}
		}()
		if err != nil && !strings.Contains(err.Error(), name) {
			t.Fatalf("%s: error does not name the method: %v", name, err)
		}
		if err := fix.Unchanged(); err != nil {
			t.Fatalf("after %s(off %d, n %d, logN %d): %v", name, off, n, logN, err)
		}
	})
}

// scalarOf is x's bytes, as the Backend takes a scalar.
func scalarOf(x fr.Element) []byte { return backend.ValueBytes(&x) }
