package bls12381

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// solverLimit is how many partitions the host memory available now holds
// solved at once (at least 1), or 0 when the host does not say. A solved
// partition holds its wire values (all of them, then filtered for the A, B
// and K MSMs) and its constraint evaluations a, b, c; the solver's own
// buffers are counted as much again.
func (p *prover) solverLimit() int {
	avail := availableMemory()
	if avail <= 0 {
		return 0
	}
	wires := int64(p.r1cs.NbInternalVariables + p.r1cs.GetNbPublicVariables() + p.r1cs.GetNbSecretVariables())
	perPartition := 2 * (4*wires + 3*int64(p.n)) * scalarBytes
	return int(max(1, avail/max(perPartition, 1)))
}

// availableMemory is the host memory available for new work (Linux's
// MemAvailable), in bytes; 0 when unknown.
func availableMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemAvailable:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil || kb <= 0 {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
