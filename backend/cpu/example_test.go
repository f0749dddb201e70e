package cpu_test

import (
	"fmt"
	"math/big"

	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
	"github.com/g16prover/g16/curve"
)

// An MSM on the CPU backend through the Backend contract: bases [i]G and
// scalars i, whose sum is the closed form [Σ i²]G.
func Example() {
	const n = 100
	dev := cpu.MustNew(cpu.WithCapacity(1 << 20)) // a modelled device of 1 MiB
	defer dev.Close()
	_, _, g, _ := bls12381.Generators()
	bases := make([]bls12381.G1Affine, n)
	scalars := make([]fr.Element, n)
	sumSquares := 0
	for i := range bases {
		bases[i].ScalarMultiplication(&g, bigInt(i+1))
		scalars[i].SetUint64(uint64(i + 1))
		sumSquares += (i + 1) * (i + 1)
	}
	q, err := dev.NewQueue()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer q.Close()
	bBuf, _ := dev.Alloc(q, n*curve.Must(ecc.BLS12_381).G1AffineBytes)
	sBuf, _ := dev.Alloc(q, n*curve.Must(ecc.BLS12_381).FrBytes)
	if err := dev.Upload(q, bBuf, 0, backend.AsBytes(bases)); err != nil {
		fmt.Println(err)
		return
	}
	if err := dev.Upload(q, sBuf, 0, backend.AsBytes(scalars)); err != nil {
		fmt.Println(err)
		return
	}
	var sum bls12381.G1Jac
	if err := dev.MSMG1(q, ecc.BLS12_381, backend.ValueBytes(&sum), bBuf, 0, sBuf, n); err != nil {
		fmt.Println(err)
		return
	}
	if err := q.Wait(); err != nil {
		fmt.Println(err)
		return
	}
	var want bls12381.G1Affine
	want.ScalarMultiplication(&g, bigInt(sumSquares))
	var got bls12381.G1Affine
	got.FromJacobian(&sum)
	fmt.Println("Σ i·[i]G = [Σ i²]G:", got.Equal(&want))
	fmt.Println("in use:", dev.Memory().InUse, "bytes")
	dev.Free(q, bBuf)
	dev.Free(q, sBuf)
	// Freed bytes stay cached by the modelled pool until TrimPool.
	fmt.Println("after Free, in use:", dev.Memory().InUse, "cached:", dev.Memory().Cached > 0)
	if err := dev.TrimPool(0); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("after TrimPool(0), cached:", dev.Memory().Cached)
	// Output:
	// Σ i·[i]G = [Σ i²]G: true
	// in use: 12800 bytes
	// after Free, in use: 0 cached: true
	// after TrimPool(0), cached: 0
}

func bigInt(v int) *big.Int { return big.NewInt(int64(v)) }
