package bls12381

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16/bls12-381"

	"github.com/g16prover/g16/backend"
)

// Tables of precomputed multiples of a resident key's bases: a backend
// that offers them (the cuda backend's PrecomputeBases) keeps c copies of
// an MSM's bases, copy q holding 2^(w·q)·P, and an MSM over those bases
// reduces ⌈nw/c⌉ bucket sets instead of nw. Each of the five MSMs gets its
// own count (none, or one of tableCopies): the plan takes the counts whose
// modelled MSM time (the backend's TableCost), summed over the five, is
// least, among those whose tables, and the MSMs' scratch over them beyond
// the plain scratch, fit in the room the plain plan leaves in the budget
// less one more partition's buffers (room for the scheduler to stage the
// next partition beside the running one); none when nothing fits.

// baseTables is a backend with tables of precomputed multiples of bases.
type baseTables interface {
	// PrecomputeBases builds the table of copies copies of the n bases of k
	// on curve c at byte offset off of bases (window w, 0: the backend's choice); the
	// MSMs over a range it covers read it, and it is freed with bases.
	PrecomputeBases(q backend.Queue, c ecc.ID, bases backend.Buffer, off int64, n int, k backend.Kernel, copies, w int) error
}

// tableScratcher gives the scratch of one MSM pass over such a table.
type tableScratcher interface {
	TableScratch(k backend.Kernel, c ecc.ID, n, copies int) int64
}

// tableCoster models an MSM's time on curve c over such a table (copies
// 1: none), in units common to the kernels.
type tableCoster interface {
	TableCost(k backend.Kernel, c ecc.ID, n, copies int) float64
}

// tableCopies are the copy counts an MSM's table may have.
var tableCopies = []int{12, 8, 6, 4, 3, 2}

// keyMSM is one MSM of a resident key: its kernel and points.
type keyMSM struct {
	k backend.Kernel
	n int
}

// The five MSMs of a resident key, in keyMSMs' order.
const (
	msmA = iota
	msmB1
	msmK
	msmZ
	msmB2
	nbKeyMSMs
)

// keyMSMNames names the MSMs in the plan line.
var keyMSMNames = [nbKeyMSMs]string{"A", "B1", "K", "Z", "B2"}

// keyMSMs lists the five MSMs of a resident key: A, B₁, K, Z in G1, B₂ in
// G2.
func keyMSMs(pk *gnarkgroth16.ProvingKey) []keyMSM {
	g1, g2 := msmLengths(pk)
	r := make([]keyMSM, 0, nbKeyMSMs)
	for _, n := range g1 {
		r = append(r, keyMSM{backend.KernelMSMG1, n})
	}
	return append(r, keyMSM{backend.KernelMSMG2, g2})
}

// tableBytes is the device memory of a table of copies copies of m's
// bases (none below 2 copies).
func (m keyMSM) tableBytes(copies int) int64 {
	if copies < 2 {
		return 0
	}
	size := g1AffineBytes
	if m.k == backend.KernelMSMG2 {
		size = g2AffineBytes
	}
	return int64(copies) * int64(m.n) * size
}

// tablesBytes is the device memory of copies copies of pk's five MSMs'
// bases.
func tablesBytes(pk *gnarkgroth16.ProvingKey, copies int) int64 {
	var b int64
	for _, m := range keyMSMs(pk) {
		b += m.tableBytes(copies)
	}
	return b
}

// tableChoice is one MSM's option: copies (1: no table), its table's
// bytes, its scratch and its modelled time.
type tableChoice struct {
	copies  int
	bytes   int64
	scratch int64
	cost    float64
}

