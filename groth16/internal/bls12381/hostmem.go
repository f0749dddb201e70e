package bls12381

import (
	"fmt"

	"github.com/g16prover/g16/backend"
	"github.com/g16prover/g16/internal/hostmem"
)

// hostNeed is the host memory one partition holds from the start of its
// solve until its proof is assembled, beyond the proving key and the
// R1CS, which the Prover holds: the wire values W, the constraint
// evaluations a, b, c (padded to the domain size n), and the copies of W
// filtered for the MSMs that skip wires (A and B where the key's bases are
// infinity, K without the public and committed wires). At 2^27
// constraints (PoRep's shape) that is about 21 GiB.
func (p *prover) hostNeed() int64 {
	nbWires := int64(len(p.pk.InfinityA))
	values := nbWires + 3*int64(p.n)
	if p.pk.NbInfinityA > 0 {
		values += nbWires - int64(p.pk.NbInfinityA)
	}
	if p.pk.NbInfinityB > 0 {
		values += nbWires - int64(p.pk.NbInfinityB)
	}
	if k := int64(len(p.pk.G1.K)); k != nbWires-int64(p.nbPublic) {
		values += k
	}
	return values * scalarBytes
}

// availableHostMemory is what the host can still give the process, in
// bytes (Linux: MemAvailable); 0 when unknown.
var availableHostMemory = hostmem.Available

// checkHostMemory fails, before anything is solved, a proof whose vectors
// cannot fit in the host's available memory at all, counting the held
// bytes of vectors the Prover keeps for its proofs (vectorList.held) as
// available: the proof fills them rather than allocating. It is a
// preflight for impossible proofs only: memory that is available now may
// be gone when the proof needs it.
func (p *prover) checkHostMemory(held int64) error {
	avail := availableHostMemory()
	if avail <= 0 {
		return nil
	}
	if need := p.hostNeed(); need > avail+held {
		return fmt.Errorf("groth16: a proof of this circuit (domain 2^%d) needs about %s of host memory for its wire and constraint vectors, beyond the key and the circuit; the host has %s available%s",
			p.logN, gibs(need), gibs(avail), heldNote(held))
	}
	return nil
}

// heldNote names the vectors a Prover holds for its proofs, if any.
func heldNote(held int64) string {
	if held <= 0 {
		return ""
	}
	return fmt.Sprintf(" and the Prover holds %s of vectors for its proofs", gibs(held))
}

// hostPlan is how many partitions of a batch hold their host vectors at
// once (pool.WithHostSlots): the host memory available when the batch
// starts, plus the vectors the Prover holds for its proofs (which the
// batch fills rather than allocates: a Prover that kept them plans as one
// that had not taken them), less what its devices that compute on the
// host's memory (backend.HostBound) will take for it, over one
// partition's hostNeed; at least 1.
type hostPlan struct {
	slots   int   // 0: the host does not say how much memory it has
	avail   int64 // available when the batch started
	held    int64 // the Prover's vectors, filled again (vectorList.held)
	reserve int64 // what host-bound devices will take (hostBoundNeed)
	need    int64 // one partition's vectors
}

// planHost measures the host for a batch of parts partitions on the
// Prover's devices, whose key plans are those planFor gives for budget,
// each with workers device workers. When the host has room for fewer than
// parts partitions, the other idle Provers' vectors are dropped
// (vectorList.reclaimOthers) and the host measured again. It fails,
// before anything is solved, when not even one partition fits.
func (pr *Prover) planHost(budget int64, workers, parts int) (hostPlan, error) {
	hp, err := pr.measureHost(budget, workers)
	if hp.avail > 0 && (err != nil || hp.slots < parts) && pr.vectors.reclaimOthers() > 0 {
		hp, err = pr.measureHost(budget, workers)
	}
	return hp, err
}

// measureHost is planHost's measure of the host as it is now.
func (pr *Prover) measureHost(budget int64, workers int) (hostPlan, error) {
	p := pr.p
	hp := hostPlan{avail: availableHostMemory(), need: p.hostNeed()}
	if hp.avail <= 0 {
		return hp, nil
	}
	hp.held = pr.vectors.held()
	for _, d := range pr.devices {
		if !backend.IsHostBound(d.dev) {
			continue
		}
		r, err := d.hostBoundNeed(p, budget, workers)
		if err != nil {
			return hp, fmt.Errorf("groth16: %w", err)
		}
		hp.reserve += r
	}
	room := hp.avail + hp.held - hp.reserve
	if room < hp.need {
		return hp, fmt.Errorf("groth16: a batch of this circuit (domain 2^%d) needs about %s of host memory for one partition's wire and constraint vectors, beyond the key and the circuit, and %s for its devices on host memory; the host has %s available%s",
			p.logN, gibs(hp.need), gibs(hp.reserve), gibs(hp.avail), heldNote(hp.held))
	}
	hp.slots = int(max(1, room/max(hp.need, 1)))
	return hp, nil
}

// hostBoundNeed is the host memory a device on the host's memory takes for
// a batch beyond what it holds now: each worker's copies of a, b and c
// (the wire vectors and a resident key's bases it reads in place when it
// can: backend.ReadOnlyUploader), the MSMs' scratch, and the key when it
// holds none yet and copies what it is given.
func (d *proverDevice) hostBoundNeed(p *prover, budget int64, workers int) (int64, error) {
	pl, err := d.planFor(p, budget)
	if err != nil {
		return 0, err
	}
	need := pl.scratch + int64(workers)*3*int64(p.n)*scalarBytes
	if _, inPlace := d.dev.(backend.ReadOnlyUploader); !inPlace && !d.loaded() {
		need += pl.bytes
	}
	return need, nil
}

func (hp hostPlan) String() string {
	if hp.slots == 0 {
		return "host memory unknown: partitions in flight not bounded by it"
	}
	return fmt.Sprintf("at most %d partitions hold their host vectors at once (%s each; host available %s, %s held by the Prover, %s kept for host-bound devices)",
		hp.slots, gibs(hp.need), gibs(hp.avail), gibs(hp.held), gibs(hp.reserve))
}

// gibs formats bytes in GiB.
func gibs(b int64) string { return fmt.Sprintf("%.2f GiB", float64(b)/(1<<30)) }
