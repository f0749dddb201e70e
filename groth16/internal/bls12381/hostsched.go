package bls12381

import (
	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
)

// hostScheduler is a host-bound backend (the CPU backend) that chooses by
// the host's memory whether a proof's MSMs run side by side, as gnark's
// prover runs them, or one at a time, each on all the cores, and says so
// in words, for PhaseTimes.Plan.
type hostScheduler interface {
	HostSchedule(c ecc.ID, logN int, g1 []int, g2 int) (sideBySide bool, note string)
}

// hostMSMsSerial says whether a partition's MSMs run one at a time on the
// host-bound dev, and the note that says why (empty when dev does not
// choose: then they run one at a time).
func hostMSMsSerial(dev backend.Backend, key *deviceKey, logN int) (serial bool, note string) {
	s, ok := dev.(hostScheduler)
	if !ok {
		return true, ""
	}
	g1, g2 := msmLengths(key.pk)
	sideBySide, note := s.HostSchedule(proverCurve, logN, g1, g2)
	return !sideBySide, note
}
