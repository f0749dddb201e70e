package bls12381

import (
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16/bls12-381"

	"github.com/g16prover/g16/backend"
)

// Device buffers of one partition, in the order of layout.sizes.
const (
	bufA = iota // a, then h
	bufB
	bufC
	bufW // W itself, when the device gathers W_A and W_B from it (gatherW)
	bufWA
	bufWB
	bufWK
	nbBuffers
)

// bufferNames names the device buffers in spans.
var bufferNames = [nbBuffers]string{bufA: "a", bufB: "b", bufC: "c", bufW: "W", bufWA: "W_A", bufWB: "W_B", bufWK: "W_K"}

// Buffer groups: the wire values the A, B and K MSMs read (W first: the
// others may be gathered from it), and the constraint evaluations H
// transforms.
var (
	wireBuffers = []int{bufW, bufWA, bufWB, bufWK}
	evalBuffers = []int{bufA, bufB, bufC}
	allBuffers  = append(append([]int{}, wireBuffers...), evalBuffers...)
)

// layout is where one partition's values go on a device: the byte size of
// each buffer, which of them the host fills, and which the device fills
// itself. It depends on the key and the device only, not on the witness:
// the plan counts it (setBytes) before anything is solved.
type layout struct {
	sizes [nbBuffers]int64

	// streamed: the key streams from the host, and the wire values with
	// it, chunk by chunk; their buffers hold one element and stay empty.
	streamed bool
	// sharedAB: A and B read every wire (no point at infinity in either),
	// so W_A is W_B and the B MSMs read bufWA; bufWB holds one element.
	sharedAB bool
	// gather is the device that builds K's wire values from W (in bufWA
	// when sharedAB, else in bufW) (gather.go); nil when the host filters
	// and uploads them.
	gather backend.Gatherer
	// index is the key's wire index lists on that device (keyIndex),
	// which gather reads; nil until loaded, and without gather.
	index *keyIndex
	// gatherW: A or B leaves some wires out (points at infinity), and the
	// device builds W_A and W_B from W, uploaded once into bufW, by their
	// index lists, as it builds W_K (gather).
	gatherW bool
}

// layOut lays out a partition of pk's circuit for key (nil: a resident key
// on a device that does not gather).
func layOut(pk *gnarkgroth16.ProvingKey, key *deviceKey) layout {
	streamed := key != nil && key.plan.chunk > 0
	var dev backend.Backend
	if key != nil {
		dev = key.dev
	}
	l := newLayout(dev, pk, streamed)
	if l.gather != nil {
		l.index = key.wireIndexes()
	}
	return l
}

// newLayout lays out a partition of pk's circuit on dev (the device
// itself; nil: one that does not gather), with the key resident or
// streamed.
func newLayout(dev backend.Backend, pk *gnarkgroth16.ProvingKey, streamed bool) layout {
	l := layout{
		streamed: streamed,
		sharedAB: pk.NbInfinityA == 0 && pk.NbInfinityB == 0,
	}
	if !streamed && dev != nil && gathersK(dev, pk) {
		l.gather = dev.(backend.Gatherer)
		l.gatherW = !l.sharedAB
	}
	n := int64(pk.Domain.Cardinality)
	s := scalarBytes
	wires := func(count int) int64 {
		if streamed {
			return s
		}
		return max(1, int64(count)) * s
	}
	l.sizes = [nbBuffers]int64{
		bufA:  n * s,
		bufB:  n * s,
		bufC:  n * s,
		bufWA: wires(len(pk.G1.A)),
		bufWB: wires(len(pk.G1.B)),
		bufWK: wires(len(pk.G1.K)),
		bufW:  s,
	}
	if l.sharedAB {
		l.sizes[bufWB] = s
	}
	if l.gatherW {
		l.sizes[bufW] = wires(len(pk.InfinityA))
	}
	return l
}

// gathered reports whether the device fills wire buffer i by gathering
// from W: W_K whenever it gathers, W_A and W_B with gatherW.
func (l layout) gathered(i int) bool {
	switch i {
	case bufWK:
		return l.gather != nil
	case bufWA, bufWB:
		return l.gatherW
	}
	return false
}

// wiresFrom is the buffer the device gathers wire values from: W in bufW
// (gatherW), or in bufWA when A reads every wire.
func (l layout) wiresFrom() int {
	if l.gatherW {
		return bufW
	}
	return bufWA
}

// bytes is the device memory of the partition's buffers.
func (l layout) bytes() int64 {
	var b int64
	for _, s := range l.sizes {
		b += s
	}
	return b
}

// wiresB is the buffer the B MSMs read: bufWB, or bufWA when the two wire
// vectors are one.
func (l layout) wiresB() int {
	if l.sharedAB {
		return bufWA
	}
	return bufWB
}

// uploads lists the buffers the host fills: all of them, or only a, b and
// c when the wire values stream with the key. bufW is filled only when
// the device gathers W_A and W_B from it.
func (l layout) uploads() []int {
	if l.streamed {
		return evalBuffers
	}
	if l.gatherW {
		return allBuffers
	}
	out := make([]int, 0, len(allBuffers)-1)
	for _, i := range allBuffers {
		if i != bufW {
			out = append(out, i)
		}
	}
	return out
}

// before lists the buffers to fill before buffer i: W before the wire
// vectors gathered from it.
func (l layout) before(i int) []int {
	if l.gatherW && (i == bufWA || i == bufWB || i == bufWK) {
		return []int{bufW, i}
	}
	return []int{i}
}
