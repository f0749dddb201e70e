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

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/curve"
)

// Hooks for the tests of tables (table.go): the precomputation and the MSM
// over a table, run on the host.

// hostTableOn runs g16_host_precompute over points (bytes of affine points
// of group g) and returns the table, copies times as many points.
func hostTableOn(g group, points []byte, copies, w int) ([]byte, error) {
	n := int64(len(points)) / g.affineBytes()
	if n == 0 {
		return nil, fmt.Errorf("hostTable: empty")
	}
	table := backend.AsBytes(make([]uint64, int64(max(copies, 1))*int64(len(points))/8))
	err := errOf(C.g16_host_precompute(C.int(g.code()), unsafe.Pointer(&points[0]), unsafe.Pointer(&table[0]),
		C.int64_t(n), C.int(copies), C.int(w)))
	return table, err
}

// hostTableMSMOn runs the host MSM of group g over a table of copies copies
// (its stride a copy's points) for the first points, one a scalar, and
// returns its sums, their number, pairs (g16cuda.h's g16_msm) and their
// shift.
func hostTableMSMOn(g group, table []byte, copies, w int, scalars []byte, maxTask, flags int) ([]byte, int, int, int, error) {
	n := int64(len(scalars)) / curve.Must(g.c).FrBytes
	if n == 0 || len(table) == 0 {
		return nil, 0, 0, 0, fmt.Errorf("hostTableMSM: empty")
	}
	stride := int64(len(table)) / g.affineBytes() / int64(max(copies, 1))
	win := sumsBuffer(g)
	var nsums, pairs, shift C.int
	err := errOf(C.g16_host_msm_table(C.int(g.code()), unsafe.Pointer(&table[0]), C.int64_t(stride),
		C.int(copies), C.int(w), unsafe.Pointer(&scalars[0]), C.int64_t(n), C.int(maxTask), C.int(flags),
		unsafe.Pointer(&win[0]), &nsums, &pairs, &shift))
	return win, int(nsums), int(pairs), int(shift), err
}
