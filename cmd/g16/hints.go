package main

// The hints of gnark's standard library, so that g16 prove solves circuits
// built with it (emulated arithmetic, bits, comparisons, range checks,
// lookups, hashes, curves). Each package registers its own hints when it is
// imported, as std.RegisterHints would; importing them one by one rather
// than std keeps std's second registration, which gnark logs line by line
// to standard output, out of every run.
import (
	_ "github.com/consensys/gnark/std/algebra/emulated/fields_bls12381"
	_ "github.com/consensys/gnark/std/algebra/emulated/fields_bn254"
	_ "github.com/consensys/gnark/std/algebra/emulated/fields_bw6761"
	_ "github.com/consensys/gnark/std/algebra/emulated/sw_bls12381"
	_ "github.com/consensys/gnark/std/algebra/emulated/sw_bw6761"
	_ "github.com/consensys/gnark/std/algebra/emulated/sw_emulated"
	_ "github.com/consensys/gnark/std/algebra/emulated/sw_emulated/maptocurve_increment"
	_ "github.com/consensys/gnark/std/algebra/native/fields_bls12377"
	_ "github.com/consensys/gnark/std/algebra/native/sw_bls12377"
	_ "github.com/consensys/gnark/std/algebra/native/sw_bls12377/maptocurve_increment"
	_ "github.com/consensys/gnark/std/algebra/native/sw_grumpkin/maptocurve_increment"
	_ "github.com/consensys/gnark/std/algebra/native/twistededwards"
	_ "github.com/consensys/gnark/std/conversion"
	_ "github.com/consensys/gnark/std/evmprecompiles"
	_ "github.com/consensys/gnark/std/hash/sha3"
	_ "github.com/consensys/gnark/std/math/bits"
	_ "github.com/consensys/gnark/std/math/bitslice"
	_ "github.com/consensys/gnark/std/math/cmp"
	_ "github.com/consensys/gnark/std/math/emulated"
	_ "github.com/consensys/gnark/std/math/uints"
	_ "github.com/consensys/gnark/std/rangecheck"
	_ "github.com/consensys/gnark/std/selector"
)
