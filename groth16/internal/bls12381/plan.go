package bls12381

import (
	"fmt"
	"slices"
	"strings"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16/bls12-381"

	"github.com/g16prover/g16/backend"
)

// plan is how one device proves a prover's partitions, chosen from the
// device memory it may use (choosePlan):
//
//   - the key's bases resident and the five MSMs side by side (the
//     fastest; the MSMs' scratch is taken five times at once);
//   - the bases resident and the MSMs one at a time (one MSM's scratch);
//   - the bases streamed from the host in chunks through a window of two
//     chunk slots on the device (keys larger than the device): chunk k+1
//     uploads while chunk k accumulates.
type plan struct {
	serial bool  // the MSMs run one at a time
	chunk  int   // > 0: the bases stream in chunks of this many points
	bytes  int64 // device memory the key (or the stream window) holds
	// scratch is the scratch at its peak: the compute's MSMs'
	// (backend.Scratch) as they overlap, and beside them one commitment
	// MSM of a partition being solved.
	scratch int64
	// drawn: the resident bases were drawn on the device from a
	// BaseSource (NewDeviceKeyFrom); the host holds no copy.
	drawn bool
	// copies[m] > 1: the bases of MSM m (msmA … msmB2) have a table of
	// that many copies of precomputed multiples (tables.go); tableBytes is
	// their sum (in bytes).
	copies     [nbKeyMSMs]int
	tableBytes int64
}

func (pl plan) String() string {
	if pl.tableBytes > 0 {
		return fmt.Sprintf("%s; tables of %s (%d MiB)", pl.layout(), pl.tablesLine(), pl.tableBytes>>20)
	}
	return pl.layout()
}

// tablesLine says how many copies each MSM's table has: "12 copies for
// B2, 4 for A, B1, K and Z", the largest count first.
func (pl plan) tablesLine() string {
	counts := map[int][]string{}
	var order []int
	for i, c := range pl.copies {
		if c < 2 {
			c = 0
		}
		if counts[c] == nil {
			order = append(order, c)
		}
		counts[c] = append(counts[c], keyMSMNames[i])
	}
	slices.SortFunc(order, func(a, b int) int { return b - a })
	var parts []string
	for i, c := range order {
		names := counts[c]
		list := strings.Join(names, ", ")
		if len(names) > 1 {
			list = strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
		}
		switch {
		case c == 0:
			parts = append(parts, "none for "+list)
		case i == 0:
			parts = append(parts, fmt.Sprintf("%d copies for %s", c, list))
		default:
			parts = append(parts, fmt.Sprintf("%d for %s", c, list))
		}
	}
	return strings.Join(parts, ", ")
}

// maxCopies is the most copies of any MSM's table (0: no tables).
func (pl plan) maxCopies() int {
	m := 0
	for _, c := range pl.copies {
		m = max(m, c)
	}
	return m
}

// layout is String without the tables.
func (pl plan) layout() string {
	switch {
	case pl.drawn && pl.serial:
		return "key resident, MSMs one at a time; " + drawnNote
	case pl.drawn:
		return "key resident; " + drawnNote
	case pl.chunk > 0:
		return fmt.Sprintf("key streamed, chunks of %d points", pl.chunk)
	case pl.serial:
		return "key resident, MSMs one at a time"
	}
	return "key resident"
}

// minStreamChunk is the shortest chunk a streamed key uses.
const minStreamChunk = 1 << 8

// msmLengths lists the points of the five MSMs: A, B₁, K, Z in G1; B₂ in
// G2 (last).
func msmLengths(pk *gnarkgroth16.ProvingKey) (g1 []int, g2 int) {
	return []int{len(pk.G1.A), len(pk.G1.B), len(pk.G1.K), len(pk.G1.Z)}, len(pk.G2.B)
}

// setBytes is the device memory of one partition's buffers (layout.go),
// with the key resident on dev or streamed.
func setBytes(dev backend.Backend, pk *gnarkgroth16.ProvingKey, streamed bool) int64 {
	return newLayout(dev, pk, streamed).bytes()
}

// msmScratch is the MSMs' scratch on dev: summed, as when they run side by
// side, and the largest one, as when they run one at a time. chunk > 0
// bounds each MSM's length (a streamed key).
func msmScratch(dev backend.Backend, pk *gnarkgroth16.ProvingKey, chunk int) (sum, peak int64) {
	g1, g2 := msmLengths(pk)
	clip := func(n int) int {
		if chunk > 0 {
			return min(n, chunk)
		}
		return n
	}
	for _, n := range g1 {
		s := dev.Scratch(backend.KernelMSMG1, proverCurve, clip(n))
		sum += s
		peak = max(peak, s)
	}
	s := dev.Scratch(backend.KernelMSMG2, proverCurve, clip(g2))
	return sum + s, max(peak, s)
}

// commitScratch is the scratch of the largest commitment MSM (they run one
// at a time on a device, during solves).
func commitScratch(dev backend.Backend, pk *gnarkgroth16.ProvingKey) int64 {
	var s int64
	for _, ck := range pk.CommitmentKeys {
		s = max(s, dev.Scratch(backend.KernelMSMG1, proverCurve, len(ck.Basis)))
	}
	return s
}

// windowBytes is the device memory of a stream window of chunk-point
// slots: two slots, each with room for a chunk of G2 bases (G1 chunks use
// the same room) and its scalars.
func windowBytes(chunk int) int64 {
	return 2 * int64(chunk) * (g2AffineBytes + scalarBytes)
}

// choosePlan picks the fastest plan whose key, one partition's buffers and
// scratch fit in budget bytes of dev (0: unlimited). It fails, before any
// solving, when not even the smallest stream window fits.
func choosePlan(dev backend.Backend, pk *gnarkgroth16.ProvingKey, budget int64) (plan, error) {
	set := setBytes(dev, pk, false)
	key := residentBytes(dev, pk)
	commit := commitScratch(dev, pk)
	sum, peak := msmScratch(dev, pk, 0)
	if budget <= 0 || key+set+sum+commit <= budget {
		return withTables(dev, pk, plan{bytes: key, scratch: sum + commit}, set, commit, budget), nil
	}
	if key+set+peak+commit <= budget {
		return withTables(dev, pk, plan{serial: true, bytes: key, scratch: peak + commit}, set, commit, budget), nil
	}
	// A streamed key keeps its commitment bases resident.
	key = commitKeyBytes(pk)
	g1, g2 := msmLengths(pk)
	longest := g2
	for _, n := range g1 {
		longest = max(longest, n)
	}
	chunk := minStreamChunk
	for chunk < longest {
		chunk *= 2
	}
	set = setBytes(dev, pk, true)
	for ; chunk >= minStreamChunk; chunk /= 2 {
		_, peak := msmScratch(dev, pk, chunk)
		if w := key + windowBytes(chunk); w+set+peak+commit <= budget {
			return plan{serial: true, chunk: chunk, bytes: w, scratch: peak + commit}, nil
		}
	}
	_, peak = msmScratch(dev, pk, minStreamChunk)
	need := set + key + windowBytes(minStreamChunk) + peak + commit
	return plan{}, fmt.Errorf("%s: a proof needs at least %d bytes of device memory (its buffers %d, the smallest stream window, commitment bases and scratch %d), the budget is %d: %w",
		dev, need, set, need-set, budget, backend.ErrOutOfMemory)
}
