//go:build cuda

package cuda

/*
#include "g16cuda.h"
*/
import "C"

import (
	"fmt"
	"sync"

	"github.com/g16prover/g16/backend"
)

// A sticky CUDA error poisons the device's context for the whole process:
// every Backend of that GPU is lost with it, not only the one whose call
// saw it. lostDevs records, per GPU ordinal, the error that lost it and how
// many times it was reset; New resets a lost GPU before opening it.
var (
	lostMu   sync.Mutex
	lostDevs = map[int]*lostState{}
)

type lostState struct {
	epoch uint64 // resets so far
	err   error  // the error that lost the device since the last reset; nil: healthy
}

func stateOf(ord int) *lostState {
	st := lostDevs[ord]
	if st == nil {
		st = &lostState{}
		lostDevs[ord] = st
	}
	return st
}

// markLost records that GPU ord is lost, by err (the first error wins).
func markLost(ord int, err error) {
	lostMu.Lock()
	defer lostMu.Unlock()
	if st := stateOf(ord); st.err == nil {
		st.err = err
	}
}

// currentEpoch is GPU ord's reset count.
func currentEpoch(ord int) uint64 {
	lostMu.Lock()
	defer lostMu.Unlock()
	return stateOf(ord).epoch
}

// lostErr returns an error matching backend.ErrDeviceLost when b's device
// is lost or was reset since b was opened; nil otherwise.
func (b *Backend) lostErr() error {
	lostMu.Lock()
	defer lostMu.Unlock()
	st := stateOf(b.ord)
	switch {
	case st.epoch != b.epoch:
		return fmt.Errorf("%w: the device was reset after it was lost", backend.ErrDeviceLost)
	case st.err != nil:
		return fmt.Errorf("lost since: %w", st.err)
	}
	return nil
}

// resetIfLost resets GPU ord when it is lost, and returns its reset count
// and whether it reset the device now.
func resetIfLost(ord int) (epoch uint64, reset bool, err error) {
	lostMu.Lock()
	defer lostMu.Unlock()
	st := stateOf(ord)
	if st.err == nil {
		return st.epoch, false, nil
	}
	if err := errOf(C.g16_reset(C.int(ord))); err != nil {
		return 0, false, fmt.Errorf("cuda:%d: resetting the lost device: %w", ord, err)
	}
	st.epoch++
	st.err = nil
	return st.epoch, true, nil
}
