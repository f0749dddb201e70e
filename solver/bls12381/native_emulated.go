package bls12381

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/consensys/gnark/std/math/emulated"

	"github.com/g16prover/g16/solver/internal/lattice"
)

// rationalReconstructExtName is the name gnark v0.16.1 registers its GLV
// scalar decomposition hint under (std/algebra/emulated/sw_emulated).
const rationalReconstructExtName = "github.com/consensys/gnark/std/algebra/emulated/sw_emulated.rationalReconstructExt"

// rationalReconstructExt computes gnark's rationalReconstructExt hint with
// the lattice reduction of package solver/internal/lattice, and hands a call whose
// reduction finds no result to gnark's hint function.
func (st *state) rationalReconstructExt(calldata []uint32, sc *scratch) error {
	err := st.callHintFunc(rationalReconstructExtHint, calldata, sc)
	if errors.Is(err, errNoReconstruction) {
		return st.callHint(st.slotOf(calldata), calldata, sc)
	}
	return err
}

var errNoReconstruction = errors.New("solver: lattice reduction found no row with a non-zero denominator")

// rationalReconstructExtHint is gnark's sw_emulated.rationalReconstructExt
// with the lattice reduction of solver/internal/lattice, which returns gnark-crypto's
// rows. Emulated inputs s and λ of the scalar field r; with k = −s mod r
// and (x, y, z, t) the reduction's row for k, the emulated outputs are
// |x|, |y|, |z|, |t| and the native outputs their signs (1 if negative):
//
//	u1 + λ·u2 + s·(v1 + λ·v2) ≡ 0 (mod r),  (u1, u2, v1, v2) = (x, y, z, t)
func rationalReconstructExtHint(mod *big.Int, inputs, outputs []*big.Int) error {
	return emulated.UnwrapHintContext(mod, inputs, outputs, func(hc emulated.HintContext) error {
		moduli := hc.EmulatedModuli()
		if len(moduli) != 1 {
			return fmt.Errorf("expecting one modulus, got %d", len(moduli))
		}
		_, nativeOutputs := hc.NativeInputsOutputs()
		if len(nativeOutputs) != 4 {
			return fmt.Errorf("expecting four outputs, got %d", len(nativeOutputs))
		}
		emuInputs, emuOutputs := hc.InputsOutputs(moduli[0])
		if len(emuInputs) != 2 {
			return fmt.Errorf("expecting two inputs, got %d", len(emuInputs))
		}
		if len(emuOutputs) != 4 {
			return fmt.Errorf("expecting four outputs, got %d", len(emuOutputs))
		}
		r := moduli[0]
		k := new(big.Int).Neg(emuInputs[0])
		k.Mod(k, r)
		var res [4]big.Int
		if !lattice.RationalReconstructExt(&res, r, emuInputs[1], k) {
			return errNoReconstruction
		}
		for i := range res {
			emuOutputs[i].Abs(&res[i])
			nativeOutputs[i].SetUint64(0)
			if res[i].Sign() < 0 {
				nativeOutputs[i].SetUint64(1)
			}
		}
		return nil
	})
}
