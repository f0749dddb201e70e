//go:build cuda

package cuda

/*
#include "g16cuda.h"
#include "msm_table.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fp"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// Hooks for the tests of tables (table.go): the precomputation and the MSM
// over a table, run on the host.

// hostTable runs g16_host_precompute over points ([]G1Affine or
// []G2Affine) and returns the table, copies·len(points) points.
func hostTable[T bls12381.G1Affine | bls12381.G2Affine](points []T, copies, w int) ([]T, error) {
	if len(points) == 0 {
		return nil, fmt.Errorf("hostTable: empty")
	}
	curve := 1
	if _, ok := any(points[0]).(bls12381.G2Affine); ok {
		curve = 2
	}
	table := make([]T, max(copies, 1)*len(points))
	err := errOf(C.g16_host_precompute(C.int(curve), unsafe.Pointer(&points[0]), unsafe.Pointer(&table[0]),
		C.int64_t(len(points)), C.int(copies), C.int(w)))
	return table, err
}

// hostTableMSM runs the host MSM over a table of copies copies (stride
// len(table)/copies) for the first len(scalars) points, and returns its
// sums, their number, pairs (g16cuda.h's g16_msm) and their shift.
func hostTableMSM[T bls12381.G1Affine | bls12381.G2Affine](table []T, copies, w int, scalars []fr.Element, maxTask, flags int) ([]fp.Element, int, int, int, error) {
	if len(scalars) == 0 || len(table) == 0 {
		return nil, 0, 0, 0, fmt.Errorf("hostTableMSM: empty")
	}
	curve := 1
	if _, ok := any(table[0]).(bls12381.G2Affine); ok {
		curve = 2
	}
	win := make([]fp.Element, outPoints*8)
	var nsums, pairs, shift C.int
	err := errOf(C.g16_host_msm_table(C.int(curve), unsafe.Pointer(&table[0]), C.int64_t(len(table)/max(copies, 1)),
		C.int(copies), C.int(w), unsafe.Pointer(&scalars[0]), C.int64_t(len(scalars)), C.int(maxTask), C.int(flags),
		unsafe.Pointer(&win[0]), &nsums, &pairs, &shift))
	return win, int(nsums), int(pairs), int(shift), err
}

// combineG1 is Σ_j 2^(shift·j)·W_j over nw G1 sums (pairs as windowSum's).
func combineG1(win []fp.Element, nw, pairs, shift int) bls12381.G1Jac {
	return combineSums[bls12381.G1Jac](win, nw, pairs, shift, &g1Infinity, 4, g1FromXYZZ)
}

// combineG2 is combineG1 over G2.
func combineG2(win []fp.Element, nw, pairs, shift int) bls12381.G2Jac {
	return combineSums[bls12381.G2Jac](win, nw, pairs, shift, &g2Infinity, 8, g2FromXYZZ)
}
