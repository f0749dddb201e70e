//go:build cuda

package cuda

import (
	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cuda/internal/hooks"
)

// init hands the host emulation to the per-curve packages' tests
// (internal/hooks).
func init() {
	hooks.HostMSM = func(c ecc.ID, g2 bool, bases, scalars []byte, window, maxTask, flags int) ([]byte, error) {
		if err := SupportsCurve(c); err != nil {
			return nil, err
		}
		return hostMSMOn(group{c, g2}, bases, scalars, window, maxTask, flags)
	}
	hooks.HostTable = func(c ecc.ID, g2 bool, points []byte, copies, w int) ([]byte, error) {
		if err := SupportsCurve(c); err != nil {
			return nil, err
		}
		return hostTableOn(group{c, g2}, points, copies, w)
	}
	hooks.HostTableMSM = func(c ecc.ID, g2 bool, table []byte, copies, w int, scalars []byte, maxTask, flags int) ([]byte, error) {
		if err := SupportsCurve(c); err != nil {
			return nil, err
		}
		g := group{c, g2}
		win, nw, pairs, shift, err := hostTableMSMOn(g, table, copies, w, scalars, maxTask, flags)
		if err != nil {
			return nil, err
		}
		return combine(g, win, nw, pairs, shift), nil
	}
	hooks.HostMSMPeak = func(c ecc.ID, g2 bool, table []byte, stride, copies, window int, scalars []byte, maxTask, flags int) (int64, error) {
		if err := SupportsCurve(c); err != nil {
			return 0, err
		}
		return hostMSMPeakOn(group{c, g2}, table, stride, copies, window, scalars, maxTask, flags)
	}
	hooks.ScratchModel = func(c ecc.ID, g2 bool, n, window, copies, maxTask int) int64 {
		return msmTableScratch(group{c, g2}, n, n, window, copies, maxTask)
	}
	hooks.ScratchCUB = scratchCUB
	hooks.HostNTT = func(data []byte, spec backend.NTTSpec, maxK, logBlock, threads int) error {
		return hostNTTOn(data, spec, nttTune{maxK: maxK, logBlock: logBlock, threads: threads})
	}
	hooks.HostQuotient = hostQuotientOn
	hooks.NoSplit, hooks.Fanin8, hooks.HostTail = msmNoSplit, msmFanin8, msmHostTail
}