// withTables returns pl, a resident plan whose key, one partition's
// buffers (set), scratch and commitment scratch fit budget, with the
// tables of least modelled time that fit the room left less another set;
// pl itself when dev has no tables or none fits. budget ≤ 0 (unlimited)
// takes the device's capacity, and no tables when it reports none.
func withTables(dev backend.Backend, pk *gnarkgroth16.ProvingKey, pl plan, set, commit, budget int64) plan {
	if pl.chunk > 0 {
		return pl
	}
	if _, ok := dev.(baseTables); !ok {
		return pl
	}
	ts, ok := dev.(tableScratcher)
	if !ok {
		return pl
	}
	tc, ok := dev.(tableCoster)
	if !ok {
		return pl
	}
	if budget <= 0 {
		budget = dev.Memory().Capacity
		if budget <= 0 {
			return pl
		}
	}
	room := budget - (pl.bytes + set + pl.scratch) - set
	if room <= 0 {
		return pl
	}
	msms := keyMSMs(pk)
	choices := make([][]tableChoice, len(msms))
	for i, m := range msms {
		if m.n == 0 {
			choices[i] = []tableChoice{{copies: 1}}
			continue
		}
		plain := dev.Scratch(m.k, proverCurve, m.n)
		choices[i] = []tableChoice{{copies: 1, scratch: plain, cost: tc.TableCost(m.k, proverCurve, m.n, 1)}}
		for _, c := range tableCopies {
			if int64(c)*int64(m.n) >= 1<<31 {
				continue
			}
			choices[i] = append(choices[i], tableChoice{c, m.tableBytes(c), max(plain, ts.TableScratch(m.k, proverCurve, m.n, c)), tc.TableCost(m.k, proverCurve, m.n, c)})
		}
	}
	// Every combination (at most 7⁵): the least total cost that fits, the
	// fewest bytes among equal costs.
	var best [nbKeyMSMs]tableChoice
	bestCost, bestBytes, found := 0.0, int64(0), false
	var pick [nbKeyMSMs]tableChoice
	var walk func(i int)
	walk = func(i int) {
		if i < len(msms) {
			for _, c := range choices[i] {
				pick[i] = c
				walk(i + 1)
			}
			return
		}
		var tb, sum, peak int64
		cost := 0.0
		for _, c := range pick {
			tb += c.bytes
			sum += c.scratch
			peak = max(peak, c.scratch)
			cost += c.cost
		}
		scratch := sum
		if pl.serial {
			scratch = peak
		}
		if tb == 0 || tb+scratch+commit-pl.scratch > room {
			return
		}
		if !found || cost < bestCost || (cost == bestCost && tb < bestBytes) {
			best, bestCost, bestBytes, found = pick, cost, tb, true
		}
	}
	walk(0)
	if !found {
		return pl
	}
	var sum, peak int64
	for i, c := range best {
		if c.copies > 1 {
			pl.copies[i] = c.copies
		}
		sum += c.scratch
		peak = max(peak, c.scratch)
	}
	pl.tableBytes = bestBytes
	pl.bytes += bestBytes
	if pl.serial {
		pl.scratch = peak + commit
	} else {
		pl.scratch = sum + commit
	}
	return pl
}

// buildTables builds the tables pl asks for over k's resident bases, on
// tdev (the device itself: dev in loadKey may wrap it), ordered on q, and
// waits for them.
func buildTables(tdev backend.Backend, q backend.Queue, k *deviceKey, pl plan) error {
	if pl.tableBytes == 0 {
		return nil
	}
	bt, ok := tdev.(baseTables)
	if !ok {
		return fmt.Errorf("groth16: proving key on %s: the plan has tables of precomputed bases and the device makes none", tdev)
	}
	for i, t := range [nbKeyMSMs]struct {
		buf backend.Buffer
		off int64
		n   int
		k   backend.Kernel
	}{
		msmA:  {k.g1, k.offA, k.nbA, backend.KernelMSMG1},
		msmB1: {k.g1, k.offB, k.nbB, backend.KernelMSMG1},
		msmK:  {k.g1, k.offK, k.nbK, backend.KernelMSMG1},
		msmZ:  {k.g1, k.offZ, k.nbZ, backend.KernelMSMG1},
		msmB2: {k.g2, 0, len(k.pk.G2.B), backend.KernelMSMG2},
	} {
		if t.n == 0 || pl.copies[i] < 2 {
			continue
		}
		if err := bt.PrecomputeBases(q, proverCurve, t.buf, t.off, t.n, t.k, pl.copies[i], 0); err != nil {
			return fmt.Errorf("groth16: proving key tables on %s: %w", tdev, err)
		}
	}
	if err := q.Wait(); err != nil {
		return fmt.Errorf("groth16: proving key tables on %s: %w", tdev, err)
	}
	return nil
}
