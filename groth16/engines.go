package groth16

import (
	"strings"

	"github.com/consensys/gnark-crypto/ecc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/constraint"

	g16curve "github.com/g16prover/g16/curve"
	"github.com/g16prover/g16/groth16/internal/bls12377"
	"github.com/g16prover/g16/groth16/internal/bls12381"
	"github.com/g16prover/g16/groth16/internal/bn254"
	"github.com/g16prover/g16/groth16/internal/bw6761"
	"github.com/g16prover/g16/groth16/internal/core"
)

// engines are the curves g16 proves on: each its package's prover
// (internal/bls12381, the reference, and the copies internal/generator
// writes from it).
var engines = map[ecc.ID]core.Engine{
	ecc.BLS12_381: bls12381.Engine,
	ecc.BN254:     bn254.Engine,
	ecc.BLS12_377: bls12377.Engine,
	ecc.BW6_761:   bw6761.Engine,
}

// curves names the curves of engines, for errors: "bn254, bls12-381,
// bls12-377 and bw6-761".
func curves() string {
	var names []string
	for _, id := range g16curve.Supported() {
		if _, ok := engines[id]; ok {
			names = append(names, g16curve.Name(id))
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// engineFor checks that ccs and pk are present, over one curve, and a
// curve g16 proves on, and returns that curve's prover.
func engineFor(ccs constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey) (core.Engine, error) {
	if core.IsNil(ccs) {
		return core.Engine{}, inputErr("nil constraint system")
	}
	if core.IsNil(pk) {
		return core.Engine{}, inputErr("nil proving key")
	}
	var (
		id ecc.ID
		e  core.Engine
		ok bool
	)
	for id, e = range engines {
		if ok = e.Owns(ccs); ok {
			break
		}
	}
	if !ok {
		field := "an unknown field"
		if q := ccs.Field(); q != nil {
			field = core.FieldName(q)
		}
		return core.Engine{}, inputErr("constraint system is a %T over %s; g16 proves gnark's R1CS over %s", ccs, field, curves())
	}
	if kid := pk.CurveID(); kid != id {
		return core.Engine{}, inputErr("proving key is for %s, the constraint system is over %s", g16curve.Name(kid), g16curve.Name(id))
	}
	return e, nil
}

// keyEngine returns the prover of pk's curve, for NewDeviceKey.
func keyEngine(fn string, pk gnarkgroth16.ProvingKey) (core.Engine, error) {
	if core.IsNil(pk) {
		return core.Engine{}, inputErr("%s: nil proving key", fn)
	}
	e, ok := engines[pk.CurveID()]
	if !ok {
		return core.Engine{}, inputErr("%s: proving key is for %s; g16 proves over %s", fn, g16curve.Name(pk.CurveID()), curves())
	}
	return e, nil
}

// ReleasePrepared drops the prepared circuits that the package-level Prove
// and ProveBatch keep for their next calls (the solvers of the last four
// constraint systems of each curve they were given, and with them those
// systems), so that the memory can be collected. Provers made by NewProver
// keep their own.
func ReleasePrepared() {
	for _, e := range engines {
		e.ReleasePrepared()
	}
}
