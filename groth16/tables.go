package groth16

import (
	"fmt"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16/bls12-381"

	"github.com/g16prover/g16/backend"
)

// Tables of precomputed multiples of a resident key's bases: a backend
// that offers them (the cuda backend's PrecomputeBases) keeps c copies of
// each of the five MSMs' bases, copy q holding 2^(w·q)·P, and its MSMs over
// those bases reduce ⌈nw/c⌉ bucket sets instead of nw. The plan takes the
// most copies of tableCopies whose tables, and the MSMs' scratch over them
// beyond the plain scratch, take at most half the room the plain plan
// leaves in the budget the pool uses (the other half stays free for other
// provers and keys on the device); none when no count fits.

// baseTables is a backend with tables of precomputed multiples of bases.
type baseTables interface {
	// PrecomputeBases builds the table of copies copies of the n bases of k
	// at byte offset off of bases (window w, 0: the backend's choice); the
	// MSMs over a range it covers read it, and it is freed with bases.
	PrecomputeBases(q backend.Queue, bases backend.Buffer, off int64, n int, k backend.Kernel, copies, w int) error
}

// tableScratcher gives the scratch of one MSM pass over such a table.
type tableScratcher interface {
	TableScratch(k backend.Kernel, n, copies int) int64
}

// tableCopies are the copy counts a plan tries, most first.
var tableCopies = []int{12, 8, 6, 4, 3, 2}

// keyMSM is one MSM of a resident key: its kernel and points.
type keyMSM struct {
	k backend.Kernel
	n int
}

// keyMSMs lists the five MSMs of a resident key.
func keyMSMs(pk *gnarkgroth16.ProvingKey) []keyMSM {
	g1, g2 := msmLengths(pk)
	r := make([]keyMSM, 0, 5)
	for _, n := range g1 {
		r = append(r, keyMSM{backend.KernelMSMG1, n})
	}
	return append(r, keyMSM{backend.KernelMSMG2, g2})
}

// tablesBytes is the device memory of copies copies of pk's five MSMs'
// bases.
func tablesBytes(pk *gnarkgroth16.ProvingKey, copies int) int64 {
	var b int64
	for _, m := range keyMSMs(pk) {
		size := backend.G1AffineBytes
		if m.k == backend.KernelMSMG2 {
			size = backend.G2AffineBytes
		}
		b += int64(copies) * int64(m.n) * size
	}
	return b
}

// withTables returns pl, a resident plan whose key, one partition's
// buffers (set), scratch and commitment scratch fit budget, with the most
// copies of tableCopies whose tables and growth of the scratch take at
// most half the room left; pl itself when dev has no tables or none fits.
// budget ≤ 0 (unlimited) takes the device's capacity, and no tables when
// it reports none.
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
	if budget <= 0 {
		budget = dev.Memory().Capacity
		if budget <= 0 {
			return pl
		}
	}
	room := (budget - (pl.bytes + set + pl.scratch)) / 2
	if room <= 0 {
		return pl
	}
	msms := keyMSMs(pk)
	longest := 0
	for _, m := range msms {
		longest = max(longest, m.n)
	}
	for _, c := range tableCopies {
		if int64(c)*int64(longest) >= 1<<31 {
			continue
		}
		var sum, peak int64
		for _, m := range msms {
			if m.n == 0 {
				continue
			}
			s := max(dev.Scratch(m.k, m.n), ts.TableScratch(m.k, m.n, c))
			sum += s
			peak = max(peak, s)
		}
		scratch := sum
		if pl.serial {
			scratch = peak
		}
		tb := tablesBytes(pk, c)
		if tb+scratch+commit-pl.scratch <= room {
			pl.copies, pl.tableBytes = c, tb
			pl.bytes += tb
			pl.scratch = scratch + commit
			return pl
		}
	}
	return pl
}

// buildTables builds the tables pl asks for over k's resident bases, on
// tdev (the device itself: dev in loadKey may wrap it), ordered on q, and
// waits for them.
func buildTables(tdev backend.Backend, q backend.Queue, k *deviceKey, pl plan) error {
	if pl.copies < 2 {
		return nil
	}
	bt, ok := tdev.(baseTables)
	if !ok {
		return fmt.Errorf("groth16: proving key on %s: the plan has tables of precomputed bases and the device makes none", tdev)
	}
	for _, t := range []struct {
		buf backend.Buffer
		off int64
		n   int
		k   backend.Kernel
	}{
		{k.g1, k.offA, k.nbA, backend.KernelMSMG1},
		{k.g1, k.offB, k.nbB, backend.KernelMSMG1},
		{k.g1, k.offK, k.nbK, backend.KernelMSMG1},
		{k.g1, k.offZ, k.nbZ, backend.KernelMSMG1},
		{k.g2, 0, len(k.pk.G2.B), backend.KernelMSMG2},
	} {
		if t.n == 0 {
			continue
		}
		if err := bt.PrecomputeBases(q, t.buf, t.off, t.n, t.k, pl.copies, 0); err != nil {
			return fmt.Errorf("groth16: proving key tables on %s: %w", tdev, err)
		}
	}
	if err := q.Wait(); err != nil {
		return fmt.Errorf("groth16: proving key tables on %s: %w", tdev, err)
	}
	return nil
}
