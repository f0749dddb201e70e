//go:build cuda

package cuda

import (
	"fmt"
	"math/big"

	"github.com/consensys/gnark-crypto/ecc"
	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
)

// An MSM on GPU 0: bases [i]G and scalars i, whose sum is the closed form
// [Σ i²]G.
func ExampleBackend_MSMG1() {
	const n = 1000
	b, err := New(0)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	_, _, g, _ := bls12381.Generators()
	bases := make([]bls12381.G1Affine, n)
	scalars := make([]fr.Element, n)
	var sumSquares big.Int
	for i := range bases {
		k := big.NewInt(int64(i + 1))
		bases[i].ScalarMultiplication(&g, k)
		scalars[i].SetBigInt(k)
		sumSquares.Add(&sumSquares, new(big.Int).Mul(k, k))
	}
	q, err := b.NewQueue()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer q.Close()
	bBuf, err := b.Alloc(q, n*curve.Must(ecc.BLS12_381).G1AffineBytes)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Free(q, bBuf)
	sBuf, err := b.Alloc(q, n*curve.Must(ecc.BLS12_381).FrBytes)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Free(q, sBuf)
	if err := b.Upload(q, bBuf, 0, backend.AsBytes(bases)); err != nil {
		fmt.Println(err)
		return
	}
	if err := b.Upload(q, sBuf, 0, backend.AsBytes(scalars)); err != nil {
		fmt.Println(err)
		return
	}
	var sum bls12381.G1Jac
	if err := b.MSMG1(q, ecc.BLS12_381, backend.ValueBytes(&sum), bBuf, 0, sBuf, n); err != nil {
		fmt.Println(err)
		return
	}
	if err := q.Wait(); err != nil {
		fmt.Println(err)
		return
	}
	var got, want bls12381.G1Affine
	got.FromJacobian(&sum)
	want.ScalarMultiplication(&g, &sumSquares)
	fmt.Println("Σ i·[i]G = [Σ i²]G:", got.Equal(&want))
	// Output: Σ i·[i]G = [Σ i²]G: true
}
