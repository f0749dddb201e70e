package bls12381

import (
	"fmt"
	"math"
	"runtime"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/backend/cpu"
)

// b2Choice is where one proof's B2 runs, and the words that say why, for
// PhaseTimes.Plan (empty: nothing to say, B2 on the device).
type b2Choice struct {
	host bool
	note string
}

// The cost model's rates, seconds a point. Device: the H200's G2 MSM
// (BENCHMARKS.md, "The split on the H200" and "MSM, CUDA backend beside
// gnark-crypto"): the split's classification and compaction 26.8 ms at
// 2^24 scalars; the ±1 points summed within the accumulation; Pippenger
// over random scalars 37.4 ms at 2^20, 120.4 ms at 2^22, 365.5 ms at 2^24.
// Host: gnark-crypto's G2 MultiExp on the same machine's 16 cores, 1659 ms
// at 2^20 and 5231 ms at 2^22 (per core: 25.3 and 20.0 µs a point); the
// ±1 points' batched affine additions 1/57 of a random point's cost at
// 2^15 (cpu.HostMSM, all ones against random scalars, one task).
const (
	devSplit  = 1.6e-9
	devOne    = 1e-9
	devFixed  = 1e-3 // launches and the host round trips of one MSM
	hostSplit = 3e-9 // a scalar classified and its index written, one core
	hostOne   = 0.7e-6
	b2Sample  = 1 << 16 // scalars read to estimate the shares of 0, ±1 and the rest
	// b2MinSaving is the least time the host must save against the
	// device for B2 to leave it: smaller gains are within one proof's
	// timing noise, and B2 then stays with the other MSMs.
	b2MinSaving = 5e-3
)

// devPippenger and hostPippenger are Pippenger's time a point over
// random scalars for an MSM of n points: on the device, and on one host
// core. Per point it falls as n grows (wider windows); the measured points
// are joined by a line in log₂ n, and held beyond them.
func devPippenger(n int) float64 {
	return clampLine(n, 35.6e-9, 21.8e-9, 20, 24)
}

func hostPippenger(n int) float64 {
	return clampLine(n, 25.3e-6, 20.0e-6, 20, 22)
}

// clampLine is the line through (lo, a) and (hi, b) at log₂ n, held at a
// below lo and at b above hi.
func clampLine(n int, a, b float64, lo, hi int) float64 {
	x := math.Log2(float64(max(n, 1)))
	switch {
	case x <= float64(lo):
		return a
	case x >= float64(hi):
		return b
	}
	return a + (b-a)*(x-float64(lo))/float64(hi-lo)
}

// b2Costs are the model's seconds for one B2 over n scalars of which ones
// are ±1 and rest are neither 0 nor ±1: on the device, and on tasks host
// cores.
func b2Costs(n, ones, rest, tasks int) (device, host float64) {
	device = devFixed + float64(n)*devSplit + float64(ones)*devOne + float64(rest)*devPippenger(rest)
	host = (float64(n)*hostSplit + float64(ones)*hostOne + float64(rest)*hostPippenger(rest)) / float64(max(tasks, 1))
	return device, host
}

// scalarShares estimates how many of s are ±1 and how many are neither 0
// nor ±1 from b2Sample of them, evenly spaced (all of them when fewer).
func scalarShares(s []fr.Element) (ones, rest int) {
	return sharesAt(len(s), func(j int) *fr.Element { return &s[j] })
}

// sharesAt is scalarShares over the n scalars at(0), …, at(n−1).
func sharesAt(n int, at func(int) *fr.Element) (ones, rest int) {
	if n == 0 {
		return 0, 0
	}
	var one, minusOne fr.Element
	one.SetOne()
	minusOne.Neg(&one)
	m := min(n, b2Sample)
	var o, r int
	for j := range m {
		v := at(j * n / m)
		switch {
		case v.IsZero():
		case *v == one || *v == minusOne:
			o++
		default:
			r++
		}
	}
	return o * n / m, r * n / m
}

// placeB2 chooses where the B2 of sol runs on dev with key. B2Host and
// B2Auto need the G2 bases on the host; B2Auto then compares the model's
// times, and keeps B2 on a host-bound device (its MSM is the host's
// anyway) without a word.
func (p *prover) placeB2(dev backend.Backend, key *deviceKey, sol *solution) b2Choice {
	// A key drawn on the device keeps vectors of its length on the host,
	// of points at infinity: no copy of the bases.
	nbB := len(p.pk.InfinityB) - int(p.pk.NbInfinityB) // B's wire values
	hostCopy := !key.plan.drawn && len(key.pk.G2.B) == key.nbB && nbB == key.nbB && key.nbB > 0
	switch {
	case p.b2 == B2Device:
		return b2Choice{note: "B2 on the device (WithB2Placement)"}
	case p.b2 == B2Host && !hostCopy:
		return b2Choice{note: "B2 on the device: the key's G2 bases have no host copy"}
	case p.b2 == B2Host:
		sol.wiresB(p) // filtered before the host B2 and the uploads run side by side
		return b2Choice{host: true, note: fmt.Sprintf("B2 on the host, %d tasks (WithB2Placement)", b2Tasks())}
	case !hostCopy || backend.IsHostBound(dev) || key.dev != nil && backend.IsHostBound(key.dev):
		return b2Choice{}
	}
	n := nbB
	idx := p.bIndex()
	ones, rest := sharesAt(n, func(j int) *fr.Element { return &sol.w[idx[j]] })
	tasks := b2Tasks()
	d, h := b2Costs(n, ones, rest, tasks)
	host := h < d-b2MinSaving
	where := "device"
	if host {
		where = "host"
		sol.wiresB(p) // filtered before the host B2 and the uploads run side by side
	}
	return b2Choice{host: host, note: fmt.Sprintf("B2 on the %s (cost model: %.0f%% of %d scalars neither 0 nor ±1, device ≈ %s, host ≈ %s on %d cores)",
		where, 100*float64(rest)/float64(n), n, seconds(d), seconds(h), tasks)}
}

// b2Tasks is how many goroutines a host B2 takes: every core the process
// may use.
func b2Tasks() int { return runtime.GOMAXPROCS(0) }

func seconds(s float64) string {
	return time.Duration(s * float64(time.Second)).Round(time.Millisecond / 10).String()
}

// hostB2 computes res.B2 on the host from the key's G2 bases and sol's
// wire values for B, timed as the MSM B2 phase.
func (w *deviceWork) hostB2(res *msmResults) error {
	s := time.Now()
	err := cpu.HostMSM(proverCurve, true, backend.ValueBytes(&res.B2), backend.AsBytes(w.key.pk.G2.B), backend.AsBytes(w.sol.wB.vals), b2Tasks())
	w.t.times.MSMB2 = time.Since(s)
	w.tl.add("MSM B2 (host)", s)
	if err != nil {
		return w.fail("MSM B2 on the host", err)
	}
	return nil
}

// startHostB2 starts hostB2 on a goroutine of its own when B2 runs on the
// host, and returns the function that waits for it (nil error at once
// otherwise).
func (w *deviceWork) startHostB2(res *msmResults) (wait func() error) {
	if !w.b2.host {
		return func() error { return nil }
	}
	done := make(chan error, 1)
	go func() { done <- w.hostB2(res) }()
	return func() error { return <-done }
}
